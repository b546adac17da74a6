// A scripted agent that knows a platform only through its generated Agent Skill: it reads SKILL.md,
// picks a command from the body's index, reads the one reference the index links it to, and runs the
// generated CLI with the flags, values and rules that reference shows. Everything it does comes from
// the text it read (flag names, allowed values, the credential and base-URL variables, how to continue
// an incomplete answer, the preview's token field, the key's format); what it cannot find there makes
// it fail, naming what was missing. It stands in for a model in the seed labs (bench/skill-labs.mjs,
// test/e2e/skill-labs.test.ts) and counts the tokens of everything it read and every answer it got.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** What the skill did not say that the agent needed: the lab fails with it. */
export class SkillGap extends Error {}

/** The text between the first pair of backticks of each code span on a line (single-backtick spans). */
const spans = (line) => [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/** One `## \`command\`` section of a reference, as the agent reads it. */
function parseSection(text, command) {
  const start = text.indexOf(`## \`${command}\`\n`);
  if (start < 0) throw new SkillGap(`the reference has no section for ${command}`);
  const next = text.indexOf("\n## ", start + 1);
  const section = text.slice(start, next < 0 ? undefined : next);
  const lines = section.split("\n");
  /** `--flag` → the values it allows (null: any value of its type), from `- \`--flag <a|b>\``. */
  const flags = new Map();
  for (const line of lines) {
    const m = /^- `--([a-z0-9-]+) (<[^`]*>|\[[^`]*\])`/.exec(line);
    if (m) flags.set(m[1], /^<[^|>]+>$/.test(m[2]) || m[2].startsWith("[") ? null : m[2].slice(1, -1).split("|"));
    // Flags shown once in the file and named again here: "- `--a`, `--b`: as in `other-command`".
    const named = /^- ((?:`--[a-z0-9-]+`(?:, )?)+): as in `([^`]+)`$/.exec(line);
    if (named) {
      const earlier = parseSection(text, named[2]).flags;
      for (const flag of spans(named[1]).map((s) => s.slice(2))) flags.set(flag, earlier.get(flag) ?? null);
    }
  }
  const rule = (prefix) => lines.find((l) => l.startsWith(`- ${prefix}: `)) ?? null;
  const pages = rule("Pages");
  const completeness = rule("Completeness");
  const preview = rule("Preview");
  const key = rule("Operation key");
  const outputLine = lines.find((l) => l.startsWith("Output fields: ")) ?? "";
  return {
    flags,
    output: spans(outputLine),
    // `--all` when the reference says it reads every page; the flag a continuation is passed back with.
    pages: pages === null ? null : { all: pages.includes("`--all`"), resumeFlag: /`--([a-z0-9-]+) <continuation>`/.exec(pages)?.[1] ?? null },
    completeness:
      completeness === null ? null : { completeField: spans(completeness)[0], resumeFlag: /`--([a-z0-9-]+) <[^>]+>`/.exec(completeness)?.[1] ?? null, continuationField: /`--[a-z0-9-]+ <([^>]+)>`/.exec(completeness)?.[1] ?? null },
    fields: lines.some((l) => l.startsWith("- Fields: `--fields")),
    preview: preview === null ? null : { tokenField: /confirm token in `([^`]+)`/.exec(preview)?.[1] ?? null },
    key: key === null ? null : { format: /\(format ([^)]+)\)/.exec(key)?.[1] ?? null },
  };
}

export class SkillAgent {
  /**
   * @param {object} options
   * @param {string} options.skillDir the skill's folder (`skill/<name>/` of a generated package)
   * @param {string} options.cliMain the built CLI (`dist/cli/main.js`), which the body names
   * @param {(text: string) => number} options.countTokens o200k_base counter
   * @param {string | null} options.credential the user's credential, set in the variable the body names
   * @param {string} options.baseUrl the platform, set in the variable the body names
   * @param {string} options.journal the CLI's journal file
   */
  constructor({ skillDir, cliMain, countTokens, credential, baseUrl, journal }) {
    Object.assign(this, { skillDir, cliMain, countTokens, credential, baseUrl, journal });
    /** Every file read: { path, tokens }. */
    this.reads = [];
    /** Every command run: { args, exit, stdoutTokens }. */
    this.runs = [];
  }

  read(path) {
    const text = readFileSync(join(this.skillDir, path), "utf8");
    this.reads.push({ path, tokens: this.countTokens(text) });
    return text;
  }

  /** Reads SKILL.md: the variables it names and its index of commands (each with its reference). */
  open() {
    const skill = this.read("SKILL.md");
    const credentials = /^- Credentials: (.*)$/m.exec(skill);
    this.credentialVars = credentials ? spans(credentials[1]) : [];
    this.baseUrlVar = spans(/^- Platform: (.*)$/m.exec(skill)?.[1] ?? "")[0] ?? null;
    if (!this.baseUrlVar) throw new SkillGap("SKILL.md names no base-URL variable");
    this.index = [];
    let reference = null;
    for (const line of skill.split("\n")) {
      const group = /^\[[^\]]*\]\((references\/[a-z0-9-]+\.md)\)/.exec(line);
      if (group) reference = group[1];
      const command = /^- `([a-z0-9-]+)`: (.*)$/.exec(line);
      if (command && reference) this.index.push({ command: command[1], summary: command[2], reference });
    }
    return skill;
  }

  /** The indexed command whose name, then summary, shares most words with the task's (a word in the name counts twice; ties: first listed). */
  choose(words) {
    const score = (entry) => words.reduce((n, w) => n + (entry.command.includes(w) ? 2 : 0) + (entry.summary.toLowerCase().includes(w) ? 1 : 0), 0);
    const best = [...this.index].sort((a, b) => score(b) - score(a))[0];
    if (!best || score(best) === 0) throw new SkillGap(`no command in SKILL.md's index matches ${words.join(" ")}`);
    return best;
  }

  /** The section of `command` in its reference (read once per lab). */
  section(entry) {
    return parseSection(this.read(entry.reference), entry.command);
  }

  /** `--flag value` pairs for what the task wants, each flag and value checked against what the reference shows. */
  flags(section, wanted) {
    const args = [];
    for (const [flag, value] of Object.entries(wanted)) {
      if (!section.flags.has(flag)) throw new SkillGap(`the reference shows no --${flag}`);
      const allowed = section.flags.get(flag);
      if (allowed && !allowed.includes(String(value))) throw new SkillGap(`--${flag} does not allow ${value} (the reference allows ${allowed.join(", ")})`);
      args.push(`--${flag}`, String(value));
    }
    return args;
  }

  /** A key for one intended effect, in the format the reference gives (a UUID, or a plain word). */
  operationKey(section) {
    return section.key?.format === "uuid" ? randomUUID() : `agent-${randomUUID()}`;
  }

  /** Runs the CLI with the credential and base URL in the variables SKILL.md names; stdout parsed as JSON. Asynchronous: the platform may live in this process. */
  async run(args) {
    const env = { PATH: process.env.PATH ?? "", [this.baseUrlVar]: this.baseUrl };
    if (this.credential !== null) for (const name of this.credentialVars) env[name] = this.credential;
    const r = await new Promise((done) =>
      execFile(process.execPath, [this.cliMain, "--journal", this.journal, ...args], { encoding: "utf8", env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
        done({ status: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
      ),
    );
    this.runs.push({ args, exit: r.status, stdoutTokens: this.countTokens(r.stdout) });
    let json = null;
    try {
      json = JSON.parse(r.stdout);
    } catch {
      json = null;
    }
    return { exit: r.status, json, stderr: r.stderr };
  }

  /** Tokens of what the agent read (listing, body, references) and of the answers it got. */
  cost() {
    const read = this.reads.reduce((n, r) => n + r.tokens, 0);
    const answers = this.runs.reduce((n, r) => n + r.stdoutTokens, 0);
    return { read, answers, total: read + answers, files: this.reads.map((r) => r.path), commands: this.runs.length };
  }
}

/** Fails with the CLI's own error when a run did not end as the skill says a good one ends. */
function expectExit(run, codes, what) {
  if (!codes.includes(run.exit)) throw new Error(`${what}: exit ${run.exit}: ${run.stderr.split("\n")[0]}`);
}

/**
 * The incident lab: which open P1 incidents affect checkout in production, with their owners and
 * evidence. The agent filters and selects fields in the command, reads every page, and follows the
 * reference's continuation rule until the answer is whole (exit 10 is never an answer).
 * `bounds`: page bounds that force continuations (the truncated read of the seed's variant C).
 */
export async function incidentLab(agent, bounds = {}) {
  agent.open();
  const entry = agent.choose(["list", "incidents", "filters"]);
  const section = agent.section(entry);
  const args = [entry.command, ...agent.flags(section, { status: "open", severity: "P1", service: "checkout", environment: "production", ...(bounds.limit ? { limit: bounds.limit } : {}) })];
  if (!section.pages?.all) throw new SkillGap(`${entry.command}: the reference says nothing about reading every page`);
  args.push("--all");
  if (bounds.maxPages) args.push("--max-pages", String(bounds.maxPages));
  if (section.fields) args.push("--fields", "id,owner,evidence_ref");
  const items = [];
  let run = await agent.run(args);
  let continuations = 0;
  for (;;) {
    expectExit(run, [0, 10], entry.command);
    items.push(...run.json.items);
    if (run.exit === 0) break;
    if (!section.pages.resumeFlag || !run.json.continuation) throw new SkillGap(`${entry.command} stopped incomplete and the reference gives no way to continue`);
    continuations++;
    run = await agent.run([...args, `--${section.pages.resumeFlag}`, run.json.continuation]);
  }
  const answer = items.map((i) => ({ id: i.id, owner: i.owner, evidence_ref: i.evidence_ref })).sort((a, b) => a.id.localeCompare(b.id));
  return { answer, continuations };
}

/** The release count: how many stable releases; the agent continues while the answer says it is not whole. */
export async function releaseCountLab(agent) {
  agent.open();
  const entry = agent.choose(["count", "stable", "releases"]);
  const section = agent.section(entry);
  if (!section.output.includes("count")) throw new SkillGap(`${entry.command}: no count in its output fields`);
  if (!section.completeness) throw new SkillGap(`${entry.command}: the reference says nothing about completeness`);
  const { completeField, resumeFlag, continuationField } = section.completeness;
  let run = await agent.run([entry.command]);
  let continuations = 0;
  for (;;) {
    expectExit(run, [0, 10], entry.command);
    if (run.json[completeField] === true) break;
    if (!resumeFlag || !continuationField || !run.json[continuationField]) throw new SkillGap(`${entry.command} is not complete and the reference gives no way to continue`);
    continuations++;
    run = await agent.run([entry.command, `--${resumeFlag}`, run.json[continuationField]]);
  }
  // Answers are cumulative (the reference's own description says so): the last one is the count.
  return { answer: run.json.count, continuations };
}

/**
 * The refund flow: refund 1000 cents of inv_1001. The agent previews, reads the token from the field
 * the reference names, and confirms with it under one operation key of the format the reference gives;
 * a lost answer is retried with the same key. Returns the preview and the executed refund.
 */
export async function refundLab(agent, { invoiceId = "inv_1001", amount = 1000 } = {}) {
  agent.open();
  const entry = agent.choose(["refund", "invoice"]);
  const section = agent.section(entry);
  if (!section.preview?.tokenField) throw new SkillGap(`${entry.command}: the reference does not say where the preview's confirm token is`);
  const args = [entry.command, ...agent.flags(section, { "invoice-id": invoiceId, amount })];
  const preview = await agent.run([...args, "--dry-run"]);
  expectExit(preview, [0], `${entry.command} --dry-run`);
  const token = preview.json[section.preview.tokenField];
  const key = section.key ? ["--operation-key", agent.operationKey(section)] : [];
  const confirmed = await agent.run([...args, "--confirm", token, ...key]);
  expectExit(confirmed, [0], `${entry.command} --confirm`);
  // The same command again, as a retry after a lost answer would send it: the key makes it the same effect.
  const retried = await agent.run([...args, "--confirm", token, ...key]);
  expectExit(retried, [0], `${entry.command} --confirm (retry)`);
  return { preview: preview.json, answer: confirmed.json, retried: retried.json };
}
