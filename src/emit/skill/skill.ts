/**
 * The Agent Skill of a generated package (`skill/<name>/`, the open format of agentskills.io): a
 * `SKILL.md` whose front matter (`name`, `description`, `metadata`) is all an agent keeps in context
 * until it picks the skill, a body that says how to run the generated CLI and which rules the contract
 * imposes, and `references/<group>.md`, one per group of commands, read only when a task needs it.
 * A pure function of the model: every name comes from the naming authority the CLI uses, every string
 * from the contract goes through the Markdown escaping of shared/markdown.ts or YAML's own quoting.
 */
import { stringify } from "yaml";
import type { CommandSpec, FlagSpec } from "../../cli-runtime/program.js";
import { EXIT_CODE_TABLE, EXIT_CODES } from "../../cli-runtime/exit-codes.js";
import { baseUrlEnvOf, cliName, resolveLocal } from "../../model/naming.js";
import { authEnvVars, type ContractModel, type ErrorModel, type OperationModel } from "../../model/types.js";
import { commandExample, commandSpecs } from "../cli/commands.js";
import { effectsLine } from "../shared/describe.js";
import { plainText } from "../shared/literals.js";
import { markdownCode, markdownText } from "../shared/markdown.js";

/** Where the skill lives in the package: `skill/<name>/`. */
export function skillRoot(model: ContractModel): string {
  return `skill/${skillName(model)}`;
}

/** Limits of the format's front matter (agentskills.io specification). */
export const SKILL_NAME_MAX = 64;
export const SKILL_DESCRIPTION_MAX = 1024;

/** What the format requires of `name`: lowercase letters, digits, single hyphens inside, 1 to 64 characters. */
export const SKILL_NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * The skill's name (and its folder): the CLI's name, lowercased, every run of other characters one
 * hyphen, at most 64 characters, no hyphen at either end; `contract` if nothing is left.
 */
export function skillName(model: ContractModel): string {
  const name = cliName(model)
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, SKILL_NAME_MAX)
    .replace(/^-+|-+$/g, "");
  return name === "" ? "contract" : name;
}

/** A body that lists commands up to this many; above it, the body lists groups (each with its count and reference). */
export const SKILL_BODY_COMMAND_LIMIT = 60;

/** Commands per reference file: a larger group is split into numbered parts, so no reference is unbounded. */
export const SKILL_REFERENCE_COMMAND_LIMIT = 80;

/** Shown for commands of a contract that declares no toolsets. */
const DEFAULT_GROUP = "commands";

/** One reference file: the commands of one group (or one part of a large group). */
export interface SkillGroup {
  /** The group as the contract names it (a toolset), or null: the contract declares none. */
  readonly group: string | null;
  /** File name stem: `references/<file>.md`. */
  readonly file: string;
  readonly description: string;
  readonly commands: readonly CommandSpec[];
}

/** The skill's parts, for the budget (listing, body, each reference) and for writing. */
export interface SkillParts {
  readonly name: string;
  /** The front matter between its `---` lines: what sits in the agent's context before the skill is chosen. */
  readonly listing: string;
  /** SKILL.md after the front matter. */
  readonly body: string;
  /** `references/<group>.md` → its text, in group order. */
  readonly references: ReadonlyMap<string, string>;
}

/** A lowercase file stem for a group name: letters, digits and single hyphens. */
function fileStem(name: string): string {
  const stem = name.normalize("NFKD").toLowerCase().replace(/[^a-z0-9]+/g, "-").slice(0, 60).replace(/^-+|-+$/g, "");
  return stem === "" ? "group" : stem;
}

