/**
 * What a filter with a declared meaning does, in words, for every adapter's description of its
 * field (SDK JSDoc, CLI help, MCP input schema): one text, so the three say the same thing. The
 * words hold contract names (the property); each emitter escapes them like any other description.
 */
import { defineOwn, isSchemaObject } from "../contract/schema-walk.js";
import type { FilterModel, JsonSchema, OperationModel } from "./types.js";

/** "Filter: only records whose tags contain this value." — null for a filter whose meaning is unknown. */
export function filterMeaningWords(filter: FilterModel, fieldIsArray = false): string | null {
  if (filter.property === null || filter.match === null) return null;
  const p = filter.property;
  const inclusive = (yes: boolean) => (yes ? "inclusive" : "exclusive");
  const ends = filter.ends ?? { fromInclusive: true, toInclusive: false };
  let words: string;
  switch (filter.match) {
    case "equals":
      words = `only records whose ${p} equals this value`;
      break;
    case "contains":
      words = fieldIsArray ? `only records whose ${p} contain every one of these values` : `only records whose ${p} contain this value`;
      break;
    case "prefix":
      words = `only records whose ${p} starts with this value (case-sensitive)`;
      break;
    case "range":
      words =
        filter.bound === "from"
          ? `only records whose ${p} is ${ends.fromInclusive ? "at or after this value (inclusive)" : "after this value (exclusive)"}`
          : filter.bound === "to"
            ? `only records whose ${p} is ${ends.toInclusive ? "at or before this value (inclusive)" : "before this value (exclusive)"}`
            : `only records whose ${p} is within this window (from ${inclusive(ends.fromInclusive)}, to ${inclusive(ends.toInclusive)})`;
      break;
  }
  return `Filter: ${words}.`;
}

function declaresArray(schema: unknown): boolean {
  if (!isSchemaObject(schema)) return false;
  return schema.type === "array" || (Array.isArray(schema.type) && schema.type.includes("array"));
}

/**
 * The operation's input schema with each meaning filter's words after its field's own description
 * (a copy; the model's schema is left as it is). The field's schema is not followed through `$ref`:
 * the words go on the property as the input writes it, beside the reference.
 */
export function inputWithFilterWords(op: OperationModel): JsonSchema {
  const schema = op.input.schema;
  if (!isSchemaObject(schema) || !isSchemaObject(schema.properties)) return schema;
  const properties = schema.properties as Record<string, unknown>;
  let revised: Record<string, unknown> | null = null;
  for (const filter of op.filters) {
    const property = Object.hasOwn(properties, filter.field) ? properties[filter.field] : undefined;
    if (!isSchemaObject(property)) continue;
    const words = filterMeaningWords(filter, declaresArray(property));
    if (words === null) continue;
    const said = typeof property.description === "string" ? property.description.trim() : "";
    revised ??= { ...properties };
    defineOwn(revised, filter.field, { ...property, description: said === "" ? words : `${said} ${words}` });
  }
  return revised === null ? schema : { ...schema, properties: revised };
}
