/**
 * The proof of the sdk-* rules (issue 40, item 4): for each change below, the old and the new SDK
 * are generated with the real emitter, one consumer written against the old SDK's surface (every
 * method called with its options set and left out, every output property read and used as its kind,
 * every literal passed or compared with, every exported type named, every error code matched) is
 * compiled by the TypeScript compiler against the old SDK (it must compile) and against each new
 * one, and the diff must report an SDK source finding exactly when the consumer no longer compiles.
 *
 * One tsc Program holds every consumer; each package's sdk/runtime is one shared copy (the emitter
 * copies the runtime verbatim: held equal here), and only the consumers are type-checked.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { parseContractText } from "../../src/contract/parse.js";
import { allFindings, runDiff } from "../../src/diff/engine.js";
import { RULES } from "../../src/diff/rules/index.js";
import { emitPackage } from "../../src/emit/index.js";
import type { ContractModel } from "../../src/model/types.js";

const BASE = `contract: library
version: 1.0.0
changelog:
  - { version: 1.0.0, date: 2026-01-01 }
transport:
  http: { baseUrl: "http://127.0.0.1:1" }
types:
  Book:
    type: object
    required: [id, title, status]
    properties:
      id: { type: string }
      title: { type: string, description: The title as printed. }
      subtitle: { type: string }
      status: { type: string, enum: [available, lent, archived] }
      pages: { type: integer }
errors:
  INVALID_FIELD: { class: invalid_input, action: fix_field, http: 400 }
  BOOK_NOT_FOUND: { class: not_found, action: verify_identifier, http: 404 }
  LOCATION_FULL: { class: conflict, action: stop_and_surface, http: 409 }
operations:
  get_book:
    summary: Get a book.
    http: { method: GET, path: "/books/{bookId}" }
    effects: { kind: read }
    input:
      type: object
      required: [bookId]
      properties:
        bookId: { type: string }
    output: { $ref: "#/types/Book" }
    errors: [INVALID_FIELD, BOOK_NOT_FOUND]
  list_books:
    summary: List books.
    http: { method: GET, path: /books }
    effects: { kind: read }
    input:
      type: object
      properties:
        sort: { type: string, enum: [title, author, year] }
        author: { type: string }
        year: { type: [integer, "null"] }
    output:
      type: object
      required: [books]
      properties:
        books: { type: array, items: { $ref: "#/types/Book" } }
        total: { type: integer }
    errors: [INVALID_FIELD]
  shelve_book:
    summary: Put a book on a shelf.
    http: { method: POST, path: /shelves }
    effects: { kind: mutating, idempotent: natural, destructive: false }
    input:
      type: object
      required: [book_id]
      properties:
        book_id: { type: string }
        shelf: { type: string }
        note: { type: string }
    output:
      type: object
      required: [shelf]
      properties:
        shelf: { type: string }
        position: { type: integer }
    errors: [INVALID_FIELD, LOCATION_FULL]
  delete_book:
    summary: Delete a book.
    http: { method: DELETE, path: "/books/{bookId}" }
    effects: { kind: mutating, idempotent: natural, destructive: true, reversible: false }
    input:
      type: object
      required: [bookId]
      properties:
        bookId: { type: string }
    output:
      type: object
      properties:
        deleted: { type: boolean }
    errors: [INVALID_FIELD, BOOK_NOT_FOUND]
  tag_book:
    summary: Tag a book; other tags pass through.
    http: { method: POST, path: /tags }
    effects: { kind: mutating, idempotent: natural, destructive: false }
    input:
      type: object
      required: [book_id]
      properties:
        book_id: { type: string }
        colour: { type: string }
      additionalProperties: true
    output: { type: object, properties: { tagged: { type: boolean } } }
    errors: [INVALID_FIELD]
`;

/**
 * The consumer, written against the old SDK. `SDK` is replaced by the package's path. It uses the
 * surface the way the sdk-* rules assume code does (see src/diff/rules/_sdk.ts).
 */
