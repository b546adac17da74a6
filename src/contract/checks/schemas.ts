import { serialize } from "node:v8";
import type { ErrorObject } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { type Diagnostic, diagnostic } from "../../diagnostics/diagnostic.js";
import { collisionKey } from "../../model/naming.js";
import type { CheckContext } from "../context.js";
import { findInPlaceLoops } from "../in-place-cycles.js";
import { checkRefs, type RefWalk } from "../refs.js";
import { isSchemaObject, type SchemaObject, visitSchemas } from "../schema-walk.js";
import { getAtPointer, joinPointer, type SourceFile } from "../source.js";
import { schemaDepthProblem } from "../structure.js";

const addFormats = addFormatsModule.default;

/** Every keyword JSON Schema 2020-12 defines (core, applicator, validation, meta-data, format, content, unevaluated). */
export const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  "$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "$comment", "$defs",
  "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "prefixItems", "items", "contains",
  "properties", "patternProperties", "additionalProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties",
  "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength",
  "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains", "maxProperties",
  "minProperties", "required", "dependentRequired", "title", "description", "default", "deprecated", "readOnly",
  "writeOnly", "examples", "format", "contentEncoding", "contentMediaType", "contentSchema",
]);

/** Annotation keywords of the contract format itself (docs/contract-format.md), kept in the model. */
export const FORMAT_ANNOTATIONS: ReadonlySet<string> = new Set(["x-unit", "x-sunset", "x-extensible-enum"]);

/**
 * The keywords a schema keeps in the model, the only ones any generator sees: standard 2020-12
 * keywords and the format's annotations. Identification keywords ($id, $anchor, …) are dropped
 * because references are already bundled to `#/$defs/…` (a nested $id would re-base them), and
 * `$comment` because it is for the contract's readers, not for generated code.
 */
export const MODEL_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set(
  [...SCHEMA_KEYWORDS, ...FORMAT_ANNOTATIONS].filter((k) => !["$schema", "$id", "$anchor", "$dynamicAnchor", "$vocabulary", "$comment"].includes(k)),
);

/**
 * Keywords code generators act on (json-schema-to-typescript pastes `tsType` into the output as a
 * type, `tsEnumNames` as enum member names): never meaningful in a contract, and an injection risk.
 */
export const GENERATOR_KEYWORDS: ReadonlySet<string> = new Set(["tsType", "tsEnumNames", "tsEnumName"]);

/** Formats the generated validators understand (ajv-formats' full set). */
export const KNOWN_FORMATS: ReadonlySet<string> = new Set(Object.keys(fullFormats));

let metaAjv: Ajv2020 | undefined;
function metaValidator(): Ajv2020 {
  if (!metaAjv) {
    metaAjv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
    addFormats(metaAjv);
  }
  return metaAjv;
}

/** Every schema position in the contract: shared types, error details, inputs, outputs, preview outputs and webhook payloads. */
export function schemaPointers(ctx: CheckContext): string[] {
  const pointers = Object.keys(ctx.doc.types ?? {}).map((name) => joinPointer("/types", name));
  for (const [code, e] of Object.entries(ctx.doc.errors)) if (e.details !== undefined) pointers.push(joinPointer("/errors", code, "details"));
  for (const [name, op] of Object.entries(ctx.doc.operations)) {
    const at = ctx.operationPointer(name);
    pointers.push(joinPointer(at, "input"), joinPointer(at, "output"));
    if (op.preview?.output !== undefined) pointers.push(joinPointer(at, "preview", "output"));
  }
  for (const name of Object.keys(ctx.doc.webhooks ?? {})) pointers.push(joinPointer("/webhooks", name, "payload"));
  return pointers;
}

