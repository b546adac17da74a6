/**
 * The importer's hostile corpus: every OpenAPI document in test/hostile/import-corpus/ (a file, or
 * a folder whose entry is openapi.yaml), plus the cases too large or too machine-specific to check
 * in (huge files, thousands of files, symlinks, FIFOs), written at test time (names start `gen-`).
 *
 * A case's leading comment lines may carry directives:
 *   # expect: imported | refused <code>[|<code>…]   (default: either, as long as the invariants hold)
 *   # check: typecheck                               generate the package, tsc --strict it, run its validators
 *   # review: <kind>                                 the review report must list an item of this kind
 *   # args: <arguments>                              added to the import-openapi command line
 *   # forbid: <text>                                 must appear in no output and no written file
 */
import { execFileSync } from "node:child_process";
import { closeSync, cpSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export interface ImportCase {
  readonly name: string;
  /** The document to import (absolute). */
  readonly entry: string;
  /** "either", "imported", or the codes one of which the refusal must carry. */
  readonly expect: "either" | "imported" | { readonly refused: readonly string[] };
  readonly typecheck: boolean;
  readonly review: readonly string[];
  readonly args: readonly string[];
  readonly forbid: readonly string[];
}

export const IMPORT_CORPUS_DIR = resolve("test/hostile/import-corpus");
/** Inside the repository, so generated packages resolve their dependencies from our node_modules. */
export const IMPORT_WORK = resolve("test-results/hostile/import-corpus");
/** Each case gets a folder of its own here; OUTSIDE sits beside them, outside every case's folder. */
const CASES = join(IMPORT_WORK, "cases");
export const OUTSIDE_SECRET = "OUTSIDE-SECRET-IMPORT-4b2e";
export const GLOBAL_FORBID = [OUTSIDE_SECRET, "root:x:0:0"];

interface Directives {
  expect: ImportCase["expect"];
  typecheck: boolean;
  review: string[];
  args: string[];
  forbid: string[];
}

function directives(text: string, where: string): Directives {
  const d: Directives = { expect: "either", typecheck: false, review: [], args: [], forbid: [] };
  for (const line of text.split("\n")) {
    if (!line.startsWith("#")) break;
    const m = /^#\s*(expect|check|review|args|forbid):\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    const value = m[2]!;
    if (m[1] === "expect") {
      const refused = /^refused ([a-z0-9|-]+)$/.exec(value);
      if (value === "imported" || value === "either") d.expect = value;
      else if (refused) d.expect = { refused: refused[1]!.split("|") };
      else throw new Error(`${where}: bad expect directive: ${line}`);
    } else if (m[1] === "check") {
      if (value !== "typecheck") throw new Error(`${where}: bad check directive: ${line}`);
      d.typecheck = true;
    } else if (m[1] === "review") d.review.push(value);
    else if (m[1] === "args") d.args.push(...value.split(/\s+/));
    else d.forbid.push(value);
  }
  return d;
}

const doc = (title: string, paths: object, extra: object = {}) => ({ openapi: "3.0.3", info: { title, version: "1.0.0" }, paths, ...extra });
const okResponse = (schema: object) => ({ "200": { description: "ok", content: { "application/json": { schema } } } });
const oneOperation = (title: string, schema: object, extra: object = {}) => doc(title, { "/a": { get: { operationId: "get_a", responses: okResponse(schema) } } }, extra);
const json = (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value));

/** A case built at test time: `write` fills the case's folder and returns the entry file. */
interface GeneratedCase extends Partial<Directives> {
  readonly name: string;
  /** What it attacks, for the README table. */
  readonly about: string;
  readonly write: (dir: string) => string;
}

/** `n` operations, one path each; `tag` names the tag every one of them carries. */
function operations(n: number, tag?: string): Record<string, object> {
  const paths: Record<string, object> = {};
  for (let i = 0; i < n; i++) paths[`/p${i}`] = { get: { operationId: `op${i}`, ...(tag ? { tags: [tag] } : {}), responses: { "200": { description: "" } } } };
  return paths;
}

/** Schemas S0…S(n-1) where each refers to the next with `link(next)`; the last is a string. */
function chain(n: number, link: (next: string) => object): Record<string, object> {
  const schemas: Record<string, object> = {};
  for (let i = 0; i < n; i++) schemas[`S${i}`] = i === n - 1 ? { type: "string" } : link(`#/components/schemas/S${i + 1}`);
  return schemas;
}