const CONSUMER = `import { LibraryClient, isContractError, type Book, type ErrorCode, type GetBookInput, type GetBookOutput, type ListBooksOutput } from "SDK";

const seen = (_: unknown): void => undefined;

function useBook(b: Book): void {
  seen(b.id.toUpperCase());
  seen(b.title.toUpperCase());
  seen(b.subtitle?.toUpperCase());
  seen(b.pages?.toFixed());
  seen(b.status === "available");
  seen(b.status === "lent");
  seen(b.status === "archived");
}

export async function useEverything(c: LibraryClient): Promise<void> {
  const input: GetBookInput = { bookId: "b1" };
  const got: GetBookOutput = await c.getBook(input);
  useBook(got);
  useBook(await c.getBook({ bookId: "b1" }));

  await c.listBooks({});
  await c.listBooks({ sort: "title" });
  await c.listBooks({ sort: "author" });
  await c.listBooks({ sort: "year" });
  await c.listBooks({ year: null });
  const page: ListBooksOutput = await c.listBooks({ sort: "title", author: "Le Guin", year: 1969 });
  for (const b of page.books) useBook(b);
  seen(page.total?.toFixed());

  await c.shelveBook({ book_id: "b1" });
  const shelved = await c.shelveBook({ book_id: "b1", shelf: "A", note: "by the window" });
  seen(shelved.shelf.toUpperCase());
  seen(shelved.position?.toFixed());

  const deleted = await c.deleteBook({ bookId: "b1" });
  seen(deleted.deleted === true);

  const tagged = await c.tagBook({ book_id: "b1", colour: "red", shelf_mark: "A-1" });
  seen(tagged.tagged === true);
}

export function handle(e: unknown): string {
  if (isContractError(e, "LOCATION_FULL")) return e.code;
  if (isContractError(e, "BOOK_NOT_FOUND", "INVALID_FIELD")) return e.code;
  const code: ErrorCode = "INVALID_FIELD";
  return code;
}
`;

interface Case {
  readonly name: string;
  /** [from, to] replacements applied to BASE, each of which must match. */
  readonly edits: ReadonlyArray<readonly [string | RegExp, string]>;
}

