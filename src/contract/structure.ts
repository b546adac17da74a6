import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { type Diagnostic, diagnostic, withArticle } from "../diagnostics/diagnostic.js";
import { packagePath } from "../package-root.js";
import { MAX_OPERATIONS, MAX_SCHEMA_DEPTH } from "./load.js";
import { findDeepSchema, isSchemaObject } from "./schema-walk.js";
import { getAtPointer, joinPointer, type SourceFile } from "./source.js";

/** The published JSON Schema of the contract format. */
export const CONTRACT_SCHEMA_PATH = packagePath("schema", "contract.schema.json");

/** The format's validator as ajv standalone code (scripts/contract-validator.mjs writes it). */
export const CONTRACT_VALIDATOR_PATH = packagePath("schema", "contract.validator.cjs");

let validator: ValidateFunction | undefined;

/**
 * The precompiled validator when it was made from the schema as it is (compiling takes about 0.25 s
 * of every process); otherwise, as while the format is being edited, the schema compiled here.
 */
function contractValidator(): ValidateFunction {
  if (!validator) {
    const text = readFileSync(CONTRACT_SCHEMA_PATH, "utf8");
    validator = precompiledValidator(createHash("sha256").update(text).digest("hex"));
    if (!validator) {
      const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false });
      validator = ajv.compile(JSON.parse(text) as object);
    }
  }
  return validator;
}

function precompiledValidator(schemaSha256: string): ValidateFunction | undefined {
  try {
    const loaded = createRequire(import.meta.url)(CONTRACT_VALIDATOR_PATH) as ValidateFunction & { schemaSha256?: string };
    return loaded.schemaSha256 === schemaSha256 ? loaded : undefined;
  } catch {
    return undefined;
  }
}

/** Check a document against the published format; every problem becomes a located diagnostic. */
export function checkStructure(file: SourceFile): Diagnostic[] {
  const value = file.value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return [
      diagnostic(
        "document-not-mapping",
        `The document is ${Array.isArray(value) ? "a sequence" : `${withArticle(value === null ? "null" : typeof value)} value`}, not a mapping.`,
        file.locate(""),
      ),
    ];
  }
  // Limits first: nothing recursive (ajv included) may see a document beyond them.
  const limits = checkLimits(file, value as Record<string, unknown>);
  if (limits.length > 0) return limits;
  const validate = contractValidator();
  if (validate(value)) return [];
  const out: Diagnostic[] = [];
  for (const error of validate.errors ?? []) {
    const d = toDiagnostic(file, error);
    if (d) out.push(d);
  }
  return out;
}

/** The operation count and the nesting depth of every schema written in the contract. */
function checkLimits(file: SourceFile, doc: Record<string, unknown>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const operations = isSchemaObject(doc.operations) ? doc.operations : {};
  const count = Object.keys(operations).length;
  if (count > MAX_OPERATIONS) {
    out.push(diagnostic("operation-limit", `The contract declares ${count} operations; the limit is ${MAX_OPERATIONS}.`, file.locateKey("/operations")));
    return out;
  }
  const schemas: string[] = [];
  if (isSchemaObject(doc.types)) for (const name of Object.keys(doc.types)) schemas.push(joinPointer("/types", name));
  for (const [name, op] of Object.entries(operations)) {
    if (!isSchemaObject(op)) continue;
    const at = joinPointer("/operations", name);
    schemas.push(joinPointer(at, "input"), joinPointer(at, "output"));
    if (isSchemaObject(op.preview)) schemas.push(joinPointer(at, "preview", "output"));
  }
  for (const pointer of schemas) {
    const problem = schemaDepthProblem(file, pointer);
    if (problem) out.push(problem);
  }
  return out;
}

/** schemaDepthProblem's answers per file and pointer (null: none). */
const depthProblems = new WeakMap<SourceFile, Map<string, Diagnostic | null>>();

/**
 * A schema nested beyond MAX_SCHEMA_DEPTH, reported at its first too-deep subschema. Remembered per
 * file: the limits, the schema check and the $ref walk each ask it of the same schemas.
 */
export function schemaDepthProblem(file: SourceFile, pointer: string): Diagnostic | undefined {
  let known = depthProblems.get(file);
  if (!known) depthProblems.set(file, (known = new Map()));
  let problem = known.get(pointer);
  if (problem === undefined) {
    const deep = findDeepSchema(getAtPointer(file.value, pointer), pointer, MAX_SCHEMA_DEPTH);
    problem = deep === undefined ? null : diagnostic("schema-depth-limit", `The schema at ${pointer || "/"} nests subschemas more than ${MAX_SCHEMA_DEPTH} levels deep.`, file.locate(deep));
    known.set(pointer, problem);
  }
  return problem ?? undefined;
}

function toDiagnostic(file: SourceFile, error: ErrorObject): Diagnostic | undefined {
  const at = error.instancePath;
  const where = at || "/";
  const params = error.params as Record<string, unknown>;
  // Ajv reports the failed `if`/`then` wrapper besides the real error inside it; keep only the latter.
  if (error.keyword === "if" || error.keyword === "propertyNames" || error.keyword === "not" || error.keyword === "false schema") {
    return undefined;
  }
  const propertyName = (error as ErrorObject & { propertyName?: string }).propertyName;
  if (propertyName !== undefined) {
    const pointer = joinPointer(at, propertyName);
    return diagnostic(
      "contract-invalid-value",
      `Name ${JSON.stringify(propertyName)} under ${where} is not allowed: it ${describe(error)}.`,
      file.locateKey(pointer),
      "Rename the entry so it matches the pattern shown.",
    );
  }
  if (error.keyword === "required") {
    const missing = String(params.missingProperty);
    return diagnostic(
      "contract-required-field",
      `${where} is missing the required field ${JSON.stringify(missing)}.`,
      { ...file.locateKey(at), pointer: joinPointer(at, missing) },
    );
  }
  if (error.keyword === "additionalProperties") {
    const extra = String(params.additionalProperty);
    const allowed = Object.keys(((error.parentSchema as { properties?: object } | undefined)?.properties) ?? {});
    const suggestion = closest(extra, allowed);
    return diagnostic(
      "contract-unknown-field",
      `${where} has the unknown field ${JSON.stringify(extra)}${suggestion ? ` (did you mean ${JSON.stringify(suggestion)}?)` : ""}.`,
      file.locateKey(joinPointer(at, extra)),
      allowed.length > 0 ? `Allowed here: ${allowed.join(", ")}; extensions start with "x-".` : undefined,
    );
  }
  if (error.keyword === "type") {
    const actual = describeValue(error.data);
    return diagnostic(
      "contract-invalid-type",
      `${where} must be ${article(String(params.type))}, not ${actual}.`,
      file.locate(at),
      /version|date|since|sunset/i.test(at) && typeof error.data === "number" ? "Quote the value: \"1.0.0\"." : undefined,
    );
  }
  return diagnostic("contract-invalid-value", `${where} ${describe(error)} (got ${describeValue(error.data)}).`, file.locate(at));
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "enum":
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "const":
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case "pattern":
      return `must match ${String(params.pattern)}`;
    default:
      return error.message ?? `fails ${error.keyword}`;
  }
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a sequence";
  if (typeof value === "object") return "a mapping";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function article(type: string): string {
  const names = type.split(",").map((t) => (t === "object" ? "a mapping" : t === "array" ? "a sequence" : withArticle(t)));
  return names.join(" or ");
}

/** The allowed name closest to a misspelt one, when it is plausibly a typo. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}