/** Commands grouped as the contract groups them (toolsets in declaration order, then any others), split into parts of bounded size. */
export function skillGroups(model: ContractModel, commands: readonly CommandSpec[] = commandSpecs(model)): SkillGroup[] {
  const byGroup = new Map<string | null, CommandSpec[]>();
  for (const toolset of model.toolsets) byGroup.set(toolset.name, []);
  for (const command of commands) {
    const list = byGroup.get(command.group) ?? [];
    list.push(command);
    byGroup.set(command.group, list);
  }
  const descriptions = new Map(model.toolsets.map((t) => [t.name, t.description] as const));
  const taken = new Set<string>();
  const claim = (wanted: string) => {
    let stem = wanted;
    for (let n = 2; taken.has(stem); n++) stem = `${wanted}-${n}`;
    taken.add(stem);
    return stem;
  };
  const groups: SkillGroup[] = [];
  for (const [group, list] of byGroup) {
    if (list.length === 0) continue;
    const stem = fileStem(group ?? DEFAULT_GROUP);
    const parts = Math.ceil(list.length / SKILL_REFERENCE_COMMAND_LIMIT);
    for (let p = 0; p < parts; p++) {
      groups.push({
        group,
        file: claim(parts === 1 ? stem : `${stem}-${p + 1}`),
        description: group === null ? "" : (descriptions.get(group) ?? ""),
        commands: list.slice(p * SKILL_REFERENCE_COMMAND_LIMIT, (p + 1) * SKILL_REFERENCE_COMMAND_LIMIT),
      });
    }
  }
  return groups;
}

/** One line of contract prose, at most `max` characters (cut at a word, with an ellipsis). */
function sentence(text: string, max: number): string {
  const line = plainText(text).replace(/\s+/g, " ").trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, "")}…`;
}

/** The behaviours the contract declares that the CLI keeps, in words ("previews, operation keys and completeness"), or "". */
function keptBehaviours(model: ContractModel): string {
  const ops = model.operations;
  const kept = [
    ops.some((op) => op.preview) ? "previews" : "",
    ops.some((op) => op.idempotency) ? "operation keys" : "",
    ops.some((op) => op.preconditions.length > 0) ? "preconditions" : "",
    ops.some((op) => op.pagination || op.task) ? "completeness" : "",
  ].filter(Boolean);
  return kept.length <= 1 ? (kept[0] ?? "") : `${kept.slice(0, -1).join(", ")} and ${kept.at(-1)}`;
}

/** Characters of the contract's own description the front matter's `description` keeps. */
export const SKILL_DESCRIPTION_WHAT_MAX = 240;

/** The front matter's `description`: what the API does, in the contract's words, and when to use the skill. */
export function skillDescription(model: ContractModel): string {
  const title = sentence(model.title || model.name, 120);
  const kept = keptBehaviours(model);
  const when = ` Use when a task needs ${title} (contract ${sentence(model.name, 64)} ${sentence(model.version, 32)}): run the \`${sentence(cliName(model), 64)}\` CLI${kept ? `, which keeps the contract's ${kept}` : ""}.`;
  // The contract's description, cut so the whole listing stays near 120 tokens (it sits in every agent's context).
  const what = sentence(model.description, Math.min(SKILL_DESCRIPTION_WHAT_MAX, SKILL_DESCRIPTION_MAX - when.length - title.length - 4));
  return sentence(`${title}${what ? `: ${what.endsWith("…") ? what : what.replace(/\.?$/, ".")}` : "."}${when}`, SKILL_DESCRIPTION_MAX);
}

/** The front matter (without its `---` lines), as YAML's stringify quotes it. */
export function skillListing(model: ContractModel): string {
  const metadata = new Map<string, string>([
    ["contract", plainText(model.name)],
    ["contract-version", plainText(model.version)],
    ["generator", "contractgen"],
  ]);
  const front = new Map<string, unknown>([
    ["name", skillName(model)],
    ["description", skillDescription(model)],
    ["metadata", metadata],
  ]);
  return stringify(front, { lineWidth: 0, defaultStringType: "QUOTE_DOUBLE", defaultKeyType: "PLAIN" });
}

