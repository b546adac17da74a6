/**
 * The wire judge over every document of bench/wire/documents.mjs: a table per document of requests
 * accepted and rejected by an OpenAPI mock that validates them (Prism), declared errors recognised,
 * and adapter parity. Writes bench/results/wire.json and bench/results/wire.md.
 *
 *   node bench/wire.mjs [--max-operations N] [--only name,name]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { judgeDocument, JUDGE_ROOT } from "./wire/judge.mjs";
import { WIRE_DOCUMENTS } from "./wire/documents.mjs";

const args = process.argv.slice(2);
const flag = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const maxOperations = Number(flag("--max-operations") ?? 150);
const only = flag("--only")?.split(",");
const work = join(tmpdir(), `contractgen-wire-${process.pid}`);

const rows = [];
for (const doc of WIRE_DOCUMENTS.filter((d) => !only || only.includes(d.name))) {
  process.stderr.write(`judging ${doc.name}… `);
  try {
    const r = await judgeDocument({ document: join(JUDGE_ROOT, doc.path), name: doc.name, workDir: join(work, doc.name), maxOperations });
    rows.push({ ...r, covers: doc.covers, path: doc.path });
    process.stderr.write(`${r.called} calls, ${r.rejected} rejected, ${r.errorsRecognised}/${r.errorsProvoked} errors recognised (${r.seconds} s)\n`);
  } catch (e) {
    rows.push({ document: doc.name, path: doc.path, covers: doc.covers, failed: String(e?.message ?? e).slice(0, 2000) });
    process.stderr.write(`could not be judged: ${String(e?.message ?? e).split("\n")[0]}\n`);
  }
}

const sum = (key) => rows.reduce((n, r) => n + (r[key] ?? 0), 0);
const lines = [
  "# Wire judge: generated adapters against Prism (`mock --errors`)",
  "",
  `Every operation (at most ${maxOperations} a document, sampled evenly) called through the generated SDK with an input its contract accepts; each declared error status provoked with \`Prefer: code=N\`; a sample through the CLI and MCP server, their requests compared with the SDK's. Written by \`node bench/wire.mjs\`.`,
  "",
  "| document | covers | operations | called | accepted | rejected | response refused | document unsound | mock limitation | other | no input | errors recognised | unrecognised | adapter mismatches | s |",
  "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ...rows.map((r) =>
    r.failed
      ? `| ${r.document} | ${r.covers} | could not be judged: ${r.failed.split("\n")[0].replace(/\|/g, "\\|").slice(0, 120)} ||||||||||||`
      : `| ${r.document} | ${r.covers} | ${r.operations} | ${r.called} | ${r.fine} | ${r.rejected} | ${r.responseRefused} | ${r.documentUnsound} | ${r.mockLimitation} | ${r.otherFailure} | ${r.noInput} | ${r.errorsRecognised} of ${r.errorsProvoked} | ${r.errorsUnrecognised} | ${r.adapterMismatches} of ${r.adapterCalls} | ${r.seconds} |`,
  ),
  `| **all** | | ${sum("operations")} | ${sum("called")} | ${sum("fine")} | ${sum("rejected")} | ${sum("responseRefused")} | ${sum("documentUnsound")} | ${sum("mockLimitation")} | ${sum("otherFailure")} | ${sum("noInput")} | ${sum("errorsRecognised")} of ${sum("errorsProvoked")} | ${sum("errorsUnrecognised")} | ${sum("adapterMismatches")} of ${sum("adapterCalls")} | |`,
  "",
  "## Problems (first 10 a document)",
  "",
  ...rows.flatMap((r) => (r.problems ?? []).slice(0, 10).map((p) => `- ${r.document} \`${p.operation}\` ${p.kind}: ${String(p.detail).replace(/\n/g, " ").slice(0, 240)}`)),
  "",
];
mkdirSync(join(JUDGE_ROOT, "bench", "results"), { recursive: true });
writeFileSync(join(JUDGE_ROOT, "bench", "results", "wire.json"), `${JSON.stringify({ maxOperations, rows }, null, 2)}\n`);
writeFileSync(join(JUDGE_ROOT, "bench", "results", "wire.md"), `${lines.join("\n")}`);
process.stdout.write(`${lines.join("\n")}`);
