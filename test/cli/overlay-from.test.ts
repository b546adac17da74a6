/**
 * `contractgen overlay-from`: a contract imported from OpenAPI and edited by hand becomes an overlay
 * on the document, so the document stays the source and the edits are kept.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliIn, PETS_DOCUMENT_START } from "./support/openapi-pets.js";
import { parse, parseDocument, type YAMLSeq } from "yaml";
import { mergePatchDiff, normalizedPath } from "../../src/import/openapi/fork.js";

const dir = mkdtempSync(join(tmpdir(), "contractgen-overlay-from-"));

const run = cliIn(dir);

const PETS = `${PETS_DOCUMENT_START}  /pets/{petId}:
    parameters:
      - name: petId
        in: path
        required: true
        schema: { type: string }
    get:
      operationId: getPet
      summary: Get a pet
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Pet" }
        "404":
          description: not found
    delete:
      operationId: deletePet
      summary: Delete a pet
      x-contract:
        description: Deletes the pet.
      responses:
        "204":
          description: deleted
        "404":
          description: not found
components:
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: { type: string, minLength: 1 }
        weight: { type: number }
`;

/** The edits a team makes to an imported contract. */
function edit(text: string): string {
  const doc = parseDocument(text);
  doc.set("version", "1.1.0");
  (doc.get("changelog") as YAMLSeq).items.unshift(doc.createNode({ version: "1.1.0", date: "2024-05-01", summary: "Preview and precondition on delete." }));
  doc.setIn(["errors", "CONFIRMATION_REQUIRED"], doc.createNode({ class: "conflict", action: "reread_and_replan", http: 428, description: "Preview first, then confirm with the token." }));
  doc.setIn(["operations", "delete_pet", "summary"], "Delete a pet for good");
  doc.setIn(["operations", "delete_pet", "effects"], doc.createNode({ kind: "mutating", idempotent: "natural", destructive: true }));
  doc.setIn(["operations", "delete_pet", "input", "properties", "dry_run"], doc.createNode({ type: "boolean", default: true }));
  doc.setIn(["operations", "delete_pet", "input", "properties", "confirm_token"], doc.createNode({ type: "string" }));
  doc.setIn(["operations", "delete_pet", "input", "properties", "expected_name"], doc.createNode({ type: "string" }));
  doc.setIn(["operations", "delete_pet", "preview"], doc.createNode({ dryRun: "dry_run", default: true, confirmToken: "confirm_token", ttl: "10m", invalidTokenError: "CONFIRMATION_REQUIRED" }));
  doc.setIn(["operations", "delete_pet", "target"], doc.createNode({ readWith: "get_pet" }));
  doc.setIn(["operations", "delete_pet", "preconditions"], doc.createNode([{ kind: "value", field: "expected_name", compares: "name", error: "CONFLICT" }]));
  doc.setIn(["operations", "delete_pet", "errors"], doc.createNode(["NOT_FOUND", "CONFLICT", "CONFIRMATION_REQUIRED"]));
  doc.setIn(["operations", "list_pets", "input", "properties", "limit", "x-unit"], "pets");
  doc.deleteIn(["operations", "create_pet"]);
  return doc.toString();
}

writeFileSync(join(dir, "pets.yaml"), PETS);

