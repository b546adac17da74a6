// Synthetic contracts for benchmarks.

/** A synthetic contract with `n` paginated reads and keyed mutations over shared types. */
export function syntheticContract(n) {
  const lines = [
    "contract: synthetic", "version: 1.0.0", "changelog:", "  - { version: 1.0.0, date: 2026-01-01 }",
    "transport:", "  http: { baseUrl: \"http://127.0.0.1:1\" }",
    "types:", "  Item:", "    type: object", "    required: [id]",
    "    properties:", "      id: { type: string }", "      name: { type: string, maxLength: 200 }", "      revision: { type: integer, minimum: 1 }",
    "errors:", "  INVALID_FIELD: { class: invalid_input, action: fix_field, http: 400 }",
    "  KEY_REUSED: { class: conflict, action: stop_and_surface, http: 409 }", "operations:",
  ];
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) {
      lines.push(
        `  list_items_${i}:`, "    summary: List items, a bounded page at a time.", `    http: { method: GET, path: /r${i}/items }`,
        "    effects: { kind: read }",
        "    pagination: { cursor: cursor, nextCursor: next_cursor, items: items, limit: { field: limit, max: 50 }, total: total }",
        "    filters: [name]",
        "    input:", "      type: object", "      properties:", "        name: { type: string }", "        cursor: { type: string }", "        limit: { type: integer, minimum: 1, maximum: 50 }",
        "    output:", "      type: object", "      required: [items, next_cursor, total]", "      properties:",
        "        items: { type: array, items: { $ref: \"#/types/Item\" } }", "        next_cursor: { type: [string, \"null\"] }", "        total: { type: integer }",
        "    errors: [INVALID_FIELD]",
      );
    } else {
      lines.push(
        `  create_item_${i}:`, "    summary: Create an item once per key.", `    http: { method: POST, path: /r${i}/items }`,
        "    effects: { kind: mutating, idempotent: key, destructive: false }",
        "    idempotency: { key: idempotency_key, retention: 24h, mismatchError: KEY_REUSED }",
        "    input:", "      type: object", "      required: [name, idempotency_key]", "      properties:",
        "        name: { type: string, minLength: 1 }", "        idempotency_key: { type: string, format: uuid }",
        "    output: { $ref: \"#/types/Item\" }", "    errors: [INVALID_FIELD, KEY_REUSED]",
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

