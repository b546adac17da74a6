/**
 * Contract names that are also JavaScript object members, generated-looking type names, names that
 * only differ by case or are not PascalCase: validate rejects what would collide, and everything it
 * accepts generates code that compiles under tsc --strict (one tsc run over every case).
 */
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runDiff } from "../../src/diff/engine.js";
import { contractTree } from "../../src/diff/tree.js";
import { codesOf, contractYaml, freshRoot, generateInto, parseOk, tscStrict } from "./harness.js";

const PROTO_NAMES = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__"];
const fields = PROTO_NAMES.map((n) => `        ${JSON.stringify(n)}: { type: string }`).join("\n");

/** Input fields named like Object.prototype members, bound to body, query and (for one) a header. */
const protoFields = contractYaml({
  operations: `
  create_thing:
    summary: Create.
    http: { method: POST, path: /things, headers: { tenant: X-Tenant } }
    effects: { kind: mutating, idempotent: natural, destructive: false }
    input:
      type: object
      properties:
        tenant: { type: string }
${fields}
    output:
      type: object
      properties:
${fields}
  list_things:
    summary: List.
    http: { method: GET, path: /things }
    effects: { kind: read }
    input:
      type: object
      properties:
${fields}
    output: { type: object }`,
});

/** Shared types named like Object.prototype members, and not in PascalCase. */
const protoTypes = contractYaml({
  types: ["constructor", "toString", "valueOf", "hasOwnProperty", "import", "default", "hook", "then"]
    .map((n) => `  ${n}: { type: object, properties: { ${JSON.stringify(n)}: { type: string } } }`)
    .join("\n"),
  operations: `
  get_oauth2client:
    summary: A digit before a lower-case letter.
    http: { method: GET, path: /oauth }
    effects: { kind: read }
    input: { type: object, properties: { a: { $ref: "#/types/constructor" }, b: { $ref: "#/types/toString" } } }
    output: { $ref: "#/types/import" }
  get_hook:
    summary: Alias to a lower-case type.
    http: { method: GET, path: /hook }
    effects: { kind: read }
    input: { type: object, properties: { v: { $ref: "#/types/valueOf" }, h: { $ref: "#/types/hasOwnProperty" } } }
    output: { $ref: "#/types/hook" }
  get_then:
    summary: Then.
    http: { method: GET, path: /then }
    effects: { kind: read }
    input: { type: object, properties: { d: { $ref: "#/types/default" } } }
    output: { $ref: "#/types/then" }
  import:
    summary: An operation named like a reserved word.
    http: { method: GET, path: /import }
    effects: { kind: read }
    input: { type: object, properties: { i: { $ref: "#/types/import" } } }
    output: { $ref: "#/types/default" }
  default:
    summary: Another reserved word.
    http: { method: GET, path: /default }
    effects: { kind: read }
    input: { type: object }
    output: { type: object }
  v2_items3d_x9y:
    summary: Digits everywhere.
    http: { method: GET, path: /v2 }
    effects: { kind: read }
    input: { type: object }
    output: { type: object }`,
});

/**
 * Error details whose properties (and the shared types they reference) are named like
 * Object.prototype members: json-schema-to-typescript calls `schema.hasOwnProperty(…)` on every
 * object it walks, so an unprepared details schema crashed generate (exit 70).
 */
const protoDetails = contractYaml({
  types: `  constructor: { type: object, properties: { valueOf: { type: string }, "__proto__": { type: integer } } }
  Problem: { type: object, required: [field], properties: { field: { type: string } } }`,
  errors: `  BAD_INPUT:
    class: invalid_input
    action: fix_field
    http: 400
    details:
      type: object
      properties:
${fields.replace(/^ {8}/gm, "        ")}
        problem: { $ref: "#/types/Problem" }
        shape: { $ref: "#/types/constructor" }
  CONFLICT_X:
    class: conflict
    action: reread_and_replan
    http: 409
    details: { $ref: "#/types/constructor" }`,
  operations: `
  get_thing:
    summary: Read.
    http: { method: GET, path: /thing }
    effects: { kind: read }
    errors: [BAD_INPUT, CONFLICT_X]
    input: { type: object }
    output: { type: object, properties: { c: { $ref: "#/types/constructor" } } }`,
});

/**
 * Shared types (and an operation's own $defs entry) named like exports of the SDK runtime, which
 * sdk/index.ts re-exports beside the types: Outcome, ClientOptions, the ContractError class…
 */