const CASES: readonly Case[] = [
  // Changes code written against the old SDK meets.
  { name: "error code removed (retired)", edits: [["  LOCATION_FULL: { class: conflict, action: stop_and_surface, http: 409 }\n", ""], ["errors: [INVALID_FIELD, LOCATION_FULL]", "errors: [INVALID_FIELD]"]] },
  { name: "path parameter renamed", edits: [['path: "/books/{bookId}" }\n    effects: { kind: read }', 'path: "/books/{id}" }\n    effects: { kind: read }'], ["      required: [bookId]\n      properties:\n        bookId: { type: string }\n    output: { $ref", "      required: [id]\n      properties:\n        id: { type: string }\n    output: { $ref"]] },
  { name: "output enum literal removed", edits: [["enum: [available, lent, archived]", "enum: [available, lent]"]] },
  { name: "input enum literal removed", edits: [["enum: [title, author, year]", "enum: [title, author]"]] },
  { name: "operation renamed", edits: [["  get_book:\n    summary: Get a book.", "  fetch_book:\n    summary: Get a book."]] },
  { name: "operation removed", edits: [[/ {2}delete_book:[^]*?(?= {2}tag_book:)/, ""]] },
  { name: "optional input became required", edits: [["required: [book_id]", "required: [book_id, shelf]"]] },
  { name: "optional output property removed", edits: [["      subtitle: { type: string }\n", ""]] },
  { name: "output property may be null", edits: [["title: { type: string, description", 'title: { type: [string, "null"], description']] },
  { name: "input no longer accepts null", edits: [['year: { type: [integer, "null"] }', "year: { type: integer }"]] },
  { name: "shared type renamed", edits: [["  Book:\n", "  Volume:\n"], [/#\/types\/Book/g, "#/types/Volume"]] },
  { name: "input property removed", edits: [["        note: { type: string }\n", ""]] },
  { name: "output property type changed", edits: [["      pages: { type: integer }\n", "      pages: { type: string }\n"]] },
  // Changes it does not meet.
  { name: "output property added", edits: [["      pages: { type: integer }\n", "      pages: { type: integer }\n      isbn: { type: string }\n"]] },
  { name: "description edited", edits: [["The title as printed.", "The title, as printed on the cover."]] },
  { name: "input enum value added", edits: [["enum: [title, author, year]", "enum: [title, author, year, rating]"]] },
  { name: "optional input property added", edits: [["        author: { type: string }\n", "        author: { type: string }\n        genre: { type: string }\n"]] },
  { name: "output enum value added", edits: [["enum: [available, lent, archived]", "enum: [available, lent, archived, lost]"]] },
  { name: "optional output property became required", edits: [["required: [id, title, status]", "required: [id, title, status, subtitle]"]] },
  { name: "required input became optional", edits: [["required: [book_id]", "required: []"]] },
  // Breaking on the wire (input-property-removed), not in the SDK: the input type keeps an index signature.
  { name: "property removed from an open input", edits: [["        colour: { type: string }\n", ""]] },
  // No change on the wire (additionalProperties: true is JSON Schema's default); the generated type loses its index signature.
  { name: "additionalProperties: true dropped", edits: [["      additionalProperties: true\n", ""]] },
  { name: "input accepts more types", edits: [["        author: { type: string }\n", "        author: { type: [string, integer] }\n"]] },
  { name: "error code added", edits: [["  LOCATION_FULL:", "  SHELF_LOCKED: { class: conflict, action: stop_and_surface, http: 423 }\n  LOCATION_FULL:"]] },
];

function revise(edits: Case["edits"]): string {
  let text = BASE.replace("version: 1.0.0\nchangelog:", "version: 2.0.0\nchangelog:\n  - { version: 2.0.0, date: 2026-02-01 }");
  for (const [from, to] of edits) {
    const next = text.replace(from, to);
    expect(next, `edit ${String(from)} must apply`).not.toBe(text);
    text = next;
  }
  return text;
}

function parse(name: string, text: string): { model: ContractModel; source: ReturnType<typeof parseContractText>["source"] } {
  const r = parseContractText(`${name}.yaml`, text);
  expect(r.diagnostics.filter((d) => d.severity === "error"), name).toEqual([]);
  return { model: r.model!, source: r.source };
}

const ROOT = join(process.cwd(), "test-results", "sdk-source-compat");
const slug = (name: string) => name.replace(/[^a-z0-9]+/g, "-");

/** Writes a package's sdk/ (its runtime a link to the one shared copy) under ROOT/<dir>. */
async function writeSdk(dir: string, model: ContractModel, runtime: Map<string, string>): Promise<void> {
  const files = await emitPackage(model);
  for (const [path, content] of files) {
    if (!path.startsWith("sdk/")) continue;
    if (path.startsWith("sdk/runtime/")) {
      const known = runtime.get(path);
      if (known === undefined) runtime.set(path, content);
      else expect(content, `${path} is copied verbatim`).toBe(known);
      continue;
    }
    mkdirSync(dirname(join(ROOT, dir, path)), { recursive: true });
    writeFileSync(join(ROOT, dir, path), content);
  }
  symlinkSync(join(ROOT, "runtime"), join(ROOT, dir, "sdk", "runtime"), "dir");
}

interface Verdict {
  readonly name: string;
  /** tsc's errors on the consumer against the new SDK ("TS2339 at 12: …"). */
  readonly errors: readonly string[];
  /** The SDK source findings of the diff (rule: message). */
  readonly findings: readonly string[];
}

const verdicts = new Map<string, Verdict>();
let oldErrors: string[] = [];

beforeAll(async () => {
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(join(ROOT, "runtime"), { recursive: true });
  writeFileSync(join(ROOT, "package.json"), JSON.stringify({ type: "module", private: true }));
  const base = parse("base", BASE);
  const runtime = new Map<string, string>();
  await writeSdk("old", base.model, runtime);
  const findings = new Map<string, string[]>();
  for (const c of CASES) {
    const revision = parse(slug(c.name), revise(c.edits));
    await writeSdk(slug(c.name), revision.model, runtime);
    const report = runDiff({ model: base.model, source: base.source, label: "base.yaml" }, { model: revision.model, source: revision.source, label: "revision.yaml" });
    findings.set(c.name, allFindings(report.findings).filter((f) => f.category === "sdk").map((f) => `${f.rule}: ${f.message}`));
  }
  for (const [path, content] of runtime) {
    mkdirSync(dirname(join(ROOT, "runtime", path.slice("sdk/runtime/".length))), { recursive: true });
    writeFileSync(join(ROOT, "runtime", path.slice("sdk/runtime/".length)), content);
  }
  // One consumer per package, all in one program.
  const consumer = (dir: string) => {
    const file = join(ROOT, "consumers", `${dir}.ts`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, CONSUMER.replace('"SDK"', JSON.stringify(`../${dir}/sdk/index.js`)));
    return file;
  };
  const files = new Map([["old", consumer("old")], ...CASES.map((c) => [c.name, consumer(slug(c.name))] as const)]);
  const program = ts.createProgram([...files.values()], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    types: ["node"],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  });
  const errorsOf = (file: string) =>
    [...program.getSyntacticDiagnostics(program.getSourceFile(file)), ...program.getSemanticDiagnostics(program.getSourceFile(file))].map((d) => {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      return `TS${d.code} at ${line}: ${ts.flattenDiagnosticMessageText(d.messageText, " ").slice(0, 160)}`;
    });
  oldErrors = errorsOf(files.get("old")!);
  for (const c of CASES) verdicts.set(c.name, { name: c.name, errors: errorsOf(files.get(c.name)!), findings: findings.get(c.name)! });
  // What each case gave, for a reader of the run.
  const table = [...verdicts.values()].map((v) => [`## ${v.name}`, "", "tsc:", ...(v.errors.length ? v.errors : ["clean"]).map((e) => `- ${e}`), "", "diff:", ...(v.findings.length ? v.findings : ["no SDK finding"]).map((f) => `- ${f}`), ""].join("\n"));
  writeFileSync(join(ROOT, "verdicts.md"), `${table.join("\n")}\n`);
}, 120_000);

describe("SDK source compatibility: the diff reports an SDK finding exactly when old consumer code stops compiling", () => {
  it("the consumer compiles against the old SDK", () => {
    expect(oldErrors).toEqual([]);
  });

  it.each(CASES.map((c) => c.name))("%s", (name) => {
    const v = verdicts.get(name)!;
    const breaks = v.errors.length > 0;
    expect({ name, compiles: !breaks, sdkFindings: v.findings.length > 0 }, [`tsc: ${v.errors.join("\n     ") || "clean"}`, `diff: ${v.findings.join("\n      ") || "no SDK finding"}`].join("\n")).toEqual({ name, compiles: !breaks, sdkFindings: breaks });
  });

  it("is a consequence only of wire rules that are breaking (elsewhere the SDK finding stands on its own)", () => {
    const byId = new Map(RULES.map((r) => [r.id, r]));
    for (const rule of RULES.filter((r) => r.category === "sdk")) {
      expect(rule.severity, rule.id).toBe("warning");
      for (const source of rule.consequenceOf ?? []) expect(byId.get(source)?.severity, `${rule.id} follows from ${source}`).toBe("breaking");
    }
  });

  it("covers changes both ways", () => {
    const broken = [...verdicts.values()].filter((v) => v.errors.length > 0).length;
    expect(broken).toBeGreaterThanOrEqual(10);
    expect(verdicts.size - broken).toBeGreaterThanOrEqual(5);
  });
});
