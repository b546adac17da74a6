/**
 * Every generated Agent Skill passes `skills-ref validate` (npm skills-ref, the format's checker: name
 * rules and folder match, description and compatibility lengths, the allowed front matter keys): the
 * skills checked in under generated-examples/ and the hostile contract's, generated into a temp dir.
 * skills-ref comes from the on-demand corpus set bench/corpora/skills-ref (scripts/corpora.mjs).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { corpusPackage } from "../../scripts/corpora.mjs";
import { parseContract } from "../../src/contract/parse.js";
import { emitSkill } from "../../src/emit/skill/skill.js";

const CLI = join(corpusPackage("skills-ref", "skills-ref") as string, "dist", "cli.js");
const EXAMPLES = "generated-examples";

function validate(skillDir: string) {
  const r = spawnSync(process.execPath, [CLI, "validate", skillDir], { encoding: "utf8" });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** The packages checked in under generated-examples/ (a folder with a package.json). */
function examplePackages(): string[] {
  return readdirSync(EXAMPLES)
    .map((name) => join(EXAMPLES, name))
    .filter((dir) => statSync(dir).isDirectory() && existsSync(join(dir, "package.json")));
}

/** The skill folders of one package: skill/<name>/ holding a SKILL.md. */
function skillDirs(pkg: string): string[] {
  const root = join(pkg, "skill");
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .map((name) => join(root, name))
    .filter((dir) => existsSync(join(dir, "SKILL.md")));
}

describe("skills-ref validate", () => {
  it("accepts every generated example's skill, and every example has one", () => {
    const packages = examplePackages();
    expect(packages.length).toBeGreaterThan(0);
    const withoutSkill = packages.filter((pkg) => skillDirs(pkg).length !== 1);
    expect(withoutSkill, "packages without exactly one skill/<name>/SKILL.md").toEqual([]);
    const dirs = packages.flatMap(skillDirs);
    expect(dirs.length).toBe(packages.length);
    for (const dir of dirs) {
      const r = validate(dir);
      expect({ dir, ...r }).toEqual({ dir, code: 0, out: `Valid skill: ${dir}\n` });
    }
  });

  it("accepts the hostile contract's skill, generated into a temp dir", async () => {
    const parsed = await parseContract("test/fixtures/valid/hostile.yaml");
    expect(parsed.model).toBeDefined();
    const out = mkdtempSync(join(tmpdir(), "contractgen-skill-validate-"));
    const files = emitSkill(parsed.model!);
    for (const [path, text] of files) {
      mkdirSync(dirname(join(out, path)), { recursive: true });
      writeFileSync(join(out, path), text);
    }
    const dirs = skillDirs(out);
    expect(dirs).toHaveLength(1);
    const r = validate(dirs[0]!);
    expect(r).toEqual({ code: 0, out: `Valid skill: ${dirs[0]}\n` });
  });

  it("refuses a broken skill (the checker is not a no-op): a name that is not its folder's, an unknown key", () => {
    const out = mkdtempSync(join(tmpdir(), "contractgen-skill-broken-"));
    const dir = join(out, "billing");
    mkdirSync(dir);
    writeFileSync(join(dir, "SKILL.md"), "---\nname: Billing_CLI\ndescription: Bills.\nauthor: someone\n---\n\nBody.\n");
    const r = validate(dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain("Directory name 'billing' must match skill name 'Billing_CLI'");
    expect(r.out).toContain("Unexpected fields in frontmatter: author.");
  });
});
