import { defineOwn, isSchemaObject } from "../../contract/schema-walk.js";

/**
 * The distinct `$defs` entries of a file's schemas, by their JSON text (the model shares one object
 * per shared type): a file that holds many bundled schemas (sdk/contract.json, the MCP tools' schemas)
 * stores each entry once and writes its index in its place; the runtime links them back on load
 * (runtime/schema-defs.ts). References stay `#/$defs/<name>`, resolved in each schema's own `$defs`.
 */
export class DefPool {
  private readonly indexByText = new Map<string, number>();
  private readonly defs: unknown[] = [];

  /** `schema` with each `$defs` entry replaced by its pool index. */
  pooled(schema: unknown): unknown {
    if (!isSchemaObject(schema) || !isSchemaObject(schema.$defs)) return schema;
    const indexes: Record<string, unknown> = {};
    for (const [name, def] of Object.entries(schema.$defs)) defineOwn(indexes, name, this.indexOf(def));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(schema)) defineOwn(out, k, k === "$defs" ? indexes : v);
    return out;
  }

  entries(): readonly unknown[] {
    return this.defs;
  }

  private indexOf(def: unknown): number {
    const text = defText(def);
    let index = this.indexByText.get(text);
    if (index === undefined) {
      index = this.defs.push(def) - 1;
      this.indexByText.set(text, index);
    }
    return index;
  }
}

/** JSON text of each def object: the model shares one object per shared type across operations, so each is serialised once. */
const defTexts = new WeakMap<object, string>();
export function defText(def: unknown): string {
  if (typeof def !== "object" || def === null) return JSON.stringify(def) ?? "null";
  let text = defTexts.get(def);
  if (text === undefined) {
    text = JSON.stringify(def);
    defTexts.set(def, text);
  }
  return text;
}
