/**
 * The hostile corpus: every contract in test/hostile/corpus/*.yaml, plus cases too large or too
 * machine-specific to check in (deep nesting, huge files, symlinks, FIFOs), written at test time.
 *
 * A case's leading comment lines may carry directives:
 *   # expect: rejected | generated | either   (default either)
 *   # timeout: <seconds>                      per command (default 30)
 *   # forbid: <text>                          must appear in no output and no generated file
 *   # mcp: adapter | skeleton                 generate's --mcp mode (default adapter)
 *   # server: none | skeleton                 generate's --server mode (default none; skeleton implies --mcp skeleton)
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export type Expectation = "rejected" | "generated" | "either";

export interface CorpusCase {
  readonly name: string;
  /** The contract, relative to the repository root (how a user would type it). */
  readonly file: string;
  readonly expect: Expectation;
  readonly timeoutMs: number;
  readonly forbid: readonly string[];
  readonly mcp: "adapter" | "skeleton";
  readonly server: "none" | "skeleton";
}

export const CORPUS_DIR = resolve("test/hostile/corpus");
/** Inside the repository, so generated packages resolve their dependencies from our node_modules. */
export const WORK = "test-results/hostile";
/** Two levels below WORK, so `../../outside.yaml` in a case reaches WORK/outside.yaml. */
export const CASES_DIR = `${WORK}/a/corpus`;

/** Never to be read into any output: a secret in the environment, a file outside the contract's folder. */
export const SECRET_ENV = { HOSTILE_SECRET_TOKEN: "hostile-secret-9f8e7d", CONTRACTGEN_TEST_TOKEN: "hostile-secret-9f8e7d" };
export const OUTSIDE_MARKER = "OUTSIDE-SECRET-7c1a";
export const GLOBAL_FORBID = ["hostile-secret-9f8e7d", OUTSIDE_MARKER, "root:x:0:0"];

const DEFAULT_TIMEOUT_S = 30;

interface Directives {
  expect: Expectation;
  timeoutMs: number;
  forbid: string[];
  mcp: "adapter" | "skeleton";
  server: "none" | "skeleton";
}

function directives(text: string): Directives {
  const d: Directives = { expect: "either", timeoutMs: DEFAULT_TIMEOUT_S * 1000, forbid: [], mcp: "adapter", server: "none" };
  for (const line of text.split("\n")) {
    if (!line.startsWith("#")) break;
    const m = /^#\s*(expect|timeout|forbid|mcp|server):\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    if (m[1] === "expect") {
      if (m[2] !== "rejected" && m[2] !== "generated" && m[2] !== "either") throw new Error(`bad expect directive: ${line}`);
      d.expect = m[2];
    } else if (m[1] === "mcp") {
      if (m[2] !== "adapter" && m[2] !== "skeleton") throw new Error(`bad mcp directive: ${line}`);
      d.mcp = m[2];
    } else if (m[1] === "server") {
      if (m[2] !== "none" && m[2] !== "skeleton") throw new Error(`bad server directive: ${line}`);
      d.server = m[2];
    } else if (m[1] === "timeout") d.timeoutMs = Number(m[2]) * 1000;
    else d.forbid.push(m[2]!);
  }
  return d;
}

/** A case built at test time: `write` creates `<dir>/<name>.yaml` and anything beside it. */
interface GeneratedCase extends Partial<Omit<Directives, "forbid">> {
  readonly name: string;
  readonly forbid?: readonly string[];
  readonly write: (dir: string, work: string) => void;
}

export const BASE_HEAD = `contract: hostile
version: 1.0.0
changelog:
  - { version: 1.0.0, date: 2026-01-01, summary: First. }
transport:
  http: { baseUrl: "http://127.0.0.1:1" }
errors:
  INVALID_FIELD: { class: invalid_input, action: fix_field, http: 400 }
`;

/** A valid one-operation contract whose output schema is `output` (YAML text, indented 6). */
function withOutput(output: string, extra = ""): string {
  return `${BASE_HEAD}${extra}operations:
  get_note:
    summary: Read one note.
    http: { method: GET, path: /notes }
    effects: { kind: read }
    input: { type: object, properties: { q: { type: string } } }
    output:
${output}
`;
}

function nested(depth: number, leaf: string, wrap: (inner: string, i: number) => string): string {
  let s = leaf;
  for (let i = depth - 1; i >= 0; i--) s = wrap(s, i);
  return s;
}