/** The error classes the contract's taxonomy uses, each with its exit code and the actions its codes name. */
function errorClassLines(model: ContractModel): string[] {
  const exitByClass = new Map<string, number>([
    ["invalid_input", EXIT_CODES.usage], ["not_found", EXIT_CODES.notFound], ["conflict", EXIT_CODES.conflict],
    ["permission", EXIT_CODES.permission], ["unauthenticated", EXIT_CODES.unauthenticated], ["transient", EXIT_CODES.transient],
    ["rate_limited", EXIT_CODES.rateLimited], ["internal", EXIT_CODES.internal],
  ]);
  const byClass = new Map<string, ErrorModel[]>();
  for (const e of model.errors) byClass.set(e.class, [...(byClass.get(e.class) ?? []), e]);
  return [...byClass].map(([cls, errors]) => {
    const actions = [...new Set(errors.map((e) => e.action))];
    const codes = errors.length <= 4 ? `: ${errors.map((e) => markdownCode(e.code)).join(", ")}` : ` (${errors.length} codes)`;
    return `- ${markdownCode(cls)}, exit ${exitByClass.get(cls) ?? EXIT_CODES.internal}${codes} → ${actions.map((a) => markdownCode(a)).join(" or ")}`;
  });
}

/** How to run the CLI: the bin, the credential and base-URL variables. */
function runSection(model: ContractModel): string[] {
  const bin = cliName(model);
  const creds = authEnvVars(model.transport.auth);
  return [
    "## Running the CLI",
    "",
    `The generated package's bin is ${markdownCode(bin)} (inside the package, without installing it: ${markdownCode("node dist/cli/main.js")} after ${markdownCode("npm run build")}). Run ${markdownCode(`${bin} <command> --help`)} for a command's flags.`,
    "",
    creds.length > 0 ? `- Credentials: ${creds.map((v) => markdownCode(v)).join(", ")} (environment variables).` : "- Credentials: none.",
    `- Platform: ${markdownCode(baseUrlEnvOf(model.name, model.transport.baseUrlEnv))} or ${markdownCode("--base-url")} (default ${markdownCode(model.transport.baseUrl)}).`,
    `- Input: one flag per field, or ${markdownCode("--input file.json")} (${markdownCode("-")}: stdin) for structured fields.`,
    "",
  ];
}

/** The rules the contract imposes, stated once for every command that has them. */
function rulesSection(model: ContractModel): string[] {
  const ops = model.operations;
  const lines = ["## Rules", ""];
  lines.push("- Results are JSON on stdout; diagnostics and errors (JSON) on stderr. Branch on the exit code, not on text.");
  if (ops.some((op) => op.preview)) {
    lines.push(`- Preview, then confirm: a command with ${markdownCode("--dry-run")} previews and returns a confirm token; run the same command with the same flags and ${markdownCode("--confirm <token>")} before the token expires. Show the preview to the user before confirming.`);
  }
  if (ops.some((op) => op.idempotency)) {
    lines.push(`- One operation key per intended effect: ${markdownCode("--operation-key <key>")} names the effect; a retry of the same effect reuses the same key (never a new one), a different effect never reuses it. Without the flag the journal picks or recovers one.`);
  }
  if (ops.some((op) => op.pagination || op.task)) {
    lines.push(`- Incomplete answers: ${markdownCode("--all")} reads every page within ${markdownCode("--max-pages")} / ${markdownCode("--max-items")} and says whether the result is complete. Exit ${EXIT_CODES.incomplete} means it is not: continue from the ${markdownCode("continuation")} it prints, or raise the bounds; never report a partial answer as the whole.`);
  }
  if (ops.some((op) => op.preconditions.length > 0)) lines.push("- Preconditions: pass the revision or value you read; a mismatch changes nothing (re-read, then decide again).");
  lines.push("", "Exit codes:", "");
  for (const [code, meaning, action] of EXIT_CODE_TABLE) lines.push(`- ${code}: ${markdownText(meaning.replaceAll("`", ""))} → ${markdownText(action.replaceAll("`", ""))}`);
  const classes = errorClassLines(model);
  if (classes.length > 0) lines.push("", "Error classes of this contract (each error's own action is in the references):", "", ...classes);
  lines.push("");
  return lines;
}