describe("overlay-from: an edited contract kept as an overlay", () => {
  it("writes an overlay with which the document imports to the edited contract", () => {
    expect(run("import-openapi", "pets.yaml", "-o", "pets.contract.yaml").code).toBe(0);
    writeFileSync(join(dir, "pets.contract.yaml"), edit(readFileSync(join(dir, "pets.contract.yaml"), "utf8")));
    // The edited contract is refused by a re-import, which points to overlay-from.
    const again = run("import-openapi", "pets.yaml", "-o", "pets.contract.yaml");
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("contractgen overlay-from pets.contract.yaml --openapi pets.yaml -o");

    const r = run("overlay-from", "pets.contract.yaml", "--openapi", "pets.yaml", "-o", "pets.overlay.yaml");
    expect(r.stderr).not.toContain("warning");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("pets.overlay.yaml: written: 2 operations patched, 0 added, 1 removed, root keys changed: version, changelog, errors; 0 warnings.");
    const text = readFileSync(join(dir, "pets.overlay.yaml"), "utf8");
    expect(text).toMatch(/^# Written by contractgen overlay-from /);
    const overlay = parse(text) as { overlay: string; actions: Array<{ target: string; update: Record<string, Record<string, unknown>> }> };
    expect(overlay.overlay).toBe("1.0.0");
    expect(overlay.actions.map((a) => a.target)).toEqual(["$['paths']['/pets']['get']", "$['paths']['/pets/{petId}']['delete']", "$"]);
    // The delete's own x-contract (its description) stays; the patch adds to it.
    const del = overlay.actions[1]!.update["x-contract"]!;
    expect(del.description).toBeUndefined();
    expect(del.effects).toEqual({ inferred: null });
    expect((overlay.actions[2]!.update["x-contract"]!.operations as Record<string, unknown>).create_pet).toBeNull();

    const diff = run("diff", "pets.contract.yaml", "pets.yaml", "--overlay", "pets.overlay.yaml");
    expect(diff.stdout).toContain("No changes found.");
    expect(diff.code).toBe(0);
    const valid = run("validate", "pets.yaml", "--overlay", "pets.overlay.yaml");
    expect(valid.stdout).toContain("pets.yaml: valid (pet-store 1.1.0, 3 operations");
    expect(valid.code).toBe(0);
  });

  it("the overlay still applies when the document changes: the new parameter appears, every edit is kept", () => {
    writeFileSync(join(dir, "pets-v2.yaml"), PETS.replace("      parameters:\n        - name: limit", "      parameters:\n        - name: species\n          in: query\n          schema: { type: string }\n        - name: limit"));
    const diff = run("diff", "pets.contract.yaml", "pets-v2.yaml", "--overlay", "pets.overlay.yaml", "--format", "json");
    const report = JSON.parse(diff.stdout) as { findings: Array<{ rule: string; operation?: string; message: string }> };
    // The only change: the new optional input of list_pets (and so the version should be bumped).
    expect(report.findings.map((f) => f.rule).sort()).toEqual(["input-optional-property-added", "version-not-increased"]);
    expect(report.findings.find((f) => f.rule === "input-optional-property-added")!.message).toContain('"species" was added to "list_pets"');
    // Rewriting the overlay from the edited contract against the new document keeps the edits and drops the parameter (the contract does not have it).
    const r = run("overlay-from", "pets.contract.yaml", "--openapi", "pets-v2.yaml", "-o", "pets-v2.overlay.yaml");
    expect(r.code).toBe(0);
    expect(run("diff", "pets.contract.yaml", "pets-v2.yaml", "--overlay", "pets-v2.overlay.yaml").stdout).toContain("No changes found.");
  });

  it("an unedited import has nothing to keep", () => {
    expect(run("import-openapi", "pets.yaml", "-o", "plain.contract.yaml").code).toBe(0);
    const r = run("overlay-from", "plain.contract.yaml", "--openapi", "pets.yaml", "-o", "plain.overlay.yaml");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("nothing to keep");
    expect(existsSync(join(dir, "plain.overlay.yaml"))).toBe(false);
  });

  it("replaces only an overlay it wrote and nobody edited since", () => {
    writeFileSync(join(dir, "mine.yaml"), "overlay: 1.0.0\n");
    const r = run("overlay-from", "pets.contract.yaml", "--openapi", "pets.yaml", "-o", "mine.yaml");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("only replaces an overlay overlay-from wrote");
    expect(readFileSync(join(dir, "mine.yaml"), "utf8")).toBe("overlay: 1.0.0\n");
    // Its own output is replaced (unchanged here); after a hand edit it is not, unless --force.
    expect(run("overlay-from", "pets.contract.yaml", "--openapi", "pets.yaml", "-o", "pets.overlay.yaml").code).toBe(0);
    writeFileSync(join(dir, "pets.overlay.yaml"), `${readFileSync(join(dir, "pets.overlay.yaml"), "utf8")}# note\n`);
    expect(run("overlay-from", "pets.contract.yaml", "--openapi", "pets.yaml", "-o", "pets.overlay.yaml").code).toBe(2);
    expect(run("overlay-from", "pets.contract.yaml", "--openapi", "pets.yaml", "-o", "pets.overlay.yaml", "--force").code).toBe(0);
    expect(readFileSync(join(dir, "pets.overlay.yaml"), "utf8")).not.toContain("# note");
  });

  it("a path with quotes and a backslash is targeted by an escaped normalized path that round-trips", () => {
    writeFileSync(
      join(dir, "odd.yaml"),
      `openapi: 3.1.0
info: { title: Odd, version: 1.0.0 }
servers: [{ url: https://odd.example.com }]
paths:
  "/it's/\\"odd\\"\\\\path":
    get:
      operationId: getOdd
      summary: odd
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: string } } } }
`,
    );
    expect(run("import-openapi", "odd.yaml", "-o", "odd.contract.yaml").code).toBe(0);
    writeFileSync(join(dir, "odd.contract.yaml"), readFileSync(join(dir, "odd.contract.yaml"), "utf8").replace("summary: odd", "summary: very odd"));
    const r = run("overlay-from", "odd.contract.yaml", "--openapi", "odd.yaml", "-o", "odd.overlay.yaml");
    expect(r.code).toBe(0);
    const overlay = parse(readFileSync(join(dir, "odd.overlay.yaml"), "utf8")) as { actions: Array<{ target: string }> };
    expect(overlay.actions[0]!.target).toBe(`$['paths']['/it\\'s/"odd"\\\\path']['get']`);
    expect(run("diff", "odd.contract.yaml", "odd.yaml", "--overlay", "odd.overlay.yaml").stdout).toContain("No changes found.");
  });

  it("an edit a merge patch cannot express fails the round trip: exit 1, the difference named, nothing written", () => {
    expect(run("import-openapi", "pets.yaml", "-o", "null.contract.yaml").code).toBe(0);
    const text = readFileSync(join(dir, "null.contract.yaml"), "utf8").replace("    summary: Get a pet\n", "    summary: Get a pet\n    description: null\n");
    writeFileSync(join(dir, "null.contract.yaml"), text);
    const r = run("overlay-from", "null.contract.yaml", "--openapi", "pets.yaml", "-o", "null.overlay.yaml");
    expect(r.stderr).toContain("/operations/get_pet/description is null");
    expect(r.stderr).toContain("differs at /operations/get_pet/description; nothing was written");
    expect(r.code).toBe(1);
    expect(existsSync(join(dir, "null.overlay.yaml"))).toBe(false);
  });

  it("edited effects that keep inferred: true keep it (the import drops it when x-contract touches effects)", () => {
    expect(run("import-openapi", "pets.yaml", "-o", "inferred.contract.yaml").code).toBe(0);
    const text = readFileSync(join(dir, "inferred.contract.yaml"), "utf8").replace("idempotent: none\n      destructive: false", "idempotent: none\n      destructive: true");
    writeFileSync(join(dir, "inferred.contract.yaml"), text);
    expect(run("overlay-from", "inferred.contract.yaml", "--openapi", "pets.yaml", "-o", "inferred.overlay.yaml").code).toBe(0);
    const overlay = parse(readFileSync(join(dir, "inferred.overlay.yaml"), "utf8")) as { actions: Array<{ update: Record<string, unknown> }> };
    expect(overlay.actions[0]!.update["x-contract"]).toEqual({ effects: { destructive: true, inferred: true } });
  });

  it("with --overlay, the new overlay applies after the existing ones", () => {
    writeFileSync(join(dir, "first.overlay.yaml"), `overlay: 1.0.0
info: { title: first, version: 1.0.0 }
actions:
  - target: $.paths['/pets'].get
    update: { x-contract: { summary: Pets, listed } }
`);
    const r = run("overlay-from", "pets.contract.yaml", "--openapi", "pets.yaml", "--overlay", "first.overlay.yaml", "-o", "second.overlay.yaml");
    expect(r.code).toBe(0);
    expect(run("diff", "pets.contract.yaml", "pets.yaml", "--overlay", "first.overlay.yaml", "--overlay", "second.overlay.yaml").stdout).toContain("No changes found.");
  });
});

describe("mergePatchDiff and normalizedPath", () => {
  it("computes the merge patch from one value to another", () => {
    const warnings: string[] = [];
    expect(mergePatchDiff({ a: 1, b: { c: 2, d: 3 }, e: [1], f: "x" }, { a: 1, b: { c: 2, g: 4 }, e: [1, 2], h: null }, warnings)).toEqual({ b: { d: null, g: 4 }, e: [1, 2], f: null });
    expect(warnings).toEqual(["/h"]);
    expect(mergePatchDiff({ a: { b: 1 } }, { a: { b: 1 } })).toBeUndefined();
  });

  it("escapes member names as RFC 9535 normalized paths", () => {
    expect(normalizedPath("/paths/~1a'b\\c/get")).toBe("$['paths']['/a\\'b\\\\c']['get']");
    expect(normalizedPath("/x/a\nb")).toBe("$['x']['a\\nb']");
  });
});