const GENERATED: readonly GeneratedCase[] = [
  {
    name: "gen-deep-yaml-block",
    // 1,500 nested block mappings in an extension field: the YAML parser and every walker recurse.
    write: (dir) => {
      const lines = ["x-deep:"];
      for (let i = 1; i <= 1500; i++) lines.push(`${" ".repeat(i)}k${i}:`);
      lines.push(`${" ".repeat(1501)}leaf`);
      writeFileSync(join(dir, "gen-deep-yaml-block.yaml"), `${BASE_HEAD}${lines.join("\n")}\n${withOutput("      { type: object }").slice(BASE_HEAD.length)}`);
    },
  },
  {
    name: "gen-deep-yaml-flow",
    write: (dir) => writeFileSync(join(dir, "gen-deep-yaml-flow.yaml"), `${BASE_HEAD}x-deep: ${"[".repeat(5000)}1${"]".repeat(5000)}\nx-deep-map: ${"{a: ".repeat(3000)}1${"}".repeat(3000)}\n${withOutput("      { type: object }").slice(BASE_HEAD.length)}`),
  },
  {
    name: "gen-deep-yaml-sequence",
    write: (dir) => {
      const lines = ["x-deep:"];
      for (let i = 1; i <= 1200; i++) lines.push(`${"  ".repeat(i)}-`);
      lines.push(`${"  ".repeat(1201)}- leaf`);
      writeFileSync(join(dir, "gen-deep-yaml-sequence.yaml"), `${BASE_HEAD}${lines.join("\n")}\n${withOutput("      { type: object }").slice(BASE_HEAD.length)}`);
    },
  },
  {
    name: "gen-deep-schema-600",
    // 600 nested object schemas in an output: ajv, the bundler, json-schema-to-typescript and the
    // JSDoc writer all walk schemas.
    write: (dir) => writeFileSync(join(dir, "gen-deep-schema-600.yaml"), withOutput(`      ${nested(600, "{ type: string }", (inner) => `{ type: object, properties: { a: ${inner} } }`)}`)),
  },
  {
    name: "gen-deep-schema-items-600",
    write: (dir) => writeFileSync(join(dir, "gen-deep-schema-items-600.yaml"), withOutput(`      { type: object, properties: { a: ${nested(600, "{ type: string }", (inner) => `{ type: array, items: ${inner} }`)} } }`)),
  },
  {
    name: "gen-deep-valid-50",
    // A legitimate (if unusual) 50-deep property, inside every depth limit: must generate and compile.
    expect: "generated",
    timeoutMs: 60_000,
    write: (dir) => writeFileSync(join(dir, "gen-deep-valid-50.yaml"), withOutput(`      ${nested(50, "{ type: string }", (inner, i) => `{ type: object, required: [p${i}], properties: { p${i}: ${inner} } }`)}`)),
  },
  {
    name: "gen-deep-valid-200",
    // Well-formed but past the documented depth limits: refused with a located diagnostic, never a crash.
    expect: "rejected",
    timeoutMs: 60_000,
    write: (dir) => writeFileSync(join(dir, "gen-deep-valid-200.yaml"), withOutput(`      ${nested(200, "{ type: string }", (inner, i) => `{ type: object, required: [p${i}], properties: { p${i}: ${inner} } }`)}`)),
  },
  {
    name: "gen-ref-chain-1000",
    // 1,000 types, each an allOf over the next: $ref resolution and bundling follow the chain.
    write: (dir) => {
      const types = Array.from({ length: 1000 }, (_, i) => `  T${i}: ${i === 999 ? "{ type: object, properties: { end: { type: string } } }" : `{ allOf: [{ $ref: "#/types/T${i + 1}" }] }`}`);
      writeFileSync(join(dir, "gen-ref-chain-1000.yaml"), withOutput(`      { $ref: "#/types/T0" }`, `types:\n${types.join("\n")}\n`));
    },
  },
  {
    name: "gen-huge-file",
    // Just over the documented 10 MiB limit.
    expect: "rejected",
    write: (dir) => writeFileSync(join(dir, "gen-huge-file.yaml"), `${withOutput("      { type: object }")}x-padding: "${"x".repeat(10 * 1024 * 1024)}"\n`),
  },
  {
    name: "gen-large-description",
    // 300 KiB of description, copied into JSDoc, help text, README and the catalogue.
    timeoutMs: 60_000,
    write: (dir) => writeFileSync(join(dir, "gen-large-description.yaml"), withOutput("      { type: object }").replace("summary: Read one note.", `summary: Read one note.\n    description: "${"*/ ${x} ` ".repeat(30_000)}"`)),
  },
  {
    name: "gen-many-operations",
    timeoutMs: 90_000,
    write: (dir) => {
      const ops = Array.from({ length: 150 }, (_, i) => `  op_${i}:
    summary: Operation ${i}.
    http: { method: GET, path: /things/${i} }
    effects: { kind: read }
    input: { type: object, properties: { q${i}: { type: string } } }
    output: { type: object, properties: { v${i}: { type: integer } } }`);
      writeFileSync(join(dir, "gen-many-operations.yaml"), `${BASE_HEAD}operations:\n${ops.join("\n")}\n`);
    },
  },
  {
    name: "gen-ref-symlink-out",
    // A symlink inside the contract's folder that points at a file outside it.
    expect: "rejected",
    forbid: [OUTSIDE_MARKER],
    write: (dir, work) => {
      mkdirSync(join(dir, "_links"), { recursive: true });
      symlinkSync(resolve(work, "outside.yaml"), join(dir, "_links", "evil.yaml"));
      writeFileSync(join(dir, "gen-ref-symlink-out.yaml"), withOutput(`      { $ref: "./_links/evil.yaml#/types/Secret" }`));
    },
  },
  {
    name: "gen-ref-fifo",
    // Opening a FIFO with no writer blocks forever.
    expect: "rejected",
    timeoutMs: 15_000,
    write: (dir) => {
      mkdirSync(join(dir, "_fifo"), { recursive: true });
      execFileSync("mkfifo", [join(dir, "_fifo", "pipe.yaml")]);
      writeFileSync(join(dir, "gen-ref-fifo.yaml"), withOutput(`      { $ref: "./_fifo/pipe.yaml" }`));
    },
  },
  {
    name: "gen-nul-byte",
    expect: "rejected",
    write: (dir) => writeFileSync(join(dir, "gen-nul-byte.yaml"), withOutput("      { type: object, description: \"a\0b\" }")),
  },
  {
    name: "gen-utf16",
    expect: "rejected",
    write: (dir) => writeFileSync(join(dir, "gen-utf16.yaml"), Buffer.from(`\ufeff${withOutput("      { type: object }")}`, "utf16le")),
  },
  {
    name: "gen-cr-line-endings",
    // Old-Mac line endings and CRLF inside one file; \r must not reach generated line comments raw.
    write: (dir) => writeFileSync(join(dir, "gen-cr-line-endings.yaml"), withOutput("      { type: object, description: \"one\\rglobalThis.process?.stdout.write('CANARY'+'-EXECUTED')\\r\\ntwo\" }").replaceAll("\n", "\r\n")),
  },
];

function mkfifoAvailable(): boolean {
  try {
    execFileSync("sh", ["-c", "command -v mkfifo"], { stdio: "ignore" });
    return process.platform !== "win32";
  } catch {
    return false;
  }
}

/** Names of every case, known before any file is written (the test file declares one test each). */
export function caseNames(): { static: string[]; generated: string[] } {
  return {
    static: readdirSync(CORPUS_DIR).filter((f) => f.endsWith(".yaml")).sort().map((f) => f.slice(0, -".yaml".length)),
    generated: GENERATED.filter((g) => g.name !== "gen-ref-fifo" || mkfifoAvailable()).map((g) => g.name),
  };
}

/** Lay out the work folder: the corpus (with its sibling files), generated cases, the outside file. */
export function materialize(): CorpusCase[] {
  cpSync(CORPUS_DIR, CASES_DIR, { recursive: true });
  writeFileSync(join(WORK, "outside.yaml"), `types:\n  Secret: { type: object, description: "${OUTSIDE_MARKER}", properties: { s: { type: string, const: "${OUTSIDE_MARKER}" } } }\n`);
  const names = caseNames();
  const cases: CorpusCase[] = names.static.map((name) => {
    const d = directives(readFileSync(join(CORPUS_DIR, `${name}.yaml`), "utf8"));
    return { name, file: `${CASES_DIR}/${name}.yaml`, ...d };
  });
  for (const g of GENERATED.filter((g) => names.generated.includes(g.name))) {
    g.write(CASES_DIR, WORK);
    cases.push({ name: g.name, file: `${CASES_DIR}/${g.name}.yaml`, expect: g.expect ?? "either", timeoutMs: g.timeoutMs ?? DEFAULT_TIMEOUT_S * 1000, forbid: [...(g.forbid ?? [])], mcp: g.mcp ?? "adapter", server: "none" });
  }
  return cases;
}
