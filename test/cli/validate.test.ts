/** `contractgen validate` run as users run it: the built bin in a child process. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const BIN = join(process.cwd(), "bin/contractgen.js");
function contractgen(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const dir = mkdtempSync(join(tmpdir(), "contractgen-cli-"));

describe("contractgen validate", () => {
  it("exits 0 for the bundled examples", () => {
    const r = contractgen("validate", "specs/billing.v1.yaml", "specs/billing.v2.yaml", "specs/incidents.yaml", "specs/releases.yaml");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("specs/billing.v2.yaml: valid (billing 2.0.0, 6 operations)");
    expect(r.stderr).toContain("4 files checked: 0 errors, 0 warnings.");
  });

  it("exits 1 and shows file:line:col, the source line, a caret, the pointer and a hint", () => {
    const path = join(dir, "bad.yaml");
    writeFileSync(path, "contract: billing\nversion: 2.0\n");
    const r = contractgen("validate", path);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${path}:2:10: error [contract-invalid-type] /version must be a string, not 2.`);
    expect(r.stderr).toContain("  2 | version: 2.0\n    |          ^^^");
    expect(r.stderr).toContain("hint: Quote the value");
    expect(r.stdout).toBe(`${path}: invalid\n`);
  });

  it("prints a JSON report with --format json", () => {
    const path = join(dir, "bad2.yaml");
    writeFileSync(path, "contract: billing\nversoin: 1.0.0\n");
    const r = contractgen("validate", "--format", "json", path, "specs/releases.yaml");
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { valid: boolean; files: Array<{ file: string; valid: boolean; diagnostics: Array<Record<string, unknown>> }> };
    expect(report.valid).toBe(false);
    expect(report.files.map((f) => f.valid)).toEqual([false, true]);
    expect(report.files[0]!.diagnostics).toContainEqual(
      expect.objectContaining({ code: "contract-unknown-field", severity: "error", line: 2, col: 1, pointer: "/versoin", message: expect.stringContaining('did you mean "version"') }),
    );
  });

  it("exits 2 on usage errors", () => {
    expect(contractgen("validate").code).toBe(2);
    expect(contractgen("validate", "--format", "xml", "specs/billing.v2.yaml").code).toBe(2);
    expect(contractgen("no-such-command").code).toBe(2);
  });

  it("never prints a stack trace, whatever the input", () => {
    const inputs: Array<[string, string | Buffer]> = [
      ["binary.yaml", Buffer.from([0, 1, 2, 3, 255])],
      ["list.yaml", "- 1\n- 2\n"],
      ["broken.yaml", "contract: [\n"],
      ["tabs.yaml", "contract: x\n\tversion: 1\n"],
      ["hostile.yaml", "contract: x\noperations:\n  \"*/ ${process.exit()} `\": { summary: \"\\u0000\" }\n"],
    ];
    for (const [name, content] of inputs) {
      const path = join(dir, name);
      writeFileSync(path, content);
      const r = contractgen("validate", path);
      expect(r.code, name).toBe(1);
      expect(r.stderr, name).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
      expect(r.stderr, name).not.toContain("internal error");
    }
    const missing = contractgen("validate", join(dir, "absent.yaml"), dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("[file-not-found]");
    expect(missing.stderr).toContain("[file-is-directory]");
  });
});