/** The index: every command on one line, or, for a large contract, every group with its count. */
function indexSection(groups: readonly SkillGroup[], total: number): string[] {
  const lines = ["## Commands", ""];
  if (total <= SKILL_BODY_COMMAND_LIMIT) {
    for (const g of groups) {
      lines.push(`### ${markdownText(g.group ?? DEFAULT_GROUP)} ([references/${g.file}.md](references/${g.file}.md))`, "");
      for (const c of g.commands) lines.push(`- ${markdownCode(c.name)}: ${markdownText(sentence(c.summary, 120))}`);
      lines.push("");
    }
    return lines;
  }
  lines.push(`${total} commands in ${groups.length} reference files (file, commands in it, what they cover); read the one a task needs:`, "");
  for (const g of groups) {
    // One short line a group: the file, the group's name only where the file name does not already say it, the count.
    const about = g.description ? `: ${markdownText(sentence(g.description, 60))}` : "";
    const named = g.group === null || g.file === fileStem(g.group) ? "" : ` ${markdownText(g.group)}`;
    lines.push(`- references/${g.file}.md${named} (${g.commands.length})${about}`);
  }
  lines.push("");
  return lines;
}

/** SKILL.md after the front matter. */
export function skillBody(model: ContractModel, groups: readonly SkillGroup[] = skillGroups(model)): string {
  const total = groups.reduce((n, g) => n + g.commands.length, 0);
  return [
    `# ${markdownText(model.title || model.name)}`,
    "",
    `The ${markdownCode(cliName(model))} CLI calls the platform of contract ${markdownCode(model.name)} ${markdownCode(model.version)}${keptBehaviours(model) ? ` and keeps its ${keptBehaviours(model)}` : ""}. Every command is one operation.`,
    "",
    ...runSection(model),
    ...rulesSection(model),
    ...indexSection(groups, total),
  ].join("\n");
}

function flagLine(flag: FlagSpec): string {
  const type = flag.type === "array" ? `${flag.itemType ?? "string"}, repeatable` : flag.alternatives ? flag.alternatives.join(" or ") : flag.type;
  const choices = flag.enum && flag.enum.length > 0 ? `; one of ${flag.enum.slice(0, 12).map((v) => markdownCode(String(v))).join(", ")}${flag.enum.length > 12 ? ", …" : ""}` : "";
  const about = flag.description ? `: ${markdownText(sentence(flag.description, 160))}` : "";
  return `- ${markdownCode(`--${flag.flag}`)} (${type}${flag.required ? ", required" : ""}${choices})${about}`;
}

/** The output's top-level fields, named as the JSON on stdout names them. */
function outputFields(op: OperationModel): string[] {
  const root = op.output.schema;
  const schema = resolveLocal(root, root);
  const props = schema && typeof schema.properties === "object" && schema.properties !== null ? Object.keys(schema.properties) : [];
  return props;
}

/** What the contract promises about one command: preview, key, pages, preconditions. */
function ruleLines(op: OperationModel, command: CommandSpec): string[] {
  const lines: string[] = [];
  const p = op.preview;
  if (p) {
    lines.push(`- Preview: ${markdownCode("--dry-run")} returns a confirm token${p.expiresAtField ? ` (expiry in ${markdownCode(p.expiresAtField)})` : ""}, valid ${markdownText(p.ttl)}${p.singleUse ? ", single use" : ""}; then the same command with ${markdownCode("--confirm <token>")}.${p.defaultDryRun ? " Without --confirm the command only previews." : ""}`);
  }
  const k = op.idempotency;
  if (k) {
    lines.push(`- Operation key: ${markdownCode("--operation-key <key>")}, one per intended effect, reused on every retry of it (kept ${markdownText(k.retention)})${k.mismatchError ? `; the same key with other parameters is ${markdownCode(k.mismatchError)}` : ""}.`);
  }
  if (op.pagination) {
    lines.push(`- Pages: ${command.allMethod ? `${markdownCode("--all")} with ${markdownCode("--max-pages")} / ${markdownCode("--max-items")} reads every page; ` : ""}exit ${EXIT_CODES.incomplete} means incomplete: continue from the printed ${markdownCode("continuation")} or raise the bounds.`);
  } else if (op.task) {
    lines.push(`- Completeness: ${markdownCode(op.task.completeField)} says whether the answer is complete${op.task.continuationField ? `; continue with ${markdownCode(op.task.continuationField)}` : ""}.`);
  }
  for (const pre of op.preconditions) {
    const flag = command.flags.find((f) => f.field === pre.field)?.flag;
    lines.push(`- Precondition: ${markdownCode(flag === undefined ? pre.field : `--${flag}`)} must match the current ${markdownText(pre.compares)}, else ${markdownCode(pre.error)} and no change.`);
  }
  return lines;
}