export const GENERATED: readonly GeneratedCase[] = [
  {
    name: "gen-huge-ref-target",
    about: "a $ref to a 400 MB file inside the folder (sparse: it costs no disk); once a V8 fatal error",
    expect: { refused: ["openapi-ref-bytes-limit"] },
    write: (dir) => {
      const fd = openSync(join(dir, "huge.yaml"), "w");
      closeSync(fd);
      execFileSync("truncate", ["-s", "400M", join(dir, "huge.yaml")]);
      json(join(dir, "openapi.json"), oneOperation("Huge target", { $ref: "./huge.yaml" }));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-ref-chain-10000",
    about: "10,000 schemas, each only a $ref to the next; once over 60 s and 4 GB",
    expect: { refused: ["openapi-ref-depth-limit"] },
    write: (dir) => {
      json(join(dir, "openapi.json"), oneOperation("Bare chain", { $ref: "#/components/schemas/S0" }, { components: { schemas: chain(10_000, (next) => ({ $ref: next })) } }));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-ref-chain-properties-10000",
    about: "10,000 schemas, each with a property whose schema is the next: a contract validate refuses (ref-depth-limit)",
    expect: { refused: ["openapi-ref-depth-limit"] },
    write: (dir) => {
      json(join(dir, "openapi.json"), oneOperation("Property chain", { $ref: "#/components/schemas/S0" }, { components: { schemas: chain(10_000, (next) => ({ type: "object", properties: { next: { $ref: next } } })) } }));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-ref-chain-properties-60",
    about: "60 schemas each referring to the next through a property: inside the limit, imported and valid",
    expect: "imported",
    write: (dir) => {
      json(join(dir, "openapi.json"), oneOperation("Short chain", { $ref: "#/components/schemas/S0" }, { components: { schemas: chain(60, (next) => ({ type: "object", properties: { next: { $ref: next } } })) } }));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-file-chain-2000",
    about: "2,000 files, each only a $ref to the next; once 'Maximum call stack size exceeded'",
    expect: { refused: ["openapi-ref-file-limit", "openapi-ref-depth-limit"] },
    write: (dir) => {
      for (let i = 1; i < 2000; i++) json(join(dir, `f${i}.json`), i === 1999 ? { type: "string" } : { $ref: `./f${i + 1}.json` });
      json(join(dir, "openapi.json"), oneOperation("File chain", { $ref: "./f1.json" }));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-file-chain-100",
    about: "100 files, each a schema whose property is the next file: under the file limit, over the $ref depth limit",
    expect: { refused: ["openapi-ref-depth-limit"] },
    write: (dir) => {
      for (let i = 1; i <= 100; i++) json(join(dir, `f${i}.json`), i === 100 ? { type: "string" } : { type: "object", properties: { next: { $ref: `./f${i + 1}.json` } } });
      json(join(dir, "openapi.json"), oneOperation("File chain", { $ref: "./f1.json" }));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-many-files",
    about: "300 files, each referred to once: more files than one import reads",
    expect: { refused: ["openapi-ref-file-limit"] },
    write: (dir) => {
      const properties: Record<string, object> = {};
      for (let i = 0; i < 300; i++) {
        json(join(dir, `p${i}.json`), { type: "string", description: `file ${i}` });
        properties[`p${i}`] = { $ref: `./p${i}.json` };
      }
      json(join(dir, "openapi.json"), oneOperation("Many files", { type: "object", properties }));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-operations-10001",
    about: "10,001 operations: once imported into a contract validate refuses (operation-limit)",
    expect: { refused: ["openapi-operation-limit"] },
    write: (dir) => {
      json(join(dir, "openapi.json"), doc("Too many", operations(10_001, "all")));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-operations-10001-by-tag",
    about: "the same document imported by --tag: the tagged operations fit in one contract",
    expect: "imported",
    args: ["--tag", "small"],
    write: (dir) => {
      const paths = operations(10_001, "big");
      paths["/small"] = { get: { operationId: "small", tags: ["small"], responses: okResponse({ type: "string" }) } };
      json(join(dir, "openapi.json"), doc("Too many, by tag", paths));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-operations-200000",
    about: "200,000 operations (40,000 paths of five methods); once 'Maximum call stack size exceeded'",
    expect: { refused: ["openapi-operation-limit"] },
    write: (dir) => {
      // Operations as small as they come: each an empty mapping.
      const paths: Record<string, object> = {};
      for (let i = 0; i < 40_000; i++) paths[`/p${i}`] = { get: {}, put: {}, post: {}, delete: {}, patch: {} };
      json(join(dir, "openapi.json"), doc("Far too many", paths));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-wide-mapping",
    about: "one mapping of 200,000 entries (component schemas): the bundler spreads a mapping's keys into a call and overflowed the stack",
    expect: { refused: ["openapi-entries-limit"] },
    write: (dir) => {
      const schemas: Record<string, object> = {};
      for (let i = 0; i < 200_000; i++) schemas[`S${i}`] = {};
      json(join(dir, "openapi.json"), oneOperation("Wide", { type: "string" }, { components: { schemas } }));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-yaml-values",
    about: "a 2 MB YAML list of 510,000 values: more than one YAML file may hold (YAML is read with every value's position)",
    expect: { refused: ["openapi-nodes-limit"] },
    write: (dir) => {
      writeFileSync(join(dir, "openapi.yaml"), `openapi: 3.0.3\ninfo: { title: Many values, version: 1.0.0 }\npaths: { /a: { get: { responses: { "200": { description: ok } } } } }\nx-values:\n${"- 0\n".repeat(510_000)}`);
      return join(dir, "openapi.yaml");
    },
  },
  {
    name: "gen-json-values",
    about: "4.5 MB of JSON holding 2,250,000 values (45 lists of 50,000): more than one import reads",
    expect: { refused: ["openapi-nodes-limit"] },
    write: (dir) => {
      const list = `[${"0,".repeat(49_999)}0]`;
      writeFileSync(join(dir, "openapi.json"), `{"openapi":"3.0.3","info":{"title":"Many values","version":"1.0.0"},"paths":{},"x-values":[${Array.from({ length: 45 }, () => list).join(",")}]}`);
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-deep-yaml",
    about: "5,000 nested flow sequences: the YAML parser and every walker recurse",
    expect: { refused: ["yaml-depth-limit"] },
    write: (dir) => {
      writeFileSync(join(dir, "openapi.yaml"), `openapi: 3.0.3\ninfo: { title: Deep, version: 1.0.0 }\nx-deep: ${"[".repeat(5000)}1${"]".repeat(5000)}\npaths: { /a: { get: { responses: { "200": { description: ok } } } } }\n`);
      return join(dir, "openapi.yaml");
    },
  },
  {
    name: "gen-deep-schema-items",
    about: "a schema of 200 nested items (200 YAML levels, inside the YAML limit): deeper than a contract's schemas may nest",
    expect: { refused: ["openapi-schema-depth-limit"] },
    write: (dir) => {
      let schema: object = { type: "string" };
      for (let i = 0; i < 200; i++) schema = { type: "array", items: schema };
      json(join(dir, "openapi.json"), oneOperation("Deep items", schema));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-deep-schema-properties",
    about: "a schema of 100 nested properties: once cut off to {} with a review item",
    expect: { refused: ["openapi-schema-depth-limit"] },
    write: (dir) => {
      let schema: object = { type: "string" };
      for (let i = 0; i < 100; i++) schema = { type: "object", properties: { [`p${i}`]: schema } };
      json(join(dir, "openapi.json"), oneOperation("Deep properties", schema));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-deep-example-inlined",
    about: "example data 248 levels deep in a schema near the document's root, inlined (used once) deep inside an operation's output: a contract nested past 256 levels",
    expect: { refused: ["yaml-depth-limit"] },
    write: (dir) => {
      let data: unknown = 1;
      for (let i = 0; i < 248; i++) data = [data];
      let schema: object = { $ref: "#/x-lib" };
      for (let i = 0; i < 10; i++) schema = { type: "object", properties: { p: schema } };
      json(join(dir, "openapi.json"), oneOperation("Deep example", schema, { "x-lib": { type: "array", example: data } }));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-huge-string",
    about: "an 11 MB description: the contract would be larger than contractgen reads",
    expect: { refused: ["openapi-contract-too-large"] },
    write: (dir) => {
      json(join(dir, "openapi.json"), doc("Huge string", { "/a": { get: { operationId: "get_a", description: "x".repeat(11 * 1024 * 1024), responses: okResponse({ type: "string" }) } } }));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-huge-enum",
    about: "an enum of 40,000 values: imported, and the contract validates",
    expect: "imported",
    write: (dir) => {
      json(join(dir, "openapi.json"), oneOperation("Huge enum", { type: "string", enum: Array.from({ length: 40_000 }, (_, i) => `v${i}`) }));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-non-utf8",
    about: "bytes that are not UTF-8",
    expect: { refused: ["file-binary"] },
    write: (dir) => {
      writeFileSync(join(dir, "openapi.yaml"), Buffer.concat([Buffer.from("openapi: 3.0.3\ninfo: { title: \""), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from("\", version: 1.0.0 }\npaths: {}\n")]));
      return join(dir, "openapi.yaml");
    },
  },
  {
    name: "gen-non-utf8-ref-target",
    about: "a $ref to a file that is not UTF-8",
    expect: { refused: ["file-binary"] },
    write: (dir) => {
      writeFileSync(join(dir, "bad.yaml"), Buffer.from([0x74, 0x79, 0x70, 0x65, 0x3a, 0x20, 0xff, 0x0a]));
      json(join(dir, "openapi.json"), oneOperation("Binary target", { $ref: "./bad.yaml" }));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-ref-fifo",
    about: "a $ref to a FIFO inside the folder: opening it for reading would block forever",
    expect: { refused: ["openapi-ref-not-regular-file"] },
    write: (dir) => {
      execFileSync("mkfifo", [join(dir, "pipe.yaml")]);
      json(join(dir, "openapi.json"), oneOperation("FIFO", { $ref: "./pipe.yaml" }));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-ref-symlink-loop",
    about: "a $ref to a symlink that points at a symlink that points back",
    expect: { refused: ["openapi-ref-unresolved", "openapi-ref-not-regular-file"] },
    write: (dir) => {
      symlinkSync("b.yaml", join(dir, "a.yaml"));
      symlinkSync("a.yaml", join(dir, "b.yaml"));
      json(join(dir, "openapi.json"), oneOperation("Symlink loop", { $ref: "./a.yaml" }));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-ref-symlink-out",
    about: "a symlink inside the folder to a secret outside it",
    expect: { refused: ["openapi-ref-outside-root"] },
    write: (dir) => {
      symlinkSync(join(CASES, "..", "outside.yaml"), join(dir, "link.yaml"));
      json(join(dir, "openapi.json"), oneOperation("Symlink out", { $ref: "./link.yaml" }));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-ref-symlink-dev-zero",
    about: "a symlink inside the folder to /dev/zero",
    expect: { refused: ["openapi-ref-outside-root", "openapi-ref-not-regular-file"] },
    write: (dir) => {
      symlinkSync("/dev/zero", join(dir, "zero.yaml"));
      json(join(dir, "openapi.json"), oneOperation("Zero", { $ref: "./zero.yaml" }));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-ref-outside-sibling",
    about: "a $ref to a real secret file in the folder above",
    expect: { refused: ["openapi-ref-outside-root"] },
    write: (dir) => {
      json(join(dir, "openapi.json"), oneOperation("Sibling", { $ref: "../../outside.yaml#/secret" }));
      return join(dir, "openapi.json");
    },
  },
  {
    name: "gen-long-strings",
    about: "a 20,000-character operationId, parameter name and property name, 1 MB of description",
    expect: "imported",
    write: (dir) => {
      const long = "a".repeat(20_000);
      json(join(dir, "openapi.json"), doc("Long strings", {
        [`/${long}/{${long}}`]: { get: { operationId: long, description: "*/ `".repeat(250_000), parameters: [{ name: long, in: "path", required: true, schema: { type: "string" } }], responses: okResponse({ type: "object", properties: { [long]: { type: "string" } } }) } },
      }));
      return join(dir, "openapi.json");
    },
  },
];

export interface Materialized {
  readonly cases: readonly ImportCase[];
  /** Every case, static and generated, with what it attacks: the README's table. */
  readonly about: ReadonlyMap<string, string>;
}

/** Static case names: a file `<name>.yaml|json`, or a folder `<name>/` with `openapi.yaml`. */
export function staticCaseNames(): string[] {
  return readdirSync(IMPORT_CORPUS_DIR)
    .filter((n) => n !== "README.md")
    .map((n) => n.replace(/\.(ya?ml|json)$/, ""))
    .sort();
}

/** Write every case into its own folder under IMPORT_WORK/cases (the folder is made empty first by the caller). */
export function materialize(only?: ReadonlySet<string>): Materialized {
  mkdirSync(CASES, { recursive: true });
  writeFileSync(join(CASES, "..", "outside.yaml"), `secret: ${OUTSIDE_SECRET}\n`);
  const cases: ImportCase[] = [];
  const about = new Map<string, string>();
  for (const entry of readdirSync(IMPORT_CORPUS_DIR).sort()) {
    if (entry === "README.md") continue;
    const name = entry.replace(/\.(ya?ml|json)$/, "");
    if (only && !only.has(name)) continue;
    const dir = join(CASES, name);
    const source = join(IMPORT_CORPUS_DIR, entry);
    let file: string;
    if (statSync(source).isDirectory()) {
      cpSync(source, dir, { recursive: true });
      file = join(dir, "openapi.yaml");
    } else {
      mkdirSync(dir, { recursive: true });
      file = join(dir, entry);
      cpSync(source, file);
    }
    const d = directives(readFileSync(file, "utf8"), entry);
    cases.push({ name, entry: file, ...d, forbid: [...GLOBAL_FORBID, ...d.forbid] });
  }
  for (const g of GENERATED) {
    if (only && !only.has(g.name)) continue;
    const dir = join(CASES, g.name);
    mkdirSync(dir, { recursive: true });
    const file = g.write(dir);
    about.set(g.name, g.about);
    cases.push({ name: g.name, entry: file, expect: g.expect ?? "either", typecheck: g.typecheck ?? false, review: g.review ?? [], args: g.args ?? [], forbid: [...GLOBAL_FORBID, ...(g.forbid ?? [])] });
  }
  return { cases, about };
}
