/**
 * `$ref` inside `x-contract` is contract text: `#/types/<Name>` names a contract type and is never
 * followed (nor reported) by the OpenAPI side (files.ts, the bundler, the OpenAPI checks), in every
 * place x-contract is read, in the document, in a file it references and in an overlay; and
 * `#/components/schemas/<Name>`, what an OpenAPI author writes, is the type imported from that schema.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { openContract } from "../../src/import/open.js";
import { importOpenApi } from "../../src/import/openapi/index.js";

const ROOT = mkdtempSync(join(tmpdir(), "contractgen-x-contract-refs-"));
let n = 0;

/**
 * A document using `ref(name)` for every reference x-contract makes: an operation's output, a preview's
 * output, an error's details (on a response), a schema's x-contract, and a type the root x-contract adds.
 */
function document(ref: (name: string) => string): string {
  return `openapi: 3.1.0
info: { title: Notes, version: 1.0.0 }
servers: [{ url: https://api.notes.example }]
paths:
  /notes/{note_id}:
    get:
      operationId: get_note
      summary: Read a note.
      parameters:
        - { name: note_id, in: path, required: true, schema: { type: string } }
      responses:
        "200":
          description: The note.
          content:
            application/json:
              schema: { type: object }
        "404":
          description: No such note.
          x-contract:
            code: NOTE_MISSING
            details: { $ref: "${ref("Note")}" }
      x-contract:
        effects: { kind: read }
        output: { $ref: "${ref("GetNoteOutput")}" }
    delete:
      operationId: delete_note
      summary: Delete a note.
      parameters:
        - { name: note_id, in: path, required: true, schema: { type: string } }
        - { name: dry_run, in: query, schema: { type: boolean, default: true } }
        - { name: confirm_token, in: query, schema: { type: string } }
      responses:
        "200": { description: "Deleted, or what would be deleted." }
        "409":
          description: No valid confirm token.
          x-contract: { code: CONFIRMATION_REQUIRED }
      x-contract:
        effects: { kind: mutating, idempotent: natural, destructive: true }
        preview:
          dryRun: dry_run
          confirmToken: confirm_token
          ttl: 10m
          invalidTokenError: CONFIRMATION_REQUIRED
          output:
            type: object
            required: [note, confirm_token]
            properties:
              note: { $ref: "${ref("Note")}" }
              confirm_token: { type: string }
components:
  schemas:
    Note:
      type: object
      required: [id]
      properties:
        id: { type: string }
        replies:
          type: array
          x-contract: { items: { $ref: "${ref("Note")}" } }
    GetNoteOutput:
      description: Named like get_note's output type, so the import renames it.
      type: object
      properties: { note: { $ref: "#/components/schemas/Note" } }
x-contract:
  types:
    NoteList: { type: array, items: { $ref: "${ref("Note")}" } }
`;
}

function write(text: string, name = `doc${n++}.yaml`, dir = ROOT): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** validate's view: every diagnostic, with the OpenAPI checks on. */
async function validate(file: string, overlays: string[] = []) {
  const r = await openContract(file, { lint: true, strict: true, overlays });
  return { ...r, shown: r.diagnostics.map((d) => `${d.severity} ${d.code} ${d.location.pointer} ${d.message}`) };
}

/** The contract import-openapi writes. */
async function imported(file: string, overlays: string[] = []) {
  const r = await importOpenApi(file, { date: "2026-01-15", overlays });
  expect(r.problems.filter((p) => p.severity === "error")).toEqual([]);
  return { contract: parse(r.yaml!) as Record<string, any>, report: r.report! };
}

/** The type GetNoteOutput became (renamed: get_note's output type takes the name). */
function renamedOutput(report: { items: ReadonlyArray<{ kind: string; message: string }> }): string {
  const item = report.items.find((i) => i.kind === "type-renamed" && i.message.startsWith('Schema "GetNoteOutput"'));
  const m = /is type (\w+)\.$/.exec(item?.message ?? "");
  expect(m, "the report names the renamed type").not.toBeNull();
  return m![1]!;
}

