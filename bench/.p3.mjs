import { parseContract } from "../dist/src/spec/parse.js";
import { Session } from "node:inspector/promises";
import { writeFileSync } from "node:fs";
const s = new Session(); s.connect();
await s.post("Profiler.enable"); await s.post("Profiler.start");
const r = parseContract(process.argv[2], {});
const { profile } = await s.post("Profiler.stop");
writeFileSync(`/tmp/gh/read.cpuprofile`, JSON.stringify(profile));
