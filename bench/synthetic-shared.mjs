// A GitHub-shaped synthetic contract for the diff benchmark: ~1,200 operations over a graph of
// shared types nested several levels deep (leaves like a user or a label, mid-level types like a
// repository that reach several leaves, top types like a pull request that reach a repository twice),
// and a revision of it with ~100 changes, ~30 of them edits to shared types.

const LEAVES = 40;
const MIDS = 25;
const TOPS = 15;

const leaf = (i) => `Leaf${i}`;
const mid = (i) => `Mid${i}`;
const top = (i) => `Top${i}`;

/** The types section: scalars on every type, references one level down, and arrays of them. */
function types() {
  const out = ["types:"];
  const scalars = (name) => [
    `  ${name}:`, "    type: object", "    required: [id, url]", "    properties:",
    "      id: { type: integer }", "      node_id: { type: string }", "      url: { type: string, format: uri }",
    "      name: { type: string, maxLength: 200 }", "      state: { type: string, enum: [open, closed] }",
    "      created_at: { type: string, format: date-time }",
  ];
  for (let i = 0; i < LEAVES; i++) out.push(...scalars(leaf(i)), "      count: { type: integer, minimum: 0 }");
  for (let i = 0; i < MIDS; i++) {
    out.push(...scalars(mid(i)));
    for (let k = 0; k < 4; k++) out.push(`      ref_${k}: { $ref: "#/types/${leaf((i * 3 + k * 7) % LEAVES)}" }`);
    out.push(`      list: { type: array, items: { $ref: "#/types/${leaf((i * 5 + 1) % LEAVES)}" } }`);
  }
  for (let i = 0; i < TOPS; i++) {
    out.push(...scalars(top(i)));
    for (let k = 0; k < 3; k++) out.push(`      part_${k}: { $ref: "#/types/${mid((i * 2 + k * 5) % MIDS)}" }`);
    out.push(`      owner: { $ref: "#/types/${leaf(i % LEAVES)}" }`);
    out.push(`      items: { type: array, items: { $ref: "#/types/${mid((i * 7 + 3) % MIDS)}" } }`);
  }
  return out;
}

/** Which type an operation returns, and which one its input embeds. */
const outputType = (i) => (i % 3 === 0 ? top(i % TOPS) : i % 3 === 1 ? mid(i % MIDS) : leaf(i % LEAVES));
const inputType = (i) => leaf((i * 11) % LEAVES);

export function githubShapedContract(n) {
  const lines = [
    "contract: synthetic-github", "version: 1.0.0", "changelog:", "  - { version: 1.0.0, date: 2026-01-01 }",
    "transport:", "  http: { baseUrl: \"http://127.0.0.1:1\" }",
    ...types(),
    "errors:", "  INVALID_FIELD: { class: invalid_input, action: fix_field, http: 400 }",
    "  NOT_FOUND: { class: not_found, action: verify_identifier, http: 404 }", "operations:",
  ];
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) {
      lines.push(
        `  get_thing_${i}:`, "    summary: Get a thing.", `    http: { method: GET, path: "/r${i}/{id}" }`,
        "    effects: { kind: read }",
        "    input:", "      type: object", "      required: [id]", "      properties:",
        "        id: { type: string, maxLength: 100 }", "        per_page: { type: integer, minimum: 1, maximum: 100 }",
        `    output: { $ref: "#/types/${outputType(i)}" }`,
        "    errors: [NOT_FOUND]",
      );
    } else {
      lines.push(
        `  update_thing_${i}:`, "    summary: Update a thing.", `    http: { method: PATCH, path: "/r${i}/{id}" }`,
        "    effects: { kind: mutating, idempotent: natural, destructive: false }",
        "    input:", "      type: object", "      required: [id]", "      properties:",
        "        id: { type: string, maxLength: 100 }", "        title: { type: string, maxLength: 256 }",
        `        body: { $ref: "#/types/${inputType(i)}" }`,
        `    output: { $ref: "#/types/${outputType(i)}" }`,
        "    errors: [INVALID_FIELD, NOT_FOUND]",
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The revision: `shared` edits inside types (cycling: a new optional property, a new required
 * property, a removed property, an enum value added, a bound lowered, a type changed) and
 * `perOperation` edits of single operations (summary, a bound, an error code, an added input property).
 */
export function reviseGithubShaped(text, { shared = 30, perOperation = 70 } = {}) {
  const lines = text.split("\n");
  const typeBlock = (name) => {
    const start = lines.indexOf(`  ${name}:`);
    let end = start + 1;
    while (end < lines.length && lines[end].startsWith("    ")) end++;
    return [start, end];
  };
  const editIn = (start, end, from, to) => {
    for (let k = start; k < end; k++) if (lines[k].includes(from)) return void (lines[k] = lines[k].replace(from, to));
    throw new Error(`no ${from}`);
  };
  const names = [...Array.from({ length: LEAVES }, (_, i) => leaf(i)), ...Array.from({ length: MIDS }, (_, i) => mid(i)), ...Array.from({ length: TOPS }, (_, i) => top(i))];
  let sharedDone = 0;
  for (let s = 0; s < shared; s++) {
    // Spread over leaves (reached through other types) and the upper tiers.
    const name = names[(s * 7) % names.length];
    const [start, end] = typeBlock(name);
    const kind = s % 6;
    if (kind === 0) lines.splice(end, 0, "      extra: { type: string }");
    else if (kind === 1) { editIn(start, end, "required: [id, url]", "required: [id, url, extra_required]"); lines.splice(end, 0, "      extra_required: { type: boolean }"); }
    else if (kind === 2) editIn(start, end, "      node_id: { type: string }", "      node_id_moved: { type: string }");
    else if (kind === 3) editIn(start, end, "enum: [open, closed]", "enum: [open, closed, merged]");
    else if (kind === 4) editIn(start, end, "maxLength: 200", "maxLength: 100");
    else editIn(start, end, "id: { type: integer }", "id: { type: string }");
    sharedDone++;
  }
  let opsDone = 0;
  for (let j = 0; j < perOperation; j++) {
    const i = (j * 17) % 1200;
    const header = lines.findIndex((l) => l === `  get_thing_${i}:` || l === `  update_thing_${i}:`);
    if (header < 0) continue;
    let end = header + 1;
    while (end < lines.length && lines[end].startsWith("    ")) end++;
    const kind = j % 4;
    if (kind === 0) editIn(header, end, "summary: ", "summary: Now, ");
    else if (kind === 1) editIn(header, end, "maxLength: 100 }", "maxLength: 50 }");
    else if (kind === 2) editIn(header, end, "errors: [", "errors: [INVALID_FIELD, ");
    else editIn(header, end, "        id: {", "        note: { type: string }\n        id: {");
    opsDone++;
  }
  const out = lines.join("\n").replace("version: 1.0.0\n", "version: 2.0.0\n").replace("changelog:\n", "changelog:\n  - { version: 2.0.0, date: 2026-02-01 }\n");
  return { text: out, shared: sharedDone, perOperation: opsDone };
}
