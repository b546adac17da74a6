/**
 * `contractgen budget` reports the Agent Skill's three costs beside the MCP catalogue — the listing
 * (front matter name + description), the body (SKILL.md without front matter), each reference — in
 * o200k_base, and `budget.skill` caps them the way `budget.catalogTokens` caps the catalogue.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { countTokens } from "../../src/budget/catalog.js";
import { parseContract } from "../../src/contract/parse.js";
import { emitSkill } from "../../src/emit/skill/skill.js";

const BIN = resolve("bin/contractgen.js");
const dir = mkdtempSync(join(tmpdir(), "contractgen-budget-skill-"));
const run = (cmd: string, ...args: string[]) => spawnSync(process.execPath, [BIN, cmd, ...args], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });

/** The skill's files for a contract, read independently of src/budget/skill.ts. */
async function skillFiles(spec: string) {
  const parsed = await parseContract(spec);
  const files = emitSkill(parsed.model!);
  const [mainPath, main] = [...files].find(([p]) => p.endsWith("/SKILL.md"))!;
  const m = /^---\n([\s\S]*?\n)---\n+([\s\S]*)$/.exec(main)!;
  const front = parse(m[1]!) as { name: string; description: string };
  const root = mainPath.slice(0, -"SKILL.md".length);
  const refs = [...files].filter(([p]) => p !== mainPath).map(([p, text]) => ({ path: p.slice(root.length), tokens: countTokens(text) }));
  return { front, body: m[2]!, refs, root };
}

describe("contractgen budget: the Agent Skill", () => {
  it("JSON: the listing, body and each reference in o200k_base, beside the catalogue", async () => {
    const r = run("budget", "specs/billing.v2.yaml", "--format", "json");
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    const expected = await skillFiles("specs/billing.v2.yaml");
    expect(report.total).toBeGreaterThan(0);
    expect(report.skill.name).toBe("billing");
    expect(`skill/${report.skill.name}/`).toBe(expected.root);
    expect(report.skill.listing.tokens).toBe(countTokens(`name: ${expected.front.name}\ndescription: ${expected.front.description}`));
    expect(report.skill.body.tokens).toBe(countTokens(expected.body));
    expect(report.skill.references.map((x: { path: string; tokens: number }) => ({ path: x.path, tokens: x.tokens }))).toEqual(expected.refs);
    expect(expected.refs.length).toBeGreaterThan(0);
    for (const part of [report.skill.listing, report.skill.body, ...report.skill.references]) expect(part.cl100k_base).toBeGreaterThan(0);
    expect(report.skill.budget).toEqual({ listingTokens: null, bodyTokens: null, referenceTokens: null });
    expect(report.skill.over).toEqual([]);
    expect(report.withinBudget).toBe(true);
    // The issue's targets for a generated skill.
    expect(report.skill.listing.tokens).toBeLessThanOrEqual(120);
    expect(report.skill.body.tokens).toBeLessThanOrEqual(2000);
  });

  it("text: a skill section with the listing, body and every reference file", async () => {
    const r = run("budget", "specs/billing.v2.yaml");
    expect(r.status).toBe(0);
    const expected = await skillFiles("specs/billing.v2.yaml");
    expect(r.stdout).toContain("Agent Skill skill/billing/, tokens");
    expect(r.stdout).toMatch(new RegExp(`\\n  listing +${countTokens(`name: ${expected.front.name}\ndescription: ${expected.front.description}`)} +\\d+\\n`));
    expect(r.stdout).toMatch(new RegExp(`\\n  body +${countTokens(expected.body)} +\\d+\\n`));
    for (const ref of expected.refs) expect(r.stdout).toMatch(new RegExp(`\\n  ${ref.path.replace(/[.]/g, "\\.")} +${ref.tokens} +\\d+\\n`));
    // The catalogue comes first, the skill beside it, one verdict for both.
    expect(r.stdout.indexOf("MCP catalogue")).toBeLessThan(r.stdout.indexOf("Agent Skill"));
    expect(r.stdout.trimEnd().endsWith("Within budget.")).toBe(true);
  });

  it("a body over budget.skill.bodyTokens: budget exits 1 naming the part, validate reports it located", () => {
    const fixture = "test/fixtures/invalid/budget-skill-tokens-exceeded.yaml";
    const b = run("budget", fixture);
    expect(b.status).toBe(1);
    expect(b.stdout).toMatch(/  over: body costs \d+ tokens, budget\.skill\.bodyTokens is 50\n/);
    expect(b.stdout).toContain("Over budget.");
    const j = JSON.parse(run("budget", fixture, "--format", "json").stdout);
    expect(j.withinBudget).toBe(false);
    expect(j.skill.budget).toEqual({ listingTokens: 400, bodyTokens: 50, referenceTokens: 5000 });
    expect(j.skill.over).toEqual([{ part: "body", tokens: j.skill.body.tokens, limit: 50, key: "bodyTokens" }]);
    const v = run("validate", fixture);
    expect(v.status).toBe(1);
    expect(v.stdout + v.stderr).toContain(`${fixture}:12:17: error [budget-skill-tokens-exceeded] The skill's body (SKILL.md without its front matter) costs ${j.skill.body.tokens} tokens (o200k_base); budget.skill.bodyTokens is 50.`);
  });

  it("a listing cap and a per-reference cap are each enforced; raising them passes", () => {
    const base = readFileSync("specs/billing.v2.yaml", "utf8");
    expect(base).toMatch(/^budget:\n/m);
    const withCaps = (caps: string) => base.replace(/^budget:\n/m, `budget:\n  skill: { ${caps} }\n`);
    const tight = join(dir, "tight.yaml");
    writeFileSync(tight, withCaps("listingTokens: 10, referenceTokens: 100"));
    const j = JSON.parse(run("budget", tight, "--format", "json").stdout);
    expect(j.withinBudget).toBe(false);
    expect(j.skill.over.map((o: { key: string }) => o.key)).toEqual(["listingTokens", ...j.skill.references.map(() => "referenceTokens")]);
    const v = run("validate", tight);
    expect(v.status).toBe(1);
    const out = v.stdout + v.stderr;
    expect(out).toContain(`error [budget-skill-tokens-exceeded] The skill's listing (the front matter's name and description) costs ${j.skill.listing.tokens} tokens (o200k_base); budget.skill.listingTokens is 10.`);
    expect(out).toContain(`error [budget-skill-tokens-exceeded] ${j.skill.references.length} reference file(s) cost more than 100 tokens (o200k_base), the ceiling budget.skill.referenceTokens sets on each:`);
    const roomy = join(dir, "roomy.yaml");
    writeFileSync(roomy, withCaps("listingTokens: 120, bodyTokens: 2000, referenceTokens: 5000"));
    expect(run("budget", roomy).status).toBe(0);
    expect(run("validate", roomy).status).toBe(0);
  });

  it("the format refuses a cap that is not a whole number ≥ 1 or an unknown key", () => {
    const base = readFileSync("specs/billing.v2.yaml", "utf8");
    for (const caps of ["bodyTokens: 0", "listingTokens: 1.5", "tokens: 100"]) {
      const file = join(dir, `bad-${caps.replace(/\W+/g, "-")}.yaml`);
      writeFileSync(file, base.replace(/^budget:\n/m, `budget:\n  skill: { ${caps} }\n`));
      const v = run("validate", file);
      expect(v.status, caps).toBe(1);
      expect(v.stdout + v.stderr, caps).toMatch(/budget\/skill/);
    }
  });
});
