import { inputWithFilterWords } from "../../model/filter-words.js";
import { TYPES_ROOT, typeIdentifier } from "../../model/naming.js";
import type { ContractModel, JsonSchema } from "../../model/types.js";
import { defineOwn, isSchemaObject, type SchemaObject } from "../../contract/schema-walk.js";
import { commentText, escapeInvisible, generatedHeader } from "../shared/literals.js";
import { declarationCompiler, memberAlias, PROTOTYPE_MEMBERS } from "./type-declarations.js";
import { typingSchema } from "./type-schema.js";


/**
 * `value` (schema or data) with every object key named like an Object.prototype member aliased.
 * Objects and arrays are copied only where something changed: they are rarely there at all.
 */
function aliasMemberKeys(value: unknown, inRequired = false): unknown {
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const next = inRequired && typeof v === "string" && PROTOTYPE_MEMBERS.has(v) ? memberAlias(v) : aliasMemberKeys(v);
      changed ||= next !== v;
      return next;
    });
    return changed ? out : value;
  }
  if (!isSchemaObject(value)) return value;
  const keys = Object.keys(value);
  let out: SchemaObject | undefined;
  keys.forEach((k, i) => {
    const key = PROTOTYPE_MEMBERS.has(k) ? memberAlias(k) : k;
    const next = aliasMemberKeys(value[k], k === "required");
    if (out === undefined && (key !== k || next !== value[k])) {
      out = {};
      for (const before of keys.slice(0, i)) defineOwn(out, before, value[before]);
    }
    if (out !== undefined) defineOwn(out, key, next);
  });
  return out ?? value;
}

/**
 * `sdk/types.ts`: one declaration per shared type and per operation input, output and preview,
 * produced by json-schema-to-typescript from the model's bundled schemas (type-declarations.ts). Every
 * declaration is named by the model (naming.ts): each schema is handed over with its final
 * identifier as `title`, a form the generator keeps as it is, and nested titles are removed so the
 * generator invents no names of its own.
 */
export async function emitTypes(model: ContractModel): Promise<string> {
  // Declarations go to the compiler as they are prepared, in the order first met (a shared type
  // bundled into an earlier schema's $defs is declared there, from the same bundled copy).
  const compiler = declarationCompiler(model.types.length + 2 * model.operations.length);
  const sent = new Set<string>();
  const define = (identifier: string, schema: unknown) => {
    if (sent.has(identifier)) return;
    sent.add(identifier);
    compiler.add(identifier, prepareDeclaration(schema, identifier, identifierOf));
  };
  // Bundled $defs key → identifier.
  const identifiers = new Map<string, string>();
  const taken = new Set<string>([TYPES_ROOT]);
  for (const type of model.types) {
    identifiers.set(type.name, type.identifier);
    taken.add(type.identifier);
  }
  for (const op of model.operations) for (const id of Object.values(op.names.types)) if (id !== null) taken.add(id);
  // A bundled definition that is not a shared type (a $ref into another file or into an operation)
  // gets an identifier no contract name owns, decided here in document order.
  const identifierOf = (key: string): string => {
    const known = identifiers.get(key);
    if (known !== undefined) return known;
    let id = typeIdentifier(key);
    for (let i = 2; taken.has(id); i++) id = `${typeIdentifier(key)}Def${i}`;
    taken.add(id);
    identifiers.set(key, id);
    return id;
  };
  const aliases: Array<[string, string]> = [];

  const absorb = (schema: JsonSchema): unknown => {
    if (!isSchemaObject(schema)) return schema;
    const nested = schema.$defs;
    if (isSchemaObject(nested)) {
      for (const [key, def] of Object.entries(nested)) {
        const id = identifierOf(key);
        define(id, def);
      }
    }
    const rest: SchemaObject = {};
    for (const [k, v] of Object.entries(schema)) if (k !== "$defs") defineOwn(rest, k, v);
    return rest;
  };
  const declare = (identifier: string, schema: JsonSchema) => {
    const body = absorb(schema) as SchemaObject | boolean;
    // A bare reference becomes a type alias instead of a structural copy.
    const ref = isSchemaObject(body) && Object.keys(body).length === 1 && typeof body.$ref === "string" ? body.$ref : null;
    if (ref?.startsWith("#/$defs/")) aliases.push([identifier, identifierOf(ref.slice("#/$defs/".length))]);
    else define(identifier, body);
  };

  for (const type of model.types) declare(type.identifier, type.schema.schema);
  for (const op of model.operations) {
    const names = op.names.types;
    declare(names.input, inputWithFilterWords(op));
    declare(names.output, op.output.schema);
    if (op.preview?.output && names.preview) declare(names.preview, op.preview.output.schema);
  }
  // What each webhook sends: the type a consumer's handler receives.
  for (const webhook of model.webhooks) declare(webhook.identifier, described(webhook.payload.schema, webhook.summary));

  const source = await compiler.finish();
  // Laid out and tidied chunk by chunk where it was compiled (tidyDeclarations).
  const cleaned = source;
  const declared = new Set([...cleaned.matchAll(/^export (?:interface|type) ([A-Za-z0-9_$]+)/gm)].map((m) => m[1]!));
  const expected = [...model.types.filter((t) => !aliases.some(([a]) => a === t.identifier)).map((t) => t.identifier)];
  for (const op of model.operations) {
    for (const id of [op.names.types.input, op.names.types.output, op.preview?.output ? op.names.types.preview : null]) {
      if (id !== null && !aliases.some(([a]) => a === id)) expected.push(id);
    }
  }
  for (const webhook of model.webhooks) if (!aliases.some(([a]) => a === webhook.identifier)) expected.push(webhook.identifier);
  const missing = expected.filter((id) => !declared.has(id));
  // The client imports these names; a generator that renamed one would make the package fail to compile.
  if (missing.length > 0) throw new Error(`json-schema-to-typescript did not declare ${missing.join(", ")} under the names the model gave them`);
  const aliasLines = aliases.map(([name, target]) => `export type ${name} = ${target};`).join("\n");
  return escapeInvisible(`${generatedHeader(model.name, model.version)}\n${cleaned.trim()}\n${aliasLines ? `\n${aliasLines}\n` : ""}`);
}