/** $refs resolve, schemas are valid 2020-12, patterns compile, formats are known, inputs are objects. */
export function checkSchemas(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const visited: RefWalk = new Map();
  for (const pointer of schemaPointers(ctx)) {
    checkRefs(ctx.ws, ctx.file, pointer, out, (file, at) => out.push(...checkSchemaAt(file, at, ctx.metaValid)), visited);
    out.push(...checkSchemaAt(ctx.file, pointer, ctx.metaValid));
  }
  if (isSchemaObject(ctx.doc.types)) {
    const types = ctx.doc.types;
    const bareRef = (name: string) => isSchemaObject(types[name]) && Object.keys(types[name] as object).length === 1 && typeof (types[name] as SchemaObject).$ref === "string";
    findInPlaceLoops(types, (holder, use, loop) => {
      // A loop of bare $refs alone is ref-cycle's.
      if (loop.every(bareRef)) return;
      out.push(
        diagnostic(
          "schema-includes-itself",
          `Type ${JSON.stringify(holder)} includes itself (${loop.join(" → ")}) through ${use.keyword} with nothing in between that describes a part of the value: a validator applies it to the same value forever, and no TypeScript type can spell it.`,
          ctx.file.locate(joinPointer("/types", holder) + use.pointer),
        ),
      );
    });
  }
  for (const name of Object.keys(ctx.doc.operations)) {
    const at = ctx.operationPointer(name);
    const input = ctx.inputShape(name);
    if (!input.isObject) {
      out.push(diagnostic("input-not-object", `The input of ${JSON.stringify(name)} is not an object schema.`, ctx.file.locate(joinPointer(at, "input"))));
      continue;
    }
    const seen = new Map<string, string>();
    for (const field of input.properties.keys()) {
      const key = collisionKey(field);
      const other = seen.get(key);
      if (other !== undefined) {
        const info = input.properties.get(field)!;
        out.push(diagnostic("input-field-collision", `Input fields ${JSON.stringify(other)} and ${JSON.stringify(field)} of ${JSON.stringify(name)} become the same parameter name.`, info.file.locateKey(info.pointer)));
      } else seen.set(key, field);
    }
  }
  return out;
}

/**
 * Validate one raw schema against the 2020-12 meta-schema and compile its patterns. `metaValid`:
 * schemas known valid (see ParseOptions.metaValid); a serialization tells values apart exactly
 * (numbers from strings, Infinity from null), so equal keys are equal schemas.
 */
