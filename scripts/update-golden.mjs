// Regenerates generated-examples/ (see golden-targets.mjs). Run after `tsc` (npm run update:golden).
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { goldenTargets } from "./golden-targets.mjs";

for (const t of goldenTargets()) {
  const out = `generated-examples/${t.name}`;
  // Handler stubs are write-once (never replaced by generate): drop them so the example shows today's stubs.
  if (t.args.includes("skeleton")) rmSync(`${out}/mcp/handlers`, { recursive: true, force: true });
  const r = spawnSync(process.execPath, ["bin/contractgen.js", "generate", t.spec, "-o", out, "--force", ...t.args], { stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
