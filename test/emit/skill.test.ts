/**
 * The Agent Skill every generated package carries (src/emit/skill/skill.ts): front matter that follows
 * the format (agentskills.io: name = folder, lowercase letters, digits and single hyphens, at most 64
 * characters; description at most 1,024), every CLI command in exactly one reference with its rules,
 * a body that stays small however large the contract, and nothing a contract writes leaving its place.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateCommandLine } from "../../src/cli/commands/generate.js";
import { parse } from "yaml";
import { syntheticContract } from "../../bench/synthetic.mjs";
import { countTokens } from "../../src/budget/catalog.js";
import { parseContract, parseContractText } from "../../src/contract/parse.js";
import { commandSpecs } from "../../src/emit/cli/commands.js";
import { emitPackage } from "../../src/emit/index.js";
import {
  commandListing,
  emitSkill,
  SKILL_BODY_COMMAND_LIMIT,
  SKILL_DESCRIPTION_MAX,
  SKILL_NAME_MAX,
  SKILL_NAME_PATTERN,
  skillBody,
  skillListing,
  skillName,
  skillParts,
} from "../../src/emit/skill/skill.js";
import type { ContractModel } from "../../src/model/types.js";

const SPECS = ["specs/billing.v2.yaml", "specs/incidents.yaml", "specs/releases.yaml", "specs/petstore.yaml"];
const models = new Map(SPECS.map((s) => [s, parseContract(s).model!] as const));

/** SKILL.md split into its front matter (parsed) and body, as a skill loader reads it. */
function splitSkill(text: string): { front: Record<string, unknown>; frontText: string; body: string } {
  expect(text.startsWith("---\n")).toBe(true);
  const end = text.indexOf("\n---\n", 4);
  expect(end).toBeGreaterThan(0);
  const frontText = text.slice(4, end + 1);
  return { front: parse(frontText) as Record<string, unknown>, frontText, body: text.slice(end + 5) };
}

function skillOf(model: ContractModel): { root: string; skill: string; references: Map<string, string> } {
  const files = emitSkill(model);
  const skillPath = [...files.keys()].find((p) => p.endsWith("/SKILL.md"))!;
  const root = skillPath.slice(0, -"/SKILL.md".length);
  const references = new Map([...files].filter(([p]) => p.startsWith(`${root}/references/`)));
  expect(files.size).toBe(references.size + 1);
  return { root, skill: files.get(skillPath)!, references };
}

