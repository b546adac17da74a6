// Writes test/diff/keywords/<keyword>-<input|output>-<narrowed|widened|changed>/{base,revision}.yaml:
// one tiny contract, one keyword varied on input "v" or output "v". With --record (after
// `npm run build`) it also writes expected.json from the diff: every finding except the version
// rules (both sides keep version 1.0.0, so that no changelog entry is needed), minus the findings
// listed in WRONG below (findings the diff should not report; the test marks those cases).
// Review every recorded message before committing: expected.json is what the diff SHOULD say.
// Usage: node scripts/keyword-fixtures.mjs [--record]
import { mkdirSync, rmSync, writeFileSync } from "node:fs";

const DIR = "test/diff/keywords";

/**
 * [keyword, wide schema, narrow schema, positions]: "narrowed" goes wide → narrow, "widened"
 * narrow → wide. The schemas are YAML flow text for property "v".
 */
const OBJ = "type: object, properties: { a: { type: string }, b: { type: string } }";
const TABLE = [
  ["minimum", "{ type: integer, minimum: 0 }", "{ type: integer, minimum: 5 }"],
  ["exclusiveMinimum", "{ type: integer, exclusiveMinimum: 0 }", "{ type: integer, exclusiveMinimum: 5 }"],
  ["maximum", "{ type: integer, maximum: 100 }", "{ type: integer, maximum: 50 }"],
  ["exclusiveMaximum", "{ type: integer, exclusiveMaximum: 100 }", "{ type: integer, exclusiveMaximum: 50 }"],
  ["multipleOf", "{ type: integer, multipleOf: 2 }", "{ type: integer, multipleOf: 4 }"],
  ["minLength", "{ type: string, minLength: 1 }", "{ type: string, minLength: 5 }"],
  ["maxLength", "{ type: string, maxLength: 100 }", "{ type: string, maxLength: 50 }"],
  ["pattern", "{ type: string }", '{ type: string, pattern: "^[a-z]+$" }'],
  ["format", "{ type: string }", "{ type: string, format: date }"],
  ["contentMediaType", "{ type: string }", "{ type: string, contentMediaType: application/json }"],
  ["contentEncoding", "{ type: string }", "{ type: string, contentEncoding: base64 }"],
  ["const", "{ type: string }", "{ type: string, const: a }"],
  ["enum", "{ type: string, enum: [a, b, c] }", "{ type: string, enum: [a, b] }"],
  ["type", "{ type: [string, integer] }", "{ type: string }"],
  ["nullable", '{ type: [string, "null"] }', "{ type: string }"],
  ["minItems", "{ type: array, minItems: 1 }", "{ type: array, minItems: 3 }"],
  ["maxItems", "{ type: array, maxItems: 10 }", "{ type: array, maxItems: 5 }"],
  ["uniqueItems", "{ type: array }", "{ type: array, uniqueItems: true }"],
  ["items", "{ type: array }", "{ type: array, items: { type: string } }"],
  ["prefixItems", "{ type: array, prefixItems: [{ type: string }] }", "{ type: array, prefixItems: [{ type: string }, { type: integer }] }"],
  ["contains", "{ type: array }", "{ type: array, contains: { type: string } }"],
  ["minContains", "{ type: array, contains: { type: string }, minContains: 1 }", "{ type: array, contains: { type: string }, minContains: 2 }"],
  ["maxContains", "{ type: array, contains: { type: string }, maxContains: 5 }", "{ type: array, contains: { type: string }, maxContains: 3 }"],
  ["unevaluatedItems", "{ type: array, prefixItems: [{ type: string }] }", "{ type: array, prefixItems: [{ type: string }], unevaluatedItems: { type: integer } }"],
  ["minProperties", "{ type: object, minProperties: 1 }", "{ type: object, minProperties: 2 }"],
  ["maxProperties", "{ type: object, maxProperties: 5 }", "{ type: object, maxProperties: 3 }"],
  ["required", `{ ${OBJ}, required: [a] }`, `{ ${OBJ}, required: [a, b] }`],
  // A closed object: a property more is one more shape allowed, a property less one fewer.
  ["properties", `{ ${OBJ}, additionalProperties: false }`, "{ type: object, properties: { a: { type: string } }, additionalProperties: false }"],
  ["additionalProperties", `{ ${OBJ} }`, `{ ${OBJ}, additionalProperties: { type: string } }`],
  ["additionalProperties-false", `{ ${OBJ} }`, `{ ${OBJ}, additionalProperties: false }`],
  ["patternProperties", "{ type: object }", '{ type: object, patternProperties: { "^x_": { type: string } } }'],
  ["propertyNames", "{ type: object }", '{ type: object, propertyNames: { pattern: "^[a-z]+$" } }'],
  ["dependentRequired", `{ ${OBJ} }`, `{ ${OBJ}, dependentRequired: { a: [b] } }`],
  ["dependentSchemas", `{ ${OBJ} }`, `{ ${OBJ}, dependentSchemas: { a: { required: [b] } } }`],
  ["unevaluatedProperties", `{ ${OBJ} }`, `{ ${OBJ}, unevaluatedProperties: { type: string } }`],
  ["allOf", "{ type: string, allOf: [{ minLength: 1 }] }", "{ type: string, allOf: [{ minLength: 1 }, { maxLength: 5 }] }"],
  ["anyOf", "{ anyOf: [{ type: string }, { type: integer }] }", "{ anyOf: [{ type: string }] }"],
  ["oneOf", "{ oneOf: [{ type: string }, { type: integer }] }", "{ oneOf: [{ type: string }] }"],
  ["then", `{ ${OBJ}, if: { required: [a] } }`, `{ ${OBJ}, if: { required: [a] }, then: { required: [b] } }`],
  ["else", `{ ${OBJ}, if: { required: [a] } }`, `{ ${OBJ}, if: { required: [a] }, else: { required: [b] } }`],
  ["contentSchema", "{ type: string, contentMediaType: application/json }", "{ type: string, contentMediaType: application/json, contentSchema: { type: object } }"],
  // In input only: a read-only property is not accepted as input.
  ["readOnly", "{ type: string }", "{ type: string, readOnly: true }", ["input"]],
  // In output only: a write-only property is not returned (narrowed: it is returned again).
  ["writeOnly", "{ type: string, writeOnly: true }", "{ type: string }", ["output"]],
];

