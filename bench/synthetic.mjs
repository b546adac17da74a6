// Synthetic contracts for benchmarks.

/**
 * A synthetic contract with `n` paginated reads and keyed mutations over shared types.
 * `distinct`: every operation's input gets its own property names, so no two inputs are equal (the
 * plain contract repeats two operation shapes, which flatters deduplication).
 */
export function syntheticContract(n, { distinct = false } = {}) {
  const text = plainContract(n);
  if (!distinct) return text;
  return text.replace(/^  (list_items|create_item)_(\d+):\n[\s\S]*?(?=^  \S|(?![\s\S]))/gm, (block, _kind, i) =>
    block.replace(/\bname\b(?=: \{|\]|,)/g, `name_${i}`));
}

function plainContract(n) {
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


/**
 * A later version of a synthetic contract of `ops` operations with `wanted` scattered changes (one
 * every ops/wanted operations, cycling through kinds: limits, summaries, retention/filters, bounds,
 * error lists). Returns the text and the number of changes made.
 */
export function reviseContract(text, ops, wanted = 100) {
  const lines = text.split("\n");
  const step = Math.max(1, Math.floor(ops / wanted));
  let changes = 0;
  for (let i = 0; i < ops && changes < wanted; i += step) {
    const header = lines.findIndex((l) => l === `  list_items_${i}:` || l === `  create_item_${i}:`);
    const kind = changes % 5;
    const end = lines.findIndex((l, j) => j > header && /^  [a-z]/.test(l));
    const block = lines.slice(header, end === -1 ? undefined : end);
    const edit = (from, to) => {
      const k = block.findIndex((l) => l.includes(from));
      if (k >= 0) block[k] = block[k].replace(from, to);
      return k >= 0;
    };
    const done =
      kind === 0 ? edit("maximum: 50", "maximum: 20") && edit("max: 50", "max: 20")
      : kind === 1 ? edit("summary: List items, a bounded page at a time.", "summary: List items page by page.") || edit("summary: Create an item once per key.", "summary: Create an item.")
      : kind === 2 ? edit("retention: 24h", "retention: 1h") || edit("filters: [name]", "filters: []")
      : kind === 3 ? edit("minLength: 1", "minLength: 3") || edit("total: { type: integer }", "total: { type: integer, minimum: 0 }")
      : edit("errors: [INVALID_FIELD]", "errors: [INVALID_FIELD, KEY_REUSED]") || edit("errors: [INVALID_FIELD, KEY_REUSED]", "errors: [INVALID_FIELD]");
    if (done) changes++;
    lines.splice(header, block.length, ...block);
  }
  const revised = lines.join("\n").replace("version: 1.0.0\n", "version: 2.0.0\n").replace("changelog:\n", "changelog:\n  - { version: 2.0.0, date: 2026-02-01 }\n");
  return { text: revised, changes };
}
