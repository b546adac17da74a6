import { compile } from "json-schema-to-typescript";
import type { ContractModel, JsonSchema, OperationModel } from "../../model/types.js";
import { isSchemaObject, mapSchema, type SchemaObject } from "../../spec/schema-walk.js";
import { generatedHeader } from "../shared/literals.js";

/** Names of the generated types of one operation. */
export function operationTypeNames(op: OperationModel): { input: string; output: string; preview: string } {
  return { input: `${op.names.pascal}Input`, output: `${op.names.pascal}Output`, preview: `${op.names.pascal}Preview` };
}

const ROOT = "ContractgenTypesRoot";
/** json-schema-to-typescript cannot walk a property named "__proto__"; it travels under this alias. */
const PROTO_ALIAS = "__contractgen_proto_alias__";

/**
 * `sdk/types.ts`: one declaration per shared type and per operation input, output and preview,
 * produced by json-schema-to-typescript from the model's bundled schemas in a single pass.
 */
export async function emitTypes(model: ContractModel): Promise<string> {
  const defs = new Map<string, unknown>();
  const aliases: Array<[string, string]> = [];

  const absorb = (schema: JsonSchema): unknown => {
    if (!isSchemaObject(schema)) return schema;
    const nested = schema.$defs;
    if (isSchemaObject(nested)) for (const [name, def] of Object.entries(nested)) if (!defs.has(name)) defs.set(name, prepare(def, name));
    const { $defs: _unused, ...rest } = schema as SchemaObject;
    return rest;
  };
  const declare = (name: string, schema: JsonSchema) => {
    const body = absorb(schema) as SchemaObject | boolean;
    // A bare reference becomes a type alias instead of a structural copy.
    const ref = isSchemaObject(body) && Object.keys(body).length === 1 && typeof body.$ref === "string" ? body.$ref : null;
    if (ref?.startsWith("#/$defs/")) aliases.push([name, ref.slice("#/$defs/".length)]);
    else defs.set(name, prepare(body, name));
  };

  for (const type of model.types) declare(type.name, type.schema.schema);
  for (const op of model.operations) {
    const names = operationTypeNames(op);
    declare(names.input, op.input.schema);
    declare(names.output, op.output.schema);
    if (op.preview?.output) declare(names.preview, op.preview.output.schema);
  }

  const root = {
    title: ROOT,
    type: "object",
    additionalProperties: false,
    properties: {},
    $defs: Object.fromEntries([...defs.entries()]),
  };
  const source = await compile(root as never, ROOT, {
    bannerComment: "",
    unreachableDefinitions: true,
    additionalProperties: false,
    format: true,
    strictIndexSignatures: true,
    declareExternallyReferenced: true,
    $refOptions: { resolve: { external: false } } as never,
  });
  const cleaned = source
    .replace(`export interface ${ROOT} {}\n`, "")
    .replace(/(\n \*)?\n \* This (interface|type) was referenced by `[^`]*`'s JSON-Schema\n \* via the `definition` "[^"]*"\./g, "")
    .replace(/\/\*\*\n \*\/\n/g, "")
    .replaceAll(PROTO_ALIAS, "__proto__");
  const aliasLines = aliases.map(([name, target]) => `export type ${name} = ${target};`).join("\n");
  return `${generatedHeader(model.name, model.version)}\n${cleaned.trim()}\n${aliasLines ? `\n${aliasLines}\n` : ""}`;
}

/**
 * Ready a schema for json-schema-to-typescript: name it by `title`, fold units and defaults into the
 * description (they belong in the JSDoc), and hide "__proto__" property names from its walker.
 */
function prepare(schema: unknown, title: string): unknown {
  const withDocs = mapSchema(schema, "", (node) => {
    const notes: string[] = [];
    if (typeof node["x-unit"] === "string") notes.push(`Unit: ${node["x-unit"]}.`);
    if ("default" in node) notes.push(`Default: ${JSON.stringify(node.default)}.`);
    let out: SchemaObject = node;
    if (notes.length > 0) {
      const description = typeof node.description === "string" && node.description.trim() !== "" ? `${node.description.trim()}\n\n` : "";
      out = { ...node, description: `${description}${notes.join(" ")}` };
    }
    if (isSchemaObject(out.properties) && Object.prototype.hasOwnProperty.call(out.properties, "__proto__")) {
      const properties: SchemaObject = {};
      for (const [k, v] of Object.entries(out.properties)) properties[k === "__proto__" ? PROTO_ALIAS : k] = v;
      const required = Array.isArray(out.required) ? out.required.map((r) => (r === "__proto__" ? PROTO_ALIAS : r)) : out.required;
      out = { ...out, properties, ...(required ? { required } : {}) };
    }
    return out;
  });
  return isSchemaObject(withDocs) ? { ...withDocs, title } : withDocs;
}