const RUNTIME_NAMES = ["Outcome", "Taxonomy", "ClientOptions", "ErrorDetails", "ContractError", "MemoryJournal", "RetryPolicy", "Paginator"];
const runtimeNamedTypes = contractYaml({
  types: RUNTIME_NAMES.map((n) => `  ${n}: { type: object, required: [${n.toLowerCase()}], properties: { ${n.toLowerCase()}: { type: string } } }`).join("\n"),
  operations: `
  get_outcome:
    summary: Read.
    http: { method: GET, path: /outcome }
    effects: { kind: read }
    input: { type: object, properties: { options: { $ref: "#/types/ClientOptions" } } }
    output:
      $defs: { Intent: { type: string, enum: [a, b] } }
      type: object
      properties:
${RUNTIME_NAMES.map((n) => `        ${n.toLowerCase()}: { $ref: "#/types/${n}" }`).join("\n")}
        intent: { $ref: "#/operations/get_outcome/output/$defs/Intent" }`,
});

const op = (name: string, path = `/${name}`) => `
  ${name}:
    summary: Op.
    http: { method: GET, path: ${JSON.stringify(path)} }
    effects: { kind: read }
    input: { type: object }
    output: { type: object }`;

describe("names that are JavaScript object members", () => {
  it("input fields named constructor, toString, … are bound as themselves and freeze nothing shared", () => {
    const model = parseOk("proto-fields", protoFields);
    expect(Object.isFrozen(Object.prototype)).toBe(false);
    const create = model.operations.find((o) => o.names.id === "create_thing")!;
    for (const name of PROTO_NAMES) expect(create.http.bindings.find((b) => b.field === name)).toEqual({ field: name, in: "body", name });
    expect(create.http.bindings.find((b) => b.field === "tenant")).toEqual({ field: "tenant", in: "header", name: "X-Tenant" });
    const list = model.operations.find((o) => o.names.id === "list_things")!;
    for (const name of PROTO_NAMES) expect(list.http.bindings.find((b) => b.field === name)).toEqual({ field: name, in: "query", name });
    // The next contract of the same process still parses.
    parseOk("proto-fields-again", protoFields);
  });

  it.each(["then", "constructor", "toString", "valueOf", "hasOwnProperty", "core", "close", "isPrototypeOf"])(
    "an operation named %s is a validate error (it would shadow a member of the client or make it thenable)",
    (name) => {
      expect(codesOf(`op-${name}`, contractYaml({ operations: op(name) }))).toContain("operation-name-reserved");
    },
  );

  it("the diff sees fields named like Object.prototype members added and removed", () => {
    const without = parseOk("without", contractYaml({ operations: `
  get_x:
    summary: Op.
    http: { method: GET, path: /get_x }
    effects: { kind: read }
    input: { type: object, properties: { a: { type: string } } }
    output: { type: object, properties: { b: { type: string } } }` }));
    const withProto = parseOk("with", contractYaml({
      header: "contract: hostile\nversion: 2.0.0\nchangelog:\n  - { version: 2.0.0, date: 2026-01-02 }\n  - { version: 1.0.0, date: 2026-01-01 }\ntransport:\n  http: { baseUrl: \"http://127.0.0.1:1\" }",
      operations: `
  get_x:
    summary: Op.
    http: { method: GET, path: /get_x }
    effects: { kind: read }
    input: { type: object, properties: { a: { type: string }, constructor: { type: string }, toString: { type: string } } }
    output: { type: object, properties: { b: { type: string }, valueOf: { type: string } } }`,
    }));
    const tree = contractTree(without).root as Record<string, any>;
    expect(tree.operations.get_x.input.properties?.constructor).toBeUndefined();
    const report = runDiff({ model: without, label: "a" }, { model: withProto, label: "b" });
    const rules = report.findings.map((f) => f.rule);
    expect(rules).toContain("input-optional-property-added");
    expect(rules).toContain("output-property-added");
    const back = runDiff({ model: withProto, label: "b" }, { model: without, label: "a" });
    expect(back.findings.map((f) => f.rule)).toContain("input-property-removed");
  });
});

