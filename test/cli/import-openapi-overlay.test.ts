/**
 * `import-openapi --overlay` writes the contract a document and its overlays make (the same semantics
 * and errors as `validate --overlay`), and `import-openapi --report` lists every review item `validate`
 * counts, each with its location and what to do. Run as users run them: the built bin.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openContract } from "../../src/import/open.js";

const BIN = join(process.cwd(), "bin/contractgen.js");
function contractgen(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const dir = mkdtempSync(join(tmpdir(), "contractgen-import-overlay-"));
const BOOKSHELF = "specs/openapi/bookshelf.yaml";
const BOOKSHELF_OVERLAY = "specs/openapi/bookshelf.overlay.yaml";

/** A document that gives review items of many kinds, and an overlay that settles some and adds others. */
const MANY_KINDS = `openapi: 3.0.3
info: { title: Many kinds, version: "2024-05-01" }
servers: [{ url: "https://{region}.api.example/v1", variables: { region: { default: eu } } }]
paths:
  /items:
    get:
      parameters:
        - { name: cursor, in: query, schema: { type: string } }
        - { name: limit, in: query, schema: { type: integer } }
        - { name: q, in: query, schema: { type: string }, x-contract: { note: ignored here } }
      responses:
        "200":
          description: A page.
          content:
            application/json:
              schema:
                type: object
                properties:
                  items: { type: array, items: { $ref: "#/components/schemas/Item" } }
                  next_cursor: { type: string, nullable: true }
        4XX: { description: Some client error. }
    post:
      operationId: create_item
      parameters:
        - { name: Idempotency-Key, in: header, required: true, schema: { type: string } }
      requestBody:
        content:
          application/json:
            schema: { $ref: "#/components/schemas/Item" }
      responses:
        "201": { description: Created. }
        "418": { description: A teapot. }
    head:
      responses:
        "200": { description: Exists. }
components:
  schemas:
    Item:
      type: object
      x-internal: true
      properties:
        id: { type: string }
        name: { type: string, format: not-a-format }
`;

const MANY_KINDS_OVERLAY = `overlay: 1.0.0
info: { title: Behaviour, version: 1.0.0 }
actions:
  - target: $.paths['/items'].post
    update:
      summary: Create an item.
      x-contract:
        effects: { kind: mutating, idempotent: key, destructive: false }
  - target: $.paths['/items'].get.responses['200']
    update:
      x-contract: { code: NOT_AN_ERROR }
`;

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

interface ReportItem {
  kind: string;
  pointer: string;
  operation?: string;
  message: string;
  location: string;
  action: string;
}

/** validate's count, the import's report, and the review the in-memory import (what validate reads) made. */
async function bothSides(spec: string, overlays: string[], base: string) {
  const overlayArgs = overlays.flatMap((o) => ["--overlay", o]);
  const text = contractgen("validate", spec, ...overlayArgs);
  const json = contractgen("validate", spec, ...overlayArgs, "-f", "json");
  const counted = JSON.parse(json.stdout) as { files: Array<{ reviewItems: number }> };
  const out = join(dir, `${base}.contract.yaml`);
  const imported = contractgen("import-openapi", spec, ...overlayArgs, "-o", out, "--report", join(dir, base));
  expect(imported.code, imported.stderr).toBe(0);
  const report = JSON.parse(readFileSync(join(dir, `${base}.json`), "utf8")) as { items: ReportItem[] };
  const markdown = readFileSync(join(dir, `${base}.md`), "utf8");
  const opened = await openContract(spec, { lint: true, overlays });
  return { text, counted: counted.files[0]!.reviewItems, report, markdown, review: opened.review!, imported };
}