describe("$ref inside x-contract: #/types/<Name>", () => {
  it("is not followed or reported by the OpenAPI side, in any place x-contract is read", async () => {
    // The rename is known only from the import; GetNoteOutput2 is what it picks (checked below).
    const file = write(document((name) => `#/types/${name === "GetNoteOutput" ? "GetNoteOutput2" : name}`));
    const r = await validate(file);
    expect(r.shown.filter((s) => /openapi-|ref-|Can't resolve/.test(s))).toEqual([]);
    expect(r.model, r.shown.join("\n")).toBeDefined();
    // generate, diff, budget and test read it without the OpenAPI checks (and without the bundler): nothing either.
    const quiet = await openContract(file);
    expect(quiet.diagnostics.filter((d) => /^openapi-|^ref-/.test(d.code)).map((d) => d.message)).toEqual([]);
    const { contract, report } = await imported(file);
    expect(renamedOutput(report)).toBe("GetNoteOutput2");
    expect(contract.operations.get_note.output.$ref).toBe("#/types/GetNoteOutput2");
    expect(contract.errors.NOTE_MISSING.details).toEqual({ $ref: "#/types/Note" });
    expect(contract.operations.delete_note.preview.output.properties.note).toEqual({ $ref: "#/types/Note" });
    expect(contract.types.Note.properties.replies.items).toEqual({ $ref: "#/types/Note" });
    expect(contract.types.NoteList.items).toEqual({ $ref: "#/types/Note" });
    // No review item speaks of them either (openapi-problem would carry the OpenAPI checks' warnings).
    expect(report.items.filter((i) => i.kind === "openapi-problem")).toEqual([]);
  });

  it("is never reported when an overlay writes it (the document is bundled then), nor in a file the document references", async () => {
    const dir = mkdtempSync(join(ROOT, "split-"));
    mkdirSync(join(dir, "paths"));
    // The path item lives in a file of its own, with its x-contract.
    write(
      `get:
  operationId: list_notes
  summary: List every note.
  responses:
    "200":
      description: The notes.
      content:
        application/json:
          schema: { type: array, items: { $ref: "../openapi.yaml#/components/schemas/Note" } }
  x-contract:
    effects: { kind: read }
    output: { type: array, items: { $ref: "#/types/Note" } }
`,
      "notes.yaml",
      join(dir, "paths"),
    );
    const file = write(
      `openapi: 3.1.0
info: { title: Notes, version: 1.0.0 }
servers: [{ url: https://api.notes.example }]
paths:
  /notes:
    $ref: "./paths/notes.yaml"
components:
  schemas:
    Note: { type: object, required: [id], properties: { id: { type: string } } }
`,
      "openapi.yaml",
      dir,
    );
    const overlay = write(
      `overlay: 1.0.0
info: { title: Behaviour, version: 1.0.0 }
actions:
  - target: $
    update:
      x-contract:
        types:
          Page: { type: object, properties: { notes: { $ref: "#/types/Note" } } }
`,
      "behaviour.overlay.yaml",
      dir,
    );
    for (const overlays of [[], [overlay]]) {
      const r = await validate(file, overlays);
      expect(r.shown.filter((s) => /openapi-|ref-|Can't resolve/.test(s))).toEqual([]);
      expect(r.model, r.shown.join("\n")).toBeDefined();
    }
    const { contract } = await imported(file, [overlay]);
    expect(contract.operations.list_notes.output.items).toEqual({ $ref: "#/types/Note" });
    expect(contract.types.Page.properties.notes).toEqual({ $ref: "#/types/Note" });
  });

  it("leaves a $ref elsewhere in the document an OpenAPI reference (one that names nothing is still refused)", async () => {
    const file = write(document((name) => `#/types/${name === "GetNoteOutput" ? "GetNoteOutput2" : name}`).replace('properties: { note: { $ref: "#/components/schemas/Note" } }', 'properties: { note: { $ref: "#/components/schemas/Missing" } }'));
    const r = await validate(file);
    expect(r.model).toBeUndefined();
    expect(r.shown).toContain('error openapi-ref-unresolved /components/schemas/GetNoteOutput/properties/note/$ref $ref "#/components/schemas/Missing" names nothing.');
  });

  it("keeps a schema property named x-contract an OpenAPI schema (its $ref is followed)", async () => {
    const file = write(`openapi: 3.1.0
info: { title: Notes, version: 1.0.0 }
servers: [{ url: https://api.notes.example }]
paths:
  /notes:
    get:
      operationId: list_notes
      summary: List every note.
      responses:
        "200":
          description: The notes.
          content:
            application/json:
              schema:
                type: object
                properties:
                  x-contract: { $ref: "#/components/schemas/Missing" }
`);
    const r = await validate(file);
    expect(r.shown).toContain('error openapi-ref-unresolved /paths/~1notes/get/responses/200/content/application~1json/schema/properties/x-contract/$ref $ref "#/components/schemas/Missing" names nothing.');
  });
});

describe("$ref inside x-contract: #/components/schemas/<Name>", () => {
  it("is the type imported from that component schema, in every place, renamed types included", async () => {
    const file = write(document((name) => `#/components/schemas/${name}`));
    const r = await validate(file);
    expect(r.shown.filter((s) => /openapi-|ref-|components/.test(s))).toEqual([]);
    expect(r.model, r.shown.join("\n")).toBeDefined();
    const { contract, report } = await imported(file);
    const output = renamedOutput(report);
    expect(contract.operations.get_note.output.$ref).toBe(`#/types/${output}`);
    expect(contract.errors.NOTE_MISSING.details).toEqual({ $ref: "#/types/Note" });
    expect(contract.operations.delete_note.preview.output.properties.note).toEqual({ $ref: "#/types/Note" });
    expect(contract.types.Note.properties.replies.items).toEqual({ $ref: "#/types/Note" });
    expect(contract.types.NoteList.items).toEqual({ $ref: "#/types/Note" });
  });

  it("keeps the type with --tag when only x-contract reaches it", async () => {
    const file = write(document((name) => `#/components/schemas/${name}`).replace("      operationId: get_note\n", "      operationId: get_note\n      tags: [notes]\n"));
    const r = await importOpenApi(file, { date: "2026-01-15", tags: ["notes"] });
    expect(r.problems.filter((p) => p.severity === "error")).toEqual([]);
    const contract = parse(r.yaml!) as Record<string, any>;
    expect(Object.keys(contract.operations)).toEqual(["get_note"]);
    const output = renamedOutput(r.report!);
    expect(contract.operations.get_note.output.$ref).toBe(`#/types/${output}`);
    // The output type is reached only through x-contract, yet kept (with Note, which it uses).
    expect(Object.keys(contract.types).sort()).toEqual([output, "Note", "NoteList"].sort());
  });

  it("naming a schema the document does not declare is an error that names the contract and both right forms", async () => {
    const file = write(document((name) => (name === "GetNoteOutput" ? "#/components/schemas/Nope" : `#/types/${name}`)));
    const r = await validate(file);
    expect(r.model).toBeUndefined();
    const found = r.diagnostics.filter((d) => d.code === "ref-unresolved");
    expect(found.map((d) => [d.location.pointer, d.message])).toEqual([
      [
        "/paths/~1notes~1{note_id}/get/x-contract/output/$ref",
        '$ref "#/components/schemas/Nope" does not resolve: a contract has no "components" and names a shared schema "#/types/<Name>" (in an OpenAPI document\'s x-contract, "#/components/schemas/<Name>" names the type imported from a schema the document declares; there is none at /components/schemas/Nope).',
      ],
    ]);
    expect(found[0]!.hint).toContain("'#/types/Name'");
    expect(found[0]!.location.line).toBe(24);
  });
});
