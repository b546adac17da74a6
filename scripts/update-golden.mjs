// Regenerates generated-examples/ (see golden-targets.mjs). Run after `tsc` (npm run update:golden).
import { spawnSync } from "node:child_process";
import { goldenTargets } from "./golden-targets.mjs";

for (const t of goldenTargets()) {
  const r = spawnSync(process.execPath, ["bin/contractgen.js", "generate", t.spec, "-o", `generated-examples/${t.name}`, "--force", ...t.args], { stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