/** [keyword, base, revision]: a change whose direction is unknown (judged "changed"), in both positions. */
const CHANGED = [
  ["not", "{ type: string, not: { const: a } }", "{ type: string, not: { const: b } }"],
  ["if", `{ ${OBJ}, if: { required: [a] }, then: { required: [b] } }`, `{ ${OBJ}, if: { required: [b] }, then: { required: [b] } }`],
];

/**
 * Findings the diff reports but should not: left out of expected.json on --record, and the case is
 * marked `it.fails` in test/diff/keywords.test.ts. [directory, rule, message]. None today.
 */
export const WRONG = [];

const OTHER = "{ type: integer }";

function contract(input, output) {
  return `# Keyword fixture (scripts/keyword-fixtures.mjs): one keyword varied on input "v" or output "v".
contract: kw
version: 1.0.0
changelog:
  - { version: 1.0.0, date: 2026-01-01, summary: First version. }
transport:
  http: { baseUrl: "http://127.0.0.1:4000" }
errors:
  INVALID_FIELD: { class: invalid_input, action: fix_field, http: 400 }
operations:
  get_item:
    summary: Read one item.
    http: { method: GET, path: /items }
    effects: { kind: read }
    input:
      type: object
      properties:
        v: ${input}
    output:
      type: object
      properties:
        v: ${output}
    errors: [INVALID_FIELD]
`;
}

export const cases = [];
for (const [keyword, wide, narrow, positions = ["input", "output"]] of TABLE)
  for (const position of positions) {
    cases.push({ name: `${keyword}-${position}-narrowed`, position, base: wide, revision: narrow });
    cases.push({ name: `${keyword}-${position}-widened`, position, base: narrow, revision: wide });
  }
for (const [keyword, base, revision] of CHANGED) for (const position of ["input", "output"]) cases.push({ name: `${keyword}-${position}-changed`, position, base, revision });

const side = (c, schema) => (c.position === "input" ? contract(schema, OTHER) : contract(OTHER, schema));

if (import.meta.url === `file://${process.argv[1]}`) {
  const record = process.argv.includes("--record");
  const diff = record ? await import("../dist/src/diff/engine.js") : null;
  const parse = record ? await import("../dist/src/contract/parse.js") : null;
  rmSync(DIR, { recursive: true, force: true });
  for (const c of cases) {
    const dir = `${DIR}/${c.name}`;
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}/base.yaml`, side(c, c.base));
    writeFileSync(`${dir}/revision.yaml`, side(c, c.revision));
    if (!record) continue;
    const [a, b] = ["base.yaml", "revision.yaml"].map((f) => {
      const r = parse.parseContract(`${dir}/${f}`, { checkBudget: false });
      for (const d of r.diagnostics.filter((d) => d.severity === "error")) throw new Error(`${dir}/${f}: ${d.message}`);
      return { model: r.model, source: r.source, label: `${dir}/${f}` };
    });
    const findings = diff
      .allFindings(diff.runDiff(a, b).findings)
      .filter((f) => !f.rule.startsWith("version-"))
      .filter((f) => !WRONG.some(([d, rule, message]) => d === c.name && rule === f.rule && message === f.message))
      .map((f) => ({ rule: f.rule, severity: f.severity, message: f.message, old: f.old ? `${f.old.line}:${f.old.col}` : null, new: f.new ? `${f.new.line}:${f.new.col}` : null }));
    writeFileSync(`${dir}/expected.json`, `${JSON.stringify(findings, null, 2)}\n`);
  }
  console.log(`${cases.length} keyword fixtures written to ${DIR}${record ? " (expected.json recorded)" : ""}`);
}
