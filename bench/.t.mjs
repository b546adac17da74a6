import { parseContract } from "../dist/src/spec/parse.js";
import { emitTypes } from "../dist/src/emit/sdk/types.js";
import { emitSchemaData } from "../dist/src/emit/sdk/schemas.js";
import { emitErrorTypes } from "../dist/src/emit/sdk/errors.js";
const r = parseContract(process.argv[2], {});
const t = async (name, f) => { const s = performance.now(); const c0 = process.cpuUsage(); const x = await f(); const c = process.cpuUsage(c0); console.log(name, Math.round(performance.now() - s), "ms wall", Math.round((c.user + c.system) / 1000), "ms cpu"); return x; };
await t("schemas", () => emitSchemaData(r.model));
await t("types", () => emitTypes(r.model));
await t("errors", () => emitErrorTypes(r.model));