describe("generated type names have one naming authority", () => {
  const userType = (name: string) => `  ${name}: { type: object, properties: { mine: { type: string } } }`;
  const createNote = `
  create_note:
    summary: Create.
    http: { method: POST, path: /notes }
    effects: { kind: mutating, idempotent: natural, destructive: false }
    input: { type: object, properties: { title: { type: string } } }
    output: { type: object, properties: { id: { type: string } } }`;

  it.each(["CreateNoteInput", "CreateNoteOutput"])("a user type named %s next to create_note is a type-name-collision, in either order", (name) => {
    const typesFirst = contractYaml({ types: userType(name), operations: createNote });
    const opsFirst = typesFirst.replace(/(types:\n[^\n]*\n)([\s\S]*)$/, "$2$1");
    expect(opsFirst.indexOf("operations:")).toBeLessThan(opsFirst.indexOf("types:"));
    for (const yaml of [typesFirst, opsFirst]) {
      const diags = parseContractDiagnostics(yaml).filter((d) => d.code === "type-name-collision");
      expect(diags).toHaveLength(1);
      expect(diags[0]!.location.pointer).toBe(`/types/${name}`);
      expect(diags[0]!.hint).toMatch(/Rename/);
    }
  });

  it("a user type named like another operation's generated preview type collides too", () => {
    const yaml = contractYaml({ types: userType("GetNoteOutput"), operations: op("get_note") });
    expect(codesOf("get-note-output", yaml)).toContain("type-name-collision");
  });

  it("type names that differ only by case, or by underscores, collide", () => {
    expect(codesOf("case", contractYaml({ types: [userType("Note"), userType("note")].join("\n"), operations: op("get_x") }))).toContain("type-name-collision");
    expect(codesOf("case2", contractYaml({ types: [userType("import"), userType("Import")].join("\n"), operations: op("get_x") }))).toContain("type-name-collision");
    expect(codesOf("underscore", contractYaml({ types: [userType("note_item"), userType("NoteItem")].join("\n"), operations: op("get_x") }))).toContain("type-name-collision");
  });

  it("operation names that differ only by case or by underscores collide", () => {
    expect(codesOf("op-case", contractYaml({ operations: op("get_item") + op("get_Item", "/other") }))).toContain("operation-name-collision");
    expect(codesOf("op-camel", contractYaml({ operations: op("get_item") + op("getItem", "/other") }))).toContain("operation-name-collision");
  });

  it("a type named like an operation's output of a different spelling (GetOauth2ClientInput) collides", () => {
    expect(codesOf("digit", contractYaml({ types: userType("GetOauth2ClientOutput"), operations: op("get_oauth2client") }))).toContain("type-name-collision");
  });
});

describe("every accepted hostile name generates code that compiles", () => {
  it("generates, and tsc --strict accepts all cases at once; client and types agree on every name", async () => {
    const root = freshRoot("names");
    const cases: Array<[string, string]> = [
      ["proto-fields", protoFields],
      ["proto-types", protoTypes],
      ["proto-details", protoDetails],
    ];
    const trees = new Map<string, ReadonlyMap<string, string>>();
    for (const [name, yaml] of cases) trees.set(name, await generateInto(`${root}/${name}`, parseOk(name, yaml)));
    expect(Object.isFrozen(Object.prototype)).toBe(false);
    expect(tscStrict(root)).toBe("");

    const types = trees.get("proto-types")!.get("sdk/types.ts")!;
    const client = trees.get("proto-types")!.get("sdk/client.ts")!;
    for (const used of client.matchAll(/\bT\.([A-Za-z0-9_$]+)/g)) {
      expect(types, used[1]).toMatch(new RegExp(`export (interface|type) ${used[1]}\\b`));
    }
    expect(types).not.toMatch(/= (import|default|hook);/);

    // Error details keep their member-named properties, and reference the shared types of types.ts.
    const errors = trees.get("proto-details")!.get("sdk/errors.ts")!;
    for (const name of PROTO_NAMES) expect(errors).toContain(`  ${name}?: string;`);
    expect(errors).toContain("shape?: $Types.Constructor;");
    expect(errors).toContain("export type ConflictXErrorDetails = $Types.Constructor;");
  });

  it("types named like runtime exports are the ones sdk/index.ts exports, and the package (MCP server included) compiles", async () => {
    const root = freshRoot("runtime-names");
    const files = await generateInto(`${root}/pkg`, parseOk("runtime-names", runtimeNamedTypes));
    expect(files.get("sdk/index.ts")).toContain(`export type { ${[...RUNTIME_NAMES, "Intent"].sort().join(", ")} } from "./types.js";`);
    // A consumer of the package root gets the contract's shapes; the runtime's stay at ./runtime/index.js.
    writeFileSync(`${root}/pkg/sdk/consumer.ts`, [
      `import type { ${[...RUNTIME_NAMES, "Intent"].join(", ")} } from "./index.js";`,
      `import { ContractError as RuntimeContractError, MemoryJournal as RuntimeJournal } from "./runtime/index.js";`,
      ...RUNTIME_NAMES.map((n) => `export const ${n.toLowerCase()}: ${n} = { ${n.toLowerCase()}: "x" };`),
      `export const intent: Intent = "a";`,
      `export const runtime = [RuntimeContractError, RuntimeJournal];`,
      "",
    ].join("\n"));
    expect(tscStrict(root, ["*/sdk/**/*.ts", "*/cli/**/*.ts", "*/mcp/**/*.ts"])).toBe("");
  });
});

import { parseContractText } from "../../src/contract/parse.js";
function parseContractDiagnostics(yaml: string) {
  return parseContractText("x.yaml", yaml).diagnostics;
}