describe("import-openapi --overlay", () => {
  it("writes the contract the document and its overlays make: validate finds it valid, diff finds no change", () => {
    const out = join(dir, "bookshelf.contract.yaml");
    const r = contractgen("import-openapi", BOOKSHELF, "--overlay", BOOKSHELF_OVERLAY, "-o", out);
    expect(r.code, r.stderr).toBe(0);
    const contract = readFileSync(out, "utf8");
    // What only the overlay says: the delete previews, the create is keyed, the release is 1.2.0's.
    expect(contract).toContain("invalidTokenError: CONFIRMATION_REQUIRED");
    expect(contract).toContain("mismatchError: IDEMPOTENCY_KEY_REUSED");
    expect(contract).toMatch(/^    date: "?2026-12-03"?$/m);
    expect(contractgen("validate", out).stdout).toBe(`${out}: valid (bookshelf 1.2.0, 5 operations)\n`);
    const diff = contractgen("diff", out, BOOKSHELF, "--overlay", BOOKSHELF_OVERLAY);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain("No changes found.");
    // Without the overlay the import is the document alone.
    const bare = join(dir, "bookshelf-bare.contract.yaml");
    expect(contractgen("import-openapi", BOOKSHELF, "-o", bare).code).toBe(0);
    expect(readFileSync(bare, "utf8")).not.toContain("CONFIRMATION_REQUIRED");
  });

  it("applies overlays in the order given", () => {
    const first = write("first.overlay.yaml", "overlay: 1.0.0\ninfo: { title: a, version: '1' }\nactions:\n  - target: $.info\n    update: { title: First title }\n");
    const second = write("second.overlay.yaml", "overlay: 1.0.0\ninfo: { title: b, version: '1' }\nactions:\n  - target: $.info\n    update: { title: Second title }\n");
    const out = join(dir, "ordered.contract.yaml");
    expect(contractgen("import-openapi", BOOKSHELF, "--overlay", first, "--overlay", second, "-o", out, "--name", "bookshelf").code).toBe(0);
    expect(readFileSync(out, "utf8")).toContain("title: Second title");
    expect(contractgen("import-openapi", BOOKSHELF, "--overlay", second, "--overlay", first, "-o", out, "--name", "bookshelf").code).toBe(0);
    expect(readFileSync(out, "utf8")).toContain("title: First title");
  });

  it("reports an overlay's problems as validate --overlay does: a target matching nothing warns, and with --strict refuses", () => {
    const unmatched = write("unmatched.overlay.yaml", "overlay: 1.0.0\ninfo: { title: t, version: '1' }\nactions:\n  - target: $.paths['/nothing'].get\n    update: { x-contract: { effects: { kind: read } } }\n");
    const line = `${unmatched}:4:13: warning [overlay-target-unmatched] The action's target selects nothing in the document; the action does nothing.`;
    const out = join(dir, "unmatched.contract.yaml");
    const r = contractgen("import-openapi", BOOKSHELF, "--overlay", unmatched, "-o", out);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(line);
    expect(contractgen("validate", BOOKSHELF, "--overlay", unmatched).stderr).toContain(line);
    const strictOut = join(dir, "unmatched-strict.contract.yaml");
    const strict = contractgen("import-openapi", BOOKSHELF, "--overlay", unmatched, "-o", strictOut, "--strict");
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain(line.replace("warning [", "error ["));
    expect(strict.stderr).toContain("not imported; nothing was written.");
    expect(existsSync(strictOut)).toBe(false);
    expect(contractgen("validate", BOOKSHELF, "--overlay", unmatched, "--strict").stderr).toContain(line.replace("warning [", "error ["));
  });

  it("refuses an overlay that cannot be read with validate's error, writing nothing", () => {
    const missing = join(dir, "missing.overlay.yaml");
    const out = join(dir, "missing.contract.yaml");
    const r = contractgen("import-openapi", BOOKSHELF, "--overlay", missing, "-o", out);
    const v = contractgen("validate", BOOKSHELF, "--overlay", missing);
    expect(r.code).toBe(1);
    const error = `${missing}:1:1: error [file-not-found] ${missing} does not exist.`;
    expect(r.stderr).toContain(error);
    expect(v.stderr).toContain(error);
    expect(existsSync(out)).toBe(false);
  });
});

describe("import-openapi --report lists every review item validate counts", () => {
  for (const [name, spec, overlays] of [
    ["bookshelf with its overlay", BOOKSHELF, [BOOKSHELF_OVERLAY]],
    ["bookshelf alone", BOOKSHELF, []],
    ["a document with many kinds of items, with an overlay", "many", ["many-overlay"]],
  ] as const) {
    it(name, async () => {
      const file = spec === "many" ? write("many.yaml", MANY_KINDS) : spec;
      const ov = overlays.map((o) => (o === "many-overlay" ? write("many.overlay.yaml", MANY_KINDS_OVERLAY) : o));
      const base = name.replace(/\W+/g, "-");
      const { text, counted, report, markdown, review } = await bothSides(file, ov, base);
      // validate names the command that lists them, with the same overlays.
      expect(text.stdout).toContain(`; ${counted} review items (contractgen import-openapi ${file}${ov.map((o) => ` --overlay ${o}`).join("")} -o <contract.yaml> --report <base> lists them)`);
      // Same count, same set.
      expect(report.items.length).toBe(counted);
      expect(report.items.map((i) => `${i.kind} ${i.pointer} ${i.message}`)).toEqual(review.items.map((i) => `${i.kind} ${i.pointer} ${i.message}`));
      for (const item of report.items) {
        expect(item.location).toMatch(/^.+:\d+:\d+$/);
        expect(item.action.length).toBeGreaterThan(10);
        expect(markdown).toContain(`\`#${item.pointer}\` at \`${item.location}\``);
      }
      if (spec === "many") {
        expect(new Set(report.items.map((i) => i.kind)).size).toBeGreaterThanOrEqual(8);
        // An item at a place the overlay wrote is located in the overlay.
        const written = report.items.find((i) => i.kind === "x-contract-invalid" && i.pointer.startsWith("/paths/~1items/get/responses/200"));
        expect(written?.location).toMatch(/many\.overlay\.yaml:11:\d+$/);
        expect(markdown).toContain("What to do: Give the operation an operationId");
      }
    });
  }
});