function commandSection(model: ContractModel, op: OperationModel, command: CommandSpec): string[] {
  const byCode = new Map(model.errors.map((e) => [e.code, e] as const));
  const lines = [`## ${markdownCode(command.name)}`, ""];
  if (command.summary) lines.push(markdownText(sentence(command.summary, 300)), "");
  if (op.description && op.description !== command.summary) lines.push(markdownText(sentence(op.description, 600)), "");
  lines.push(markdownText(effectsLine(op).replaceAll("`", "")), "");
  if (op.deprecated) lines.push(`Deprecated since ${markdownText(op.deprecated.since)}${op.deprecated.replacement ? `; use ${markdownCode(op.deprecated.replacement)}` : ""}.`, "");
  const rules = ruleLines(op, command);
  if (rules.length > 0) lines.push(...rules, "");
  if (command.flags.length > 0 || command.inputOnly.length > 0) {
    lines.push("Flags:", "", ...command.flags.map(flagLine));
    if (command.inputOnly.length > 0) lines.push(`- ${markdownCode("--input <file>")}: the only way to set ${command.inputOnly.map((f) => markdownCode(f)).join(", ")}`);
    lines.push("");
  }
  const fields = outputFields(op);
  if (fields.length > 0) lines.push(`Output fields: ${fields.map((f) => markdownCode(f)).join(", ")}.`, "");
  if (op.errors.length > 0) {
    lines.push("Errors:", "");
    for (const ref of op.errors) {
      const e = byCode.get(ref.code);
      lines.push(e ? `- ${markdownCode(e.code)} (${markdownText(e.class)}) → ${markdownCode(e.action)}` : `- ${markdownCode(ref.code)}`);
    }
    lines.push("");
  }
  const example = commandExample(cliName(model), command.name, op, command.flags);
  // A previewable command's worked invocation is the flow: preview, then confirm with the token it returned.
  const examples = command.dryRunField ? [`${example} --dry-run`, `${example} --confirm <token>`] : [example];
  lines.push("Example:", "", ...fenced(examples), "");
  return lines;
}

/** A fenced code block that no line of the text can close. */
function fenced(commands: readonly string[]): string[] {
  const safe = commands.map((c) => plainText(c).replace(/\n/g, " "));
  const longest = Math.max(2, ...safe.flatMap((c) => [...c.matchAll(/`+/g)].map((m) => m[0].length)));
  const fence = "`".repeat(longest + 1);
  return [`${fence}sh`, ...safe, fence];
}

/** `references/<file>.md` → its text: each command's flags, output fields, rules, errors and one worked invocation. */
export function skillReferences(model: ContractModel, groups: readonly SkillGroup[] = skillGroups(model)): Map<string, string> {
  const ops = new Map(model.operations.map((op) => [op.names.id, op] as const));
  const out = new Map<string, string>();
  for (const g of groups) {
    const lines = [`# ${markdownText(g.group ?? DEFAULT_GROUP)}: commands of ${markdownCode(cliName(model))}`, ""];
    if (g.description) lines.push(markdownText(sentence(g.description, 600)), "");
    for (const command of g.commands) lines.push(...commandSection(model, ops.get(command.operation)!, command));
    out.set(`references/${g.file}.md`, `${lines.join("\n").trimEnd()}\n`);
  }
  return out;
}

/** The skill's three parts. */
export function skillParts(model: ContractModel): SkillParts {
  const groups = skillGroups(model);
  return { name: skillName(model), listing: skillListing(model), body: skillBody(model, groups), references: skillReferences(model, groups) };
}

/** The skill's files, by path relative to the package root: `skill/<name>/SKILL.md` and `skill/<name>/references/<group>.md`. */
export function emitSkill(model: ContractModel): Map<string, string> {
  const parts = skillParts(model);
  const root = `skill/${parts.name}`;
  const files = new Map<string, string>([[`${root}/SKILL.md`, `---\n${parts.listing}---\n\n${parts.body.trimEnd()}\n`]]);
  for (const [path, text] of parts.references) files.set(`${root}/${path}`, text);
  return files;
}