/** Command names as a reference's `## ` headings show them (one code span each). */
function referencedCommands(reference: string): string[] {
  return [...reference.matchAll(/^## `([^`]+)`$/gm)].map((m) => m[1]!);
}

/** One synthetic contract of `n` operations, spread over `groups` toolsets (the model, as the builder makes it, then grouped). */
function grouped(n: number, groups: number): ContractModel {
  const model = parseContractText(`synthetic-${n}.yaml`, syntheticContract(n)).model!;
  const toolsets = Array.from({ length: groups }, (_, g) => ({ name: `area-${g}`, description: `Operations of area ${g}.`, loc: model.loc }));
  return { ...model, toolsets, operations: model.operations.map((op, i) => ({ ...op, toolset: `area-${i % groups}` })) };
}

describe("front matter", () => {
  for (const [spec, model] of models) {
    it(`${spec}: parses, and follows the format's rules; name equals the folder`, () => {
      const { root, skill } = skillOf(model);
      const { front } = splitSkill(skill);
      expect(Object.keys(front).sort()).toEqual(["description", "metadata", "name"]);
      const name = front.name as string;
      expect(name).toMatch(SKILL_NAME_PATTERN);
      expect(name.length).toBeLessThanOrEqual(SKILL_NAME_MAX);
      expect(root).toBe(`skill/${name}`);
      const description = front.description as string;
      expect(description.length).toBeGreaterThan(0);
      expect(description.length).toBeLessThanOrEqual(SKILL_DESCRIPTION_MAX);
      expect(description).not.toMatch(/\n/);
      // The contract's own words: its title, and the start of its description.
      expect(description).toContain(model.title);
      expect(description).toContain(model.description.replace(/\s+/g, " ").trim().slice(0, 40));
      expect(front.metadata).toEqual({ contract: model.name, "contract-version": model.version, generator: "contractgen" });
      // The listing is what sits in an agent's context before the skill is chosen: small.
      expect(countTokens(skillListing(model))).toBeLessThanOrEqual(160);
    });
  }

  it("a name the format would refuse becomes one it accepts", () => {
    const billing = models.get("specs/billing.v2.yaml")!;
    for (const [contract, expected] of [["Billing__API--v2_", "billing-api-v2"], ["-x-", "x"], ["___", "contract"], ["a".repeat(80), "a".repeat(64)], [`${"b".repeat(63)}-c`, "b".repeat(63)]] as const) {
      const name = skillName({ ...billing, name: contract });
      expect(name).toBe(expected);
      expect(name).toMatch(SKILL_NAME_PATTERN);
    }
  });

  it("a description over 1,024 characters is cut to fit, at a word, and keeps when to use the skill", () => {
    const billing = models.get("specs/billing.v2.yaml")!;
    const front = splitSkill(emitSkill({ ...billing, description: "word ".repeat(600) }).get("skill/billing/SKILL.md")!).front;
    expect((front.description as string).length).toBeLessThanOrEqual(SKILL_DESCRIPTION_MAX);
    expect(front.description as string).toMatch(/ word… Use when a task needs Billing: run the `billing` CLI/);
  });
});

describe("body and references", () => {
  for (const [spec, model] of models) {
    it(`${spec}: every CLI command appears in exactly one reference, and the body indexes it`, () => {
      const { skill, references } = skillOf(model);
      const seen = new Map<string, string[]>();
      for (const [path, text] of references) for (const c of referencedCommands(text)) seen.set(c, [...(seen.get(c) ?? []), path]);
      const commands = commandSpecs(model).map((c) => c.name);
      expect([...seen.keys()].sort()).toEqual([...commands].sort());
      for (const [command, paths] of seen) expect(paths, command).toHaveLength(1);
      const { body } = splitSkill(skill);
      for (const c of commands) expect(body).toContain(`\`${c}\``);
      for (const path of references.keys()) expect(body).toContain(`${path.slice(path.indexOf("references/"))}`);
    });

    it(`${spec}: every operation with a preview, a key or paging has its rule in its reference, and the body states the general rule`, () => {
      const { skill, references } = skillOf(model);
      const { body } = splitSkill(skill);
      const names = new Map(commandSpecs(model).map((c) => [c.operation, c.name] as const));
      const sectionOf = (command: string): string => {
        for (const text of references.values()) {
          const start = text.indexOf(`## \`${command}\`\n`);
          if (start < 0) continue;
          const next = text.indexOf("\n## ", start + 1);
          return text.slice(start, next < 0 ? undefined : next);
        }
        throw new Error(`no reference for ${command}`);
      };
      for (const op of model.operations) {
        const section = sectionOf(names.get(op.names.id)!);
        if (op.preview) {
          expect(section).toContain("- Preview: `--dry-run`");
          expect(section).toContain("`--confirm <token>`");
          expect(section).toContain(op.preview.ttl);
          expect(body).toMatch(/Preview, then confirm: .*--confirm <token>.* before the token expires/);
        }
        if (op.idempotency) {
          expect(section).toMatch(/- Operation key: `--operation-key <key>`( \(format [a-z-]+\)| \(pattern `[^`]+`\))?, one per intended effect, reused on every retry/);
          expect(body).toContain("One operation key per intended effect");
        }
        if (op.pagination) {
          expect(section).toMatch(/- Pages: .*exit 10 means incomplete/);
          expect(body).toContain("exit 10 means the answer is not whole");
        }
        // Each error with its action: in the command's section, or in its file's list of errors every command there shares.
        const file = [...references.values()].find((text) => text.includes(section))!;
        const common = /^Errors every command here may end with: (.*)$/m.exec(file)?.[1] ?? "";
        for (const e of op.errors) {
          const action = model.errors.find((x) => x.code === e.code)!.action;
          expect(`${section}\n${common}`).toContain(`\`${e.code}\` (${model.errors.find((x) => x.code === e.code)!.class}) → \`${action}\``);
        }
        expect(section).toMatch(/Example:\n\n```sh\n\S+ \S+/);
      }
      if (!model.operations.some((op) => op.preview)) expect(body).not.toContain("Preview, then confirm");
    });
  }

  it("the body names the bin, the credential and base-URL variables, and every exit code", () => {
    const { body } = splitSkill(skillOf(models.get("specs/billing.v2.yaml")!).skill);
    expect(body).toContain("Run the `billing` CLI");
    expect(body).toContain("Credentials: `BILLING_TOKEN`");
    expect(body).toContain("Platform: `BILLING_BASE_URL` or `--base-url`");
    // Billing declares every class, mutates and pages: every exit code, each class's by its name.
    for (let code = 0; code <= 10; code++) expect(body).toMatch(new RegExp(`^- ${code}[: ]`, "m"));
    expect(body).toContain("- 4 `conflict` → re-read, then decide again");
    // A contract that neither mutates nor pages, with one error class, lists only the codes its CLI can end with.
    const petstore = splitSkill(skillOf(models.get("specs/petstore.yaml")!).skill).body;
    const codes = [...petstore.matchAll(/^- (\d+)[: ]/gm)].map((m) => Number(m[1]));
    expect(codes).toContain(0);
    expect(codes).toContain(1);
    expect(codes).toContain(2);
    expect(codes.length).toBeLessThan(11);
  });

  it("flags are named as the CLI names them, preconditions by their flag", () => {
    const { references } = skillOf(models.get("specs/billing.v2.yaml")!);
    const invoices = references.get("skill/billing/references/invoices.md")!;
    expect(invoices).toContain("- `--invoice-id <string>` (required)");
    expect(invoices).toContain("- Precondition: `--expected-refunded-cents` must match the current refunded_cents, else `INVOICE_CHANGED`");
    expect(invoices).toContain("billing get-invoice --invoice-id inv_1001");
    // A previewable command's worked invocation is the flow: preview, then confirm.
    expect(invoices).toMatch(/```sh\nbilling refund-invoice --invoice-id inv_1001 --amount \S+ --dry-run\nbilling refund-invoice --invoice-id inv_1001 --amount \S+ --confirm <token>\n```/);
  });

  it("the description and the body claim only the behaviours the contract declares", () => {
    const billing = models.get("specs/billing.v2.yaml")!;
    const claims = (m: ContractModel) => (splitSkill(emitSkill(m).get(`skill/${skillName(m)}/SKILL.md`)!).front.description as string);
    expect(claims(billing)).toContain("which keeps the contract's previews, operation keys, preconditions and completeness.");
    const plain = { ...billing, operations: billing.operations.map((op) => ({ ...op, preview: null, idempotency: null, preconditions: [], pagination: null, task: null })) };
    expect(claims(plain)).toMatch(/run the `billing` CLI\.$/);
    expect(skillBody(plain)).not.toMatch(/Preview, then confirm|One operation key|Incomplete answers/);
  });

  it("is deterministic", () => {
    for (const model of models.values()) expect([...emitSkill(model)]).toEqual([...emitSkill(model)]);
  });
});

describe("size", () => {
  it(`lists commands up to ${SKILL_BODY_COMMAND_LIMIT}, then groups; a 1,000-operation contract keeps its body under 2,000 tokens`, () => {
    const small = grouped(SKILL_BODY_COMMAND_LIMIT, 4);
    expect(skillBody(small)).toContain("`list-items-0`");
    const large = grouped(1000, 40);
    const parts = skillParts(large);
    expect(parts.body).not.toContain("`list-items-0`");
    expect(parts.body).toContain("\n- references/area-0.md (25): Operations of area 0.\n");
    const tokens = countTokens(parts.body);
    expect(tokens).toBeLessThan(2000);
    // Every operation is still in exactly one reference.
    const all = [...parts.references.values()].flatMap(referencedCommands);
    expect(all).toHaveLength(1000);
    expect(new Set(all).size).toBe(1000);
  });

  it("the body rendered from the commands' listing alone (what the diff and the budget render) is the body generate writes", () => {
    for (const model of [...models.values(), grouped(1000, 40), parseContractText("synthetic-1000.yaml", syntheticContract(1000)).model!]) {
      expect(commandListing(model)).toEqual(commandSpecs(model).map(({ name, group, summary }) => ({ name, group, summary })));
      expect(skillBody(model)).toBe(skillParts(model).body);
    }
  });

  it("a contract without toolsets is one group, split into bounded parts", () => {
    const model = parseContractText("synthetic-1000.yaml", syntheticContract(1000)).model!;
    const parts = skillParts(model);
    expect([...parts.references.keys()].slice(0, 2)).toEqual(["references/commands-1.md", "references/commands-2.md"]);
    // Parts are cut in name order, and the body says which names each part holds, so an agent opens the right one.
    const names = [...parts.references.values()].flatMap(referencedCommands);
    expect(names).toEqual([...names].sort());
    const first = referencedCommands(parts.references.get("references/commands-1.md")!);
    expect(parts.body).toContain(`- references/commands-1.md (${first.length}: \`${first[0]}\` to \`${first.at(-1)}\`)`);
    expect(countTokens(parts.body)).toBeLessThan(2000);
    expect([...parts.references.values()].flatMap(referencedCommands)).toHaveLength(1000);
  });
});

describe("wired into generate", () => {
  it("emitPackage writes the skill by default and leaves it out with skill: false; the README says so", async () => {
    const model = models.get("specs/billing.v2.yaml")!;
    const withSkill = await emitPackage(model);
    expect(withSkill.get("skill/billing/SKILL.md")).toBe(emitSkill(model).get("skill/billing/SKILL.md"));
    expect(withSkill.get("README.md")).toContain("## Agent Skill");
    const without = await emitPackage(model, { skill: false });
    expect([...without.keys()].filter((p) => p.startsWith("skill/"))).toEqual([]);
    expect(without.get("README.md")).not.toContain("## Agent Skill");
  });

  it("contractgen generate writes it and lists it in the manifest; --no-skill leaves it out, and says so in the command that regenerates", () => {
    const dir = mkdtempSync(join(tmpdir(), "skill-cli-"));
    try {
      const run = (...args: string[]) => spawnSync(process.execPath, [join(process.cwd(), "bin/contractgen.js"), "generate", "specs/billing.v2.yaml", ...args], { encoding: "utf8" });
      const on = run("-o", join(dir, "on"));
      expect(on.stderr).toBe("");
      expect(on.status).toBe(0);
      const manifest = readFileSync(join(dir, "on/.contractgen.json"), "utf8");
      for (const path of emitSkill(models.get("specs/billing.v2.yaml")!).keys()) {
        expect(existsSync(join(dir, "on", path)), path).toBe(true);
        expect(manifest).toContain(`"${path}"`);
      }
      const off = run("-o", join(dir, "off"), "--no-skill");
      expect(off.status).toBe(0);
      expect(existsSync(join(dir, "off/skill"))).toBe(false);
      expect(readFileSync(join(dir, "off/.contractgen.json"), "utf8")).not.toContain("skill/");
      expect(generateCommandLine("specs/billing.v2.yaml", { out: "out", check: false, watch: false, skill: false })).toBe("contractgen generate specs/billing.v2.yaml --no-skill -o out");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
