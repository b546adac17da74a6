/**
 * Every command takes an OpenAPI document where it takes a contract: imported in memory, with its
 * overlays, and every diagnostic and finding located in the document (or the overlay) itself.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliIn, PETS_DOCUMENT_START } from "./support/openapi-pets.js";

const dir = mkdtempSync(join(tmpdir(), "contractgen-openapi-input-"));

const run = cliIn(dir);

const PETS = `${PETS_DOCUMENT_START}components:
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: { type: string, minLength: 1 }
        tag: { type: string }
`;

/** 1-based line of the first line of `text` that contains `needle`. */
function lineOf(text: string, needle: string): number {
  const i = text.split("\n").findIndex((l) => l.includes(needle));
  expect(i, needle).toBeGreaterThanOrEqual(0);
  return i + 1;
}

writeFileSync(join(dir, "pets.yaml"), PETS);

describe("OpenAPI documents wherever a contract is read", () => {
  it("validate imports in memory and locates what it reports in the document", () => {
    const r = run("validate", "pets.yaml");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("pets.yaml: valid (pet-store 1.0.0, 2 operations, imported from OpenAPI");
    // Inferred effects are reported at the operation in the document, never in a generated contract.
    expect(r.stderr).toContain(`pets.yaml:${lineOf(PETS, "operationId: listPets")}:7: warning [effects-inferred]`);
    expect(r.stderr).toContain("at /paths/~1pets/get\n");
    expect(r.stderr).not.toMatch(/\/operations\//);
  });

  it("diff of two documents: findings point into each document; the same document as an imported contract is no change", () => {
    writeFileSync(join(dir, "pets2.yaml"), PETS.replace("maximum: 100", "maximum: 50"));
    const r = run("diff", "pets.yaml", "pets2.yaml");
    expect(r.code).toBe(1);
    const line = lineOf(PETS, "maximum: 100");
    expect(r.stdout).toContain("[input-maximum-lowered]");
    expect(r.stdout).toMatch(new RegExp(`was pets\\.yaml:${line}:\\d+, now pets2\\.yaml:${line}:\\d+`));
    // Mixed sides: the contract import-openapi writes and the document it came from hold one model.
    expect(run("import-openapi", "pets.yaml", "-o", "pets.contract.yaml").code).toBe(0);
    const mixed = run("diff", "pets.contract.yaml", "pets.yaml");
    expect(mixed.stdout).toContain("No changes found.");
    expect(mixed.code).toBe(0);
  });

  it("diff with git refs reads the document at a revision", () => {
    const repo = mkdtempSync(join(tmpdir(), "contractgen-openapi-git-"));
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd: repo, stdio: "pipe" });
    git("init", "-q");
    writeFileSync(join(repo, "api.yaml"), PETS);
    git("add", "api.yaml");
    git("commit", "-qm", "v1");
    writeFileSync(join(repo, "api.yaml"), PETS.replace("minLength: 1", "minLength: 3"));
    const r = cliIn(repo)("diff", "HEAD:api.yaml", "api.yaml", "--format", "json");
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { findings: Array<{ rule: string; new: { file: string; line: number } | null }> };
    const raised = report.findings.find((f) => f.rule === "input-min-length-raised");
    expect(raised?.new?.file).toBe("api.yaml");
  });

  it("generate from the document writes what generate from its imported contract writes", () => {
    expect(run("import-openapi", "pets.yaml", "-o", "same.contract.yaml").code).toBe(0);
    expect(run("generate", "same.contract.yaml", "-o", "from-contract").code).toBe(0);
    const r = run("generate", "pets.yaml", "-o", "from-openapi");
    expect(r.code).toBe(0);
    const files = (root: string) => readdirSync(join(dir, root), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(join(dir, root).length)).sort();
    expect(files("from-openapi")).toEqual(files("from-contract"));
    for (const f of files("from-openapi")) expect(readFileSync(join(dir, "from-openapi", f), "utf8"), f).toBe(readFileSync(join(dir, "from-contract", f), "utf8"));
    // Deterministic: the same document gives the same package.
    expect(run("generate", "pets.yaml", "-o", "from-openapi", "--check").code).toBe(0);
  });

  it("budget measures the catalogue of a document", () => {
    const r = run("budget", "pets.yaml", "--format", "json");
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { tools: unknown[] }).tools).toHaveLength(2);
  });
});

describe("overlays on every command", () => {
  const overlay = `overlay: 1.1.0
info: { title: Pet behaviour, version: 1.0.0 }
actions:
  - target: $.paths['/pets'].post
    update:
      summary: Create one pet
      description: 123
  - target: $.paths['/nothing'].get
    update: { summary: never }
`;
  writeFileSync(join(dir, "pets.overlay.yaml"), overlay);

  it("applies the overlay before the import and locates what it wrote in the overlay", () => {
    const r = run("validate", "pets.yaml", "--overlay", "pets.overlay.yaml");
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`pets.overlay.yaml:${lineOf(overlay, "target: $.paths['/nothing']")}:13: warning [overlay-target-unmatched]`);
    // The OpenAPI schema's complaint about what the overlay wrote is shown in the overlay.
    expect(r.stderr).toContain(`pets.overlay.yaml:${lineOf(overlay, "description: 123")}:20: warning [openapi-invalid]`);
    const strict = run("validate", "pets.yaml", "--overlay", "pets.overlay.yaml", "--strict");
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("error [overlay-target-unmatched]");
  });

  it("generate, diff and budget take --overlay; a contract with --overlay is refused", () => {
    const gen = run("generate", "pets.yaml", "--overlay", "pets.overlay.yaml", "-o", "with-overlay");
    expect(gen.code).toBe(0);
    expect(readFileSync(join(dir, "with-overlay", "sdk", "client.ts"), "utf8")).toContain("Create one pet");
    const d = run("diff", "pets.yaml", "pets.yaml", "--overlay", "pets.overlay.yaml", "--format", "json");
    expect(d.code).toBe(0);
    expect(run("budget", "pets.yaml", "--overlay", "pets.overlay.yaml").code).toBe(0);
    const refused = run("validate", "pets.contract.yaml", "--overlay", "pets.overlay.yaml");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("error [overlay-needs-openapi]");
  });
});