export function checkSchemaAt(file: SourceFile, pointer: string, metaValid?: Set<string>): Diagnostic[] {
  // A schema beyond the depth limit never reaches ajv, whose validation recurses on it.
  const tooDeep = schemaDepthProblem(file, pointer);
  if (tooDeep) return [tooDeep];
  const out: Diagnostic[] = [];
  const schema = getAtPointer(file.value, pointer);
  const ajv = metaValidator();
  const key = metaValid ? serialize(schema).toString("latin1") : undefined;
  const knownValid = key !== undefined && metaValid!.has(key);
  if (!knownValid && ajv.validateSchema(schema as object)) {
    if (key !== undefined) metaValid!.add(key);
  } else if (!knownValid) {
    // The meta-schema reports one error per alternative of an anyOf (e.g. `type` may be a name or a
    // list): keep one per place, preferring the one that lists the allowed values.
    const byPlace = new Map<string, ErrorObject>();
    for (const error of (ajv.errors ?? []) as ErrorObject[]) {
      if (error.keyword === "anyOf" || error.keyword === "oneOf" || error.keyword === "if") continue;
      // A malformed $ref is reported by the reference check, with a better message.
      if (/\/\$ref$/.test(error.instancePath)) continue;
      const existing = byPlace.get(error.instancePath);
      if (!existing || (error.keyword === "enum" && existing.keyword !== "enum")) byPlace.set(error.instancePath, error);
    }
    for (const error of [...byPlace.values()].slice(0, 5)) {
      const at = pointer + error.instancePath;
      const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
      const detail = allowed ? `must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}` : (error.message ?? error.keyword);
      out.push(diagnostic("schema-invalid", `Schema at ${at}: ${detail}.`, file.locate(at)));
    }
    if (out.length > 0) return out;
  }
  // Pointers are built only for the rare node reported.
  visitSchemas(schema, pointer, (node, at) => {
    for (const key of Object.keys(node)) {
      if (GENERATOR_KEYWORDS.has(key)) {
        out.push(diagnostic("schema-generator-keyword", `Schema keyword ${JSON.stringify(key)} is an instruction to one code generator, not JSON Schema; contractgen never passes it on.`, file.locateKey(joinPointer(at(), key))));
      } else if (!SCHEMA_KEYWORDS.has(key) && !key.startsWith("x-")) {
        out.push(diagnostic("schema-unknown-keyword", `Schema keyword ${JSON.stringify(key)} is not JSON Schema 2020-12; it is ignored by validators.`, file.locateKey(joinPointer(at(), key))));
      }
    }
    if (typeof node.pattern === "string") {
      try {
        new RegExp(node.pattern, "u");
      } catch (e) {
        out.push(diagnostic("schema-invalid-pattern", `Pattern ${JSON.stringify(node.pattern)} does not compile: ${(e as Error).message.replace(/^Invalid regular expression: /, "")}.`, file.locate(joinPointer(at(), "pattern"))));
      }
    }
    if (isSchemaObject(node.patternProperties)) {
      for (const key of Object.keys(node.patternProperties)) {
        try {
          new RegExp(key, "u");
        } catch {
          out.push(diagnostic("schema-invalid-pattern", `patternProperties key ${JSON.stringify(key)} does not compile as a regular expression.`, file.locateKey(joinPointer(at(), "patternProperties", key))));
        }
      }
    }
    for (const problem of emptyRanges(node)) {
      out.push(diagnostic("schema-empty-range", `${problem.text}: no ${problem.of} satisfies this schema.`, file.locate(joinPointer(at(), problem.keyword))));
    }
    // A field's sunset is a date the diff compares as text: only YYYY-MM-DD compares right.
    if (node["x-sunset"] !== undefined && (typeof node["x-sunset"] !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(node["x-sunset"]))) {
      out.push(diagnostic("schema-sunset-invalid", `x-sunset ${JSON.stringify(node["x-sunset"])} is not a date (YYYY-MM-DD).`, file.locate(joinPointer(at(), "x-sunset"))));
    }
    const open = node["x-extensible-enum"];
    if (open !== undefined && (!Array.isArray(open) || open.length === 0 || open.some((v) => typeof v !== "string") || new Set(open).size !== open.length)) {
      out.push(diagnostic("schema-extensible-enum-invalid", `x-extensible-enum must list distinct strings: ${JSON.stringify(open).slice(0, 80)}.`, file.locate(joinPointer(at(), "x-extensible-enum"))));
    }
    if (typeof node.format === "string" && !KNOWN_FORMATS.has(node.format)) {
      out.push(diagnostic("schema-unknown-format", `Format ${JSON.stringify(node.format)} is not known to the generated validators; it will not be checked.`, file.locate(joinPointer(at(), "format"))));
    }
  });
  return out;
}

/** Lower and upper bounds of one kind of value, `exclusive` when equal bounds already leave nothing. */
const RANGES: ReadonlyArray<{ low: string; high: string; of: string; exclusive: boolean }> = [
  { low: "minItems", high: "maxItems", of: "array", exclusive: false },
  { low: "minLength", high: "maxLength", of: "string", exclusive: false },
  { low: "minProperties", high: "maxProperties", of: "object", exclusive: false },
  { low: "minContains", high: "maxContains", of: "array", exclusive: false },
  { low: "minimum", high: "maximum", of: "number", exclusive: false },
  { low: "exclusiveMinimum", high: "maximum", of: "number", exclusive: true },
  { low: "minimum", high: "exclusiveMaximum", of: "number", exclusive: true },
  { low: "exclusiveMinimum", high: "exclusiveMaximum", of: "number", exclusive: true },
];

/** Bounds of a schema node that no value of their kind can meet (minItems 3 with maxItems 1). */
function emptyRanges(node: SchemaObject): ReadonlyArray<{ keyword: string; text: string; of: string }> {
  let found: Array<{ keyword: string; text: string; of: string }> | undefined;
  for (const { low, high, of, exclusive } of RANGES) {
    const lo = node[low];
    if (typeof lo !== "number") continue;
    const hi = node[high];
    if (typeof hi !== "number" || (exclusive ? lo < hi : lo <= hi)) continue;
    (found ??= []).push({ keyword: low, text: `${low} ${lo} is ${exclusive && lo === hi ? "equal to" : "above"} ${high} ${hi}`, of });
  }
  return found ?? NO_RANGES;
}

const NO_RANGES: ReadonlyArray<{ keyword: string; text: string; of: string }> = [];
