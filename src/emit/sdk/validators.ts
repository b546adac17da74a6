import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { _Code } from "ajv/dist/compile/codegen/code.js";
import { UsedValueState, type UsedScopeValues, type ValueScopeName } from "ajv/dist/compile/codegen/scope.js";
import type { SourceCode } from "ajv/dist/types/index.js";
import type { ContractModel, JsonSchema } from "../../model/types.js";
import { defineOwn, forEachSubschema, mapSchema, type SchemaObject } from "../../spec/schema-walk.js";
import { escapeInvisible, generatedHeader } from "../shared/literals.js";

const addFormats = addFormatsModule.default;

/** Export name of the validator of one schema slot of an operation. */
export function validatorName(camel: string, slot: "Input" | "Output" | "Preview"): string {
  return `validate${camel.charAt(0).toUpperCase()}${camel.slice(1)}${slot}`;
}

/**
 * `sdk/validators.js` + `.d.ts`: every input, output and preview schema compiled at generation time
 * into standalone ajv code, so no schema is compiled when the SDK starts. Each shared type is
 * registered once under its own `$id` and referenced from the operations' schemas, so its
 * validation code appears once however many operations reach it (a bundled copy per operation made
 * the file grow with operations × shared types).
 */
export function emitValidators(model: ContractModel): { js: string; dts: string } {
  // inlineRefs: false keeps each shared type a function of its own instead of pasting its code
  // into every schema that references it.
  const ajv = new Ajv2020({ allErrors: true, strict: false, inlineRefs: false, code: { source: true, esm: true, lines: true, optimize: 1 } });
  addFormats(ajv);
  ajv.addKeyword({ keyword: "x-unit", schemaType: "string" });
  const shared = new SharedDefs();
  // Export name → the key its schema was registered under: operations whose schemas are equal
  // (an output that is just `$ref: Item`, an empty input) export one compiled function.
  const exports = new Map<string, string>();
  const keys = new Map<string, string>();
  const add = (name: string, schema: JsonSchema) => {
    const extracted = shared.extract(schema);
    const text = JSON.stringify(extracted);
    const key = keys.get(text);
    if (key === undefined) {
      ajv.addSchema(extracted as object, name);
      keys.set(text, name);
    }
    exports.set(name, key ?? name);
  };
  for (const op of model.operations) {
    add(validatorName(op.names.camel, "Input"), op.input.schema);
    add(validatorName(op.names.camel, "Output"), op.output.schema);
    if (op.preview?.output) add(validatorName(op.names.camel, "Preview"), op.preview.output.schema);
  }
  for (const def of shared.schemas()) ajv.addSchema(def as object);
  const code = moduleCode(ajv, exports);
  const header = generatedHeader(model.name, model.version);
  const dts = `${header}import type { Validator } from "./runtime/client.js";\n\n${[...exports.keys()]
    .map((name) => `export declare const ${name}: Validator;`)
    .join("\n")}\n`;
  // ajv writes schema strings (enum values, property names) with JSON escaping only.
  return { js: escapeInvisible(`${header}${toEsmImports(code)}`), dts };
}

const DEFS_REF = "#/$defs/";
const SHARED_ID = "urn:contractgen:type:";

/**
 * The `$defs` of the model's bundled schemas, pooled: a def is the same shared type in two schemas
 * when its name and everything it reaches (names and contents) are the same, so two schemas that
 * bundled different targets under one name (`Money` from two files) keep two entries.
 */
class SharedDefs {
  /** Closure key → pooled schema (with `$id`), in first-seen order. */
  private readonly byKey = new Map<string, { id: string; schema: Record<string, unknown> | null }>();
  private readonly ids = new Set<string>();

  /** The schema without its `$defs`, every `#/$defs/<name>` rewritten to the pooled type's `$id`. */
  extract(schema: JsonSchema): unknown {
    if (!isObject(schema) || !isObject(schema.$defs)) return schema;
    const defs = new Map<string, unknown>(Object.entries(schema.$defs));
    const ids = new Map<string, string>();
    const closures = new Map<string, string>();
    for (const name of defs.keys()) {
      const key = closureKey(name, defs);
      closures.set(name, key);
      ids.set(name, this.idFor(name, key));
    }
    const rewrite = (s: unknown) => rewriteRefs(s, ids);
    for (const [name, def] of defs) {
      const entry = this.byKey.get(closures.get(name)!)!;
      if (entry.schema === null) entry.schema = { $id: entry.id, ...(rewrite(def) as Record<string, unknown>) };
    }
    const root: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(schema)) if (k !== "$defs") defineOwn(root, k, v);
    return rewrite(root);
  }

  schemas(): Array<Record<string, unknown>> {
    return [...this.byKey.values()].map((e) => e.schema!);
  }

  private idFor(name: string, key: string): string {
    const known = this.byKey.get(key);
    if (known) return known.id;
    let id = `${SHARED_ID}${encodeURIComponent(name)}`;
    for (let i = 2; this.ids.has(id); i++) id = `${SHARED_ID}${encodeURIComponent(name)}~${i}`;
    this.ids.add(id);
    this.byKey.set(key, { id, schema: null });
    return id;
  }
}