/**
 * Keywords json-schema-to-typescript does not type from (validation and annotation only; defaults
 * and units are in the description by then). Left in, they cost it a walk each — `examples` hold
 * whole sample documents — and an untyped schema with one of them is read as an object.
 */
const UNTYPED: ReadonlySet<string> = new Set([
  "examples", "format", "readOnly", "writeOnly", "default", "pattern", "minLength", "maxLength",
  "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "uniqueItems",
  "minProperties", "maxProperties", "propertyNames", "contentMediaType", "contentEncoding", "contentSchema",
]);

/** A payload schema with the webhook's summary leading its description (the type's doc comment). */
function described(schema: JsonSchema, summary: string): JsonSchema {
  if (!isSchemaObject(schema)) return schema;
  const own = typeof schema.description === "string" && schema.description !== "" ? `\n\n${schema.description}` : "";
  return { ...schema, description: `${summary}${own}` };
}

/** The schemas that allow every value and say nothing at all: `true` and `{}`. */
function acceptsAnything(schema: unknown): boolean {
  return schema === true || (isSchemaObject(schema) && Object.keys(schema).length === 0);
}

/**
 * Ready a schema for json-schema-to-typescript: name it by `title` (and nothing inside it), fold
 * units and defaults into the description (they belong in the JSDoc), make descriptions safe as
 * comment text, point references at identifiers, and hide Object.prototype names from its walker.
 * 2020-12 keywords it does not know are translated first (type-schema.ts).
 */
export function prepareDeclaration(schema: unknown, title: string, identifierOf: (defsKey: string) => string): unknown {
  // One walk: each node is translated (type-schema.ts), then documented and its reference named.
  const withDocs = typingSchema(schema, (node) => {
    const notes: string[] = [];
    if (typeof node["x-unit"] === "string") notes.push(`Unit: ${node["x-unit"]}.`);
    if ("default" in node) notes.push(`Default: ${JSON.stringify(node.default)}.`);
    // Validated as YYYY-MM-DD (schema-sunset-invalid): nothing to escape.
    if (typeof node["x-sunset"] === "string") notes.push(`Sunset: ${node["x-sunset"]} (may be removed after this date).`);
    const description = typeof node.description === "string" && node.description.trim() !== "" ? node.description.trim() : "";
    const text = [description, notes.join(" ")].filter((p) => p !== "").join("\n\n");
    const out: SchemaObject = {};
    for (const [k, v] of Object.entries(node)) {
      // Nested titles and $ids would make the generator declare (and name) types of its own.
      if (k === "title" || k === "$id" || k === "description" || UNTYPED.has(k) || k.startsWith("x-")) continue;
      defineOwn(out, k, v);
    }
    if (text !== "") out.description = commentText(text);
    // A union member that accepts anything (`{}`, `true`) is `unknown`: left as it is, the generator
    // declares nothing at all for the union (an imported `anyOf: [{}, {$ref: User}]`).
    for (const union of ["anyOf", "oneOf"]) {
      const members = out[union];
      if (Array.isArray(members) && members.some(acceptsAnything)) out[union] = members.map((m) => (acceptsAnything(m) ? { tsType: "unknown" } : m));
    }
    // Only documentation left: any value is allowed (the generator would read it as an object; `{}` it reads right).
    const keys = Object.keys(out);
    if (keys.length > 0 && keys.every((k) => k === "description" || k === "deprecated")) out.tsType = "unknown";
    // A reference becomes the name of its declaration, as written: no declaration needs another's
    // schema, so the generator never resolves references and the declarations compile apart.
    if (typeof out.$ref === "string" && out.$ref.startsWith("#/$defs/")) {
      out.tsType = identifierOf(out.$ref.slice("#/$defs/".length));
      delete out.$ref;
    }
    return out;
  });
  const aliased = aliasMemberKeys(withDocs);
  return isSchemaObject(aliased) ? { ...aliased, title } : aliased;
}
