/**
 * Files that hold many bundled schemas (sdk/contract.json, tests/contract.ts) store each `$defs`
 * entry once, in a list, and write its index in its place (emit/shared/def-pool.ts). This puts the
 * entries back: objects are shared, never copied, so a shared type is one object however many
 * schemas reach it, and serialising a schema (an MCP tools/list) still writes it whole.
 */
export function linkSchemaDefs<T>(schema: T, defs: readonly unknown[], file: string): T {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return schema;
  const indexes = (schema as Record<string, unknown>).$defs;
  if (indexes === null || typeof indexes !== "object" || Array.isArray(indexes)) return schema;
  // Null prototype: a definition may be named like an Object.prototype member ("__proto__" included).
  const linked: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, index] of Object.entries(indexes as Record<string, unknown>)) {
    const def = typeof index === "number" ? defs[index] : undefined;
    if (def === undefined) throw new Error(`${file}: $defs entry ${JSON.stringify(name)} names no stored definition (${String(index)}): regenerate the package.`);
    linked[name] = def;
  }
  return { ...schema, $defs: linked };
}