/** The def's name with the names and contents of every def it reaches, sorted: its identity. */
function closureKey(name: string, defs: ReadonlyMap<string, unknown>): string {
  const seen = new Set<string>([name]);
  const queue = [name];
  while (queue.length > 0) {
    forEachRef(defs.get(queue.shift()!), (ref) => {
      const target = ref.startsWith(DEFS_REF) ? ref.slice(DEFS_REF.length) : null;
      if (target !== null && defs.has(target) && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    });
  }
  return JSON.stringify([name, [...seen].sort().map((n) => [n, defs.get(n)])]);
}

function rewriteRefs(schema: unknown, ids: ReadonlyMap<string, string>): unknown {
  return mapSchema(schema, "", (node) => {
    const ref = node.$ref;
    if (typeof ref !== "string" || !ref.startsWith(DEFS_REF)) return node;
    const id = ids.get(ref.slice(DEFS_REF.length));
    if (id === undefined) return node;
    const out: SchemaObject = {};
    for (const [k, v] of Object.entries(node)) defineOwn(out, k, k === "$ref" ? id : v);
    return out;
  });
}

function forEachRef(schema: unknown, visit: (ref: string) => void): void {
  forEachSubschema(schema, (node) => {
    if (typeof node.$ref === "string") visit(node.$ref);
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The ES module exporting each named validator (export name → schema key), every function and constant once. This is
 * what ajv's `standaloneCode` does, but assembled as a list of strings: ajv grows one code object
 * per export and spreads it into a call, which overflows the stack at a few thousand exports.
 */
function moduleCode(ajv: Ajv2020, exports: ReadonlyMap<string, string>): string {
  const used: UsedScopeValues = {};
  const state = (n: ValueScopeName) => used[n.prefix]?.get(n);
  const mark = (n: ValueScopeName, s: UsedValueState) => {
    const m = used[n.prefix] ?? new Map<ValueScopeName, UsedValueState | undefined>();
    used[n.prefix] = m;
    m.set(n, s);
  };
  // One function's code after the scope values it needs that were not emitted yet; a validator
  // it calls is emitted ahead of it the same way (recursion is as deep as the chain of types).
  const functionCode = (source: SourceCode | undefined): string => {
    if (!source) throw new Error("ajv validator without source code");
    if (state(source.validateName) === UsedValueState.Completed) return "";
    mark(source.validateName, UsedValueState.Started);
    const scope = ajv.scope.scopeCode(source.scopeValues, used, (n) => {
      const ref = (n.value as { ref?: unknown } | undefined)?.ref;
      if (n.prefix === "validate" && typeof ref === "function") return new _Code(functionCode((ref as { source?: SourceCode }).source));
      if ((n.prefix === "root" || n.prefix === "wrapper") && typeof ref === "object" && ref !== null) {
        const { validate, validateName } = ref as { validate?: { source?: SourceCode }; validateName?: ValueScopeName };
        if (!validateName) throw new Error("ajv wrapper without a validator name");
        const wrapper = `const ${n} = {validate: ${validateName}};`;
        return new _Code(state(validateName) === UsedValueState.Started ? wrapper : `${wrapper}\n${functionCode(validate?.source)}`);
      }
      return undefined;
    });
    const evaluated = source.evaluated ? `${source.validateName}.evaluated = ${source.evaluated};\n` : "";
    mark(source.validateName, UsedValueState.Completed);
    return `${scope}\n${source.validateCode}${evaluated}`;
  };
  const parts = ['"use strict";'];
  for (const [name, key] of exports) {
    const validate = ajv.getSchema(key);
    if (!validate?.source) throw new Error(`no compiled schema ${key}`);
    parts.push(`export const ${name} = ${validate.source.validateName};\n${functionCode(validate.source)}`);
  }
  return parts.join("\n");
}

/**
 * ajv's ESM output still calls `require()` for its runtime helpers and format functions. A
 * `require` made with `createRequire` loads those CommonJS modules exactly as ajv expects, in Node
 * and in bundlers alike (a default import would depend on each loader's CommonJS interop).
 */
function toEsmImports(code: string): string {
  const body = code.replace(/^"use strict";\n/, "");
  if (!/\brequire\(/.test(body)) return body;
  return `import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n${body}`;
}
