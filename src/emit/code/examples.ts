/**
 * Code mode's worked examples (issue 43): for each operation, a short program that calls its client
 * methods the way the contract wants them called — a preview returned to the user and confirmed in a
 * later execute, a traversal bounded and its completeness returned, a plain call otherwise. Input
 * values are the contract's documented ones (const, default, examples, enum) or a placeholder naming
 * the field. The text is data (search_docs shows it), never code of the package: every value and name
 * is written as a JSON literal, so nothing from the contract can end the string it is in.
 */
import { isSchemaObject, type SchemaObject } from "../../contract/schema-walk.js";
import type { ClientMethodNames } from "../../model/naming.js";
import { resolveLocal } from "../../model/naming.js";
import type { JsonSchema, OperationModel } from "../../model/types.js";

/** How deep an example's nested required objects are filled in (deeper ones are `{}`). */
const MAX_DEPTH = 4;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The first documented value of a schema, if any. */
function documented(s: SchemaObject): { value: unknown } | undefined {
  if (Object.hasOwn(s, "const")) return { value: s.const };
  if (Object.hasOwn(s, "default")) return { value: s.default };
  if (Array.isArray(s.examples) && s.examples.length > 0) return { value: s.examples[0] };
  if (Object.hasOwn(s, "example")) return { value: (s as { example?: unknown }).example };
  if (Array.isArray(s.enum)) {
    const first = s.enum.find((v) => v !== null);
    if (first !== undefined) return { value: first };
  }
  return undefined;
}

function typeOf(s: SchemaObject): string | undefined {
  if (typeof s.type === "string") return s.type;
  if (Array.isArray(s.type)) return s.type.find((t): t is string => typeof t === "string" && t !== "null");
  if (isSchemaObject(s.properties)) return "object";
  return undefined;
}

/** A value for `schema` as a TypeScript expression: documented, or a placeholder of its type. */
function valueText(root: JsonSchema, schema: unknown, field: string, depth: number): string {
  const s = resolveLocal(schema, root);
  if (!s) return JSON.stringify(`<${field}>`);
  const known = documented(s);
  if (known !== undefined) return JSON.stringify(known.value) ?? "null";
  for (const k of ["allOf", "anyOf", "oneOf"] as const) {
    const first = Array.isArray(s[k]) ? (s[k] as unknown[])[0] : undefined;
    if (first !== undefined && !isSchemaObject(s.properties) && s.type === undefined) return valueText(root, first, field, depth + 1);
  }
  switch (typeOf(s)) {
    case "integer":
    case "number":
      return String(typeof s.minimum === "number" && Number.isFinite(s.minimum) ? s.minimum : typeof s.exclusiveMinimum === "number" ? Math.floor(s.exclusiveMinimum) + 1 : 1);
    case "boolean":
      return "false";
    case "array":
      return "[]";
    case "object":
      return depth >= MAX_DEPTH ? "{}" : objectText(root, s, [], depth + 1, null);
    default:
      return JSON.stringify(`<${field}>`);
  }
}

/** An object literal with the schema's required properties (less `omit`), and `extra` fields written as given. */
function objectText(root: JsonSchema, schema: SchemaObject, omit: readonly string[], depth: number, extra: readonly [string, string] | null): string {
  const properties = isSchemaObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string" && !omit.includes(r)) : [];
  // An input that needs more fields than it requires ("change at least one of these") gets the first optional ones.
  const wanted = [...required];
  let missing = typeof schema.minProperties === "number" ? schema.minProperties - wanted.length : 0;
  for (const name of Object.keys(properties)) {
    if (missing <= 0) break;
    if (wanted.includes(name) || omit.includes(name)) continue;
    wanted.push(name);
    missing--;
  }
  const entries = wanted.map((name) => `${IDENTIFIER.test(name) ? name : JSON.stringify(name)}: ${valueText(root, Object.hasOwn(properties, name) ? properties[name] : undefined, name, depth)}`);
  if (extra) entries.push(`${IDENTIFIER.test(extra[0]) ? extra[0] : JSON.stringify(extra[0])}: ${extra[1]}`);
  return entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
}

/** The worked example of one operation's client methods, as the program an agent would write. */
export function codeExample(op: OperationModel, names: ClientMethodNames): string {
  const root = op.input.schema;
  const input = resolveLocal(root, root) ?? {};
  const key = op.idempotency && op.effects.idempotent === "key" ? [op.idempotency.keyField] : [];
  const preview = op.preview;
  if (preview && names.preview) {
    const behaviour = [preview.dryRunField, preview.confirmTokenField, ...key];
    const args = objectText(root, input, behaviour, 0, null);
    const confirmed = objectText(root, input, behaviour, 0, [preview.confirmTokenField, JSON.stringify(`<${preview.confirmTokenField} from the preview>`)]);
    return [
      "// One execute: preview (nothing changes) and return it, so the user sees what would happen.",
      `return await client.${names.preview}(${args});`,
      `// A later execute, once the user agrees: the same input with the preview's ${preview.confirmTokenField}.`,
      `return await client.${names.call}(${confirmed});`,
    ].join("\n");
  }
  const args = objectText(root, input, key, 0, null);
  if (names.all) {
    return [
      "// Every page up to the bound; complete says whether that is all of them (reasons say why not).",
      `const { items, complete, reasons } = await client.${names.all}(${args}, { maxPages: 10 }).collect();`,
      "return { count: items.length, complete, reasons, first: items.slice(0, 5) };",
    ].join("\n");
  }
  const note = key.length > 0 ? "// Keyed: the client records the call; re-running it after a lost answer gets the recorded outcome.\n" : "";
  return `${note}return await client.${names.call}(${args});`;
}
