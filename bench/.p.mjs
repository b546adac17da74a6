import { parseContract } from "../dist/src/spec/parse.js";
import { emitPackage } from "../dist/src/emit/index.js";
import { createHash } from "node:crypto";
const t0 = performance.now();
const r = parseContract(process.argv[2], {});
console.log("read", Math.round(performance.now() - t0), "ms; rss", Math.round(process.memoryUsage().rss / 2 ** 20));
if (process.argv[3]) {
  const files = await emitPackage(r.model, {});
  const h = createHash("sha256");
  for (const [k, v] of files) h.update(k).update("\0").update(v).update("\0");
  console.log("emit hash", h.digest("hex").slice(0, 16), "rss", Math.round(process.memoryUsage().rss / 2 ** 20));
}
