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
import { baseUrlEnvOf, cliFlagNames, cliName, commandNames, resolveLocal } from "../../model/naming.js";
import { isSchemaObject, type SchemaObject } from "../../contract/schema-walk.js";
import { authEnvVars, type ContractModel, type OperationModel } from "../../model/types.js";
import { commandExample, commandSpecs } from "../cli/commands.js";
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

/** Commands per reference file: a larger group is split into numbered parts (in name order), so no reference costs more than a few thousand tokens. */
export const SKILL_REFERENCE_COMMAND_LIMIT = 40;

/** Shown for commands of a contract that declares no toolsets. */
const DEFAULT_GROUP = "commands";

/** What the body and the grouping need of a command: its name, group and summary (its flags only the references show). */
export type CommandListing = Pick<CommandSpec, "name" | "group" | "summary">;

/**
 * Every command's listing, in operation order, without building its flags: what the body of a
 * large contract costs to render (the diff's skill rules and the skill budget render it for each
 * side) is then its names and summaries, not 1,000 commands' flag specs.
 */
export function commandListing(model: ContractModel): CommandListing[] {
  const names = commandNames(model);
  return model.operations.map((op) => ({ name: names.get(op.names.id)!, group: op.toolset, summary: op.summary }));
}

/** One reference file: the commands of one group (or one part of a large group). */
export interface SkillGroup<C extends CommandListing = CommandSpec> {
  /** The group as the contract names it (a toolset), or null: the contract declares none. */
  readonly group: string | null;
  /** File name stem: `references/<file>.md`. */
  readonly file: string;
  readonly description: string;
  readonly commands: readonly C[];
  /** For one part of a group split in name order: its first and last command; null when the group is whole. */
  readonly range: readonly [string, string] | null;
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
export function skillGroups<C extends CommandListing>(model: ContractModel, commands: readonly C[]): SkillGroup<C>[] {
  const byGroup = new Map<string | null, C[]>();
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
  const groups: SkillGroup<C>[] = [];
  for (const [group, list] of byGroup) {
    if (list.length === 0) continue;
    const stem = fileStem(group ?? DEFAULT_GROUP);
    const parts = Math.ceil(list.length / SKILL_REFERENCE_COMMAND_LIMIT);
    // A group split into parts is split in name order, so the index can say which names each part holds.
    const ordered = parts === 1 ? list : [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (let p = 0; p < parts; p++) {
      const commands = ordered.slice(p * SKILL_REFERENCE_COMMAND_LIMIT, (p + 1) * SKILL_REFERENCE_COMMAND_LIMIT);
      groups.push({
        group,
        file: claim(parts === 1 ? stem : `${stem}-${p + 1}`),
        description: group === null ? "" : (descriptions.get(group) ?? ""),
        commands,
        range: parts === 1 ? null : [commands[0]!.name, commands.at(-1)!.name],
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

/**
 * The front matter's `description`: what the API does, in the contract's words, and when to use the
 * skill. No version: the listing an agent keeps in context says what the API is for, which a release
 * rarely changes (the version is in `metadata`).
 */
export function skillDescription(model: ContractModel): string {
  const title = sentence(model.title || model.name, 120);
  const kept = keptBehaviours(model);
  const when = ` Use when a task needs ${title}: run the \`${sentence(cliName(model), 64)}\` CLI${kept ? `, which keeps the contract's ${kept}` : ""}.`;
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

/**
 * What sits in an agent's context before it picks the skill (the format loads `name` and
 * `description` only): what the budget's listing cost and the diff's listing rule measure.
 */
export function skillListingText(model: ContractModel): string {
  return `name: ${skillName(model)}\ndescription: ${skillDescription(model)}`;
}

/** The exit code of each error class (the CLI runtime's mapping), for the rows a contract's classes need. */
const EXIT_BY_CLASS = new Map<string, number>([
  ["invalid_input", EXIT_CODES.usage], ["not_found", EXIT_CODES.notFound], ["conflict", EXIT_CODES.conflict],
  ["permission", EXIT_CODES.permission], ["unauthenticated", EXIT_CODES.unauthenticated], ["transient", EXIT_CODES.transient],
  ["rate_limited", EXIT_CODES.rateLimited], ["internal", EXIT_CODES.internal],
]);

/**
 * The exit codes this contract's CLI can end with, each with its class and its one action: success,
 * internal and usage always; a class's code when the contract declares an error of it (or, for
 * `conflict`, a precondition); unknown outcome when an operation mutates; incomplete when one pages
 * or reports its completeness.
 */
function exitCodeLines(model: ContractModel): string[] {
  const classes = new Set<string>(model.errors.map((e) => e.class));
  if (model.operations.some((op) => op.preconditions.length > 0)) classes.add("conflict");
  const wanted = new Set<number>([EXIT_CODES.success, EXIT_CODES.internal, EXIT_CODES.usage]);
  for (const cls of classes) wanted.add(EXIT_BY_CLASS.get(cls) ?? EXIT_CODES.internal);
  if (model.operations.some((op) => op.effects.kind !== "read")) wanted.add(EXIT_CODES.unknownOutcome);
  if (model.operations.some((op) => op.pagination || op.task)) wanted.add(EXIT_CODES.incomplete);
  const classOf = new Map([...EXIT_BY_CLASS].filter(([cls]) => cls !== "internal").map(([cls, code]) => [code, cls] as const));
  // A class's row is named by the class (the references name each code's class); the others say what happened.
  return EXIT_CODE_TABLE.filter(([code]) => wanted.has(code)).map(([code, meaning, action]) => {
    const cls = classOf.get(code);
    return `- ${code}${cls ? ` ${markdownCode(cls)}` : `: ${markdownText(meaning.replaceAll("`", ""))}`} → ${markdownText(action.replaceAll("`", ""))}`;
  });
}

/** How to run the CLI: the bin, the credential and base-URL variables, input. */
function runSection(model: ContractModel): string[] {
  const bin = cliName(model);
  const creds = authEnvVars(model.transport.auth);
  return [
    `Run the ${markdownCode(bin)} CLI (inside the package: ${markdownCode("npm run build")}, then ${markdownCode("node dist/cli/main.js")}); ${markdownCode(`${bin} <command> --help`)} shows a command's flags.`,
    "",
    creds.length > 0 ? `- Credentials: ${creds.map((v) => markdownCode(v)).join(", ")} (environment).` : "- Credentials: none.",
    `- Platform: ${markdownCode(baseUrlEnvOf(model.name, model.transport.baseUrlEnv))} or ${markdownCode("--base-url")} (default ${markdownCode(model.transport.baseUrl)}).`,
    `- Input: one flag per field, or ${markdownCode("--input file.json")} (${markdownCode("-")}: stdin).`,
    "",
  ];
}

/** The rules the contract imposes, stated once for every command that has them, and the exit codes. */
function rulesSection(model: ContractModel): string[] {
  const ops = model.operations;
  const lines = ["## Rules", ""];
  lines.push("- JSON results on stdout, JSON errors on stderr: branch on the exit code, not on text.");
  if (ops.some((op) => op.preview)) {
    lines.push(`- Preview, then confirm: ${markdownCode("--dry-run")} previews and returns a confirm token; show the preview to the user, then run the same command with ${markdownCode("--confirm <token>")} before the token expires.`);
  }
  if (ops.some((op) => op.idempotency)) {
    lines.push(`- One operation key per intended effect: a retry of the effect reuses its ${markdownCode("--operation-key")}, another effect never does (omitted, the journal picks or recovers one).`);
  }
  if (ops.some((op) => op.pagination || op.task)) {
    lines.push(`- Incomplete answers: exit ${EXIT_CODES.incomplete} means the answer is not whole: continue from the printed ${markdownCode("continuation")} as the command's reference says, or raise the bounds; never report a partial answer as the whole.`);
  }
  if (ops.some((op) => op.preconditions.length > 0)) lines.push("- Preconditions: pass the revision or value you read; a mismatch changes nothing: re-read, then decide again.");
  lines.push("", "Exit codes (each error code's own action is in the references):", "", ...exitCodeLines(model), "");
  return lines;
}

/** The index: every command on one line, or, for a large contract, every group with its count. */
function indexSection(groups: readonly SkillGroup<CommandListing>[], total: number): string[] {
  const lines = ["## Commands", ""];
  if (total <= SKILL_BODY_COMMAND_LIMIT) {
    for (const g of groups) {
      const about = g.description ? `: ${markdownText(sentence(g.description, 80))}` : "";
      lines.push(`[${markdownText(g.group ?? DEFAULT_GROUP)}](references/${g.file}.md)${about}`, "");
      for (const c of g.commands) lines.push(`- ${markdownCode(c.name)}: ${markdownText(sentence(c.summary, 120))}`);
      lines.push("");
    }
    return lines;
  }
  lines.push(`${total} commands in ${groups.length} reference files (file, how many commands and, for a group in parts, the names from first to last, what they cover); read the one a task needs:`, "");
  let previous: string | null | undefined;
  for (const g of groups) {
    // One short line a group: the file, the group's name only where the file name does not already say it, the count;
    // a group in parts says what it covers once, on its first part.
    const about = g.description && g.group !== previous ? `: ${markdownText(sentence(g.description, 60))}` : "";
    previous = g.group;
    const file = g.range ? g.file.replace(/-\d+$/, "") : g.file;
    const named = g.group === null || file === fileStem(g.group) ? "" : ` ${markdownText(g.group)}`;
    const range = g.range ? `: ${markdownCode(g.range[0])} to ${markdownCode(g.range[1])}` : "";
    lines.push(`- references/${g.file}.md${named} (${g.commands.length}${range})${about}`);
  }
  lines.push("");
  return lines;
}

/** SKILL.md after the front matter. */
export function skillBody(model: ContractModel, groups: readonly SkillGroup<CommandListing>[] = skillGroups(model, commandListing(model))): string {
  const total = groups.reduce((n, g) => n + g.commands.length, 0);
  return [`# ${markdownText(model.title || model.name)}`, "", ...runSection(model), ...rulesSection(model), ...indexSection(groups, total)].join("\n");
}

/** What a flag takes, as its usage shows it: `<string>`, `<open|closed>`, `[true|false]`, several types joined. */
function flagValue(flag: FlagSpec): string {
  if (flag.enum && flag.enum.length > 0 && flag.enum.length <= 12) return `<${flag.enum.map(String).join("|")}>`;
  const type = flag.type === "array" ? (flag.itemType ?? "string") : flag.alternatives ? flag.alternatives.join("|") : flag.type;
  return flag.type === "boolean" ? "[true|false]" : `<${type}>`;
}

/** What a flag means: the field's description (one sentence's worth), its format, pattern (verbatim, as code), unit and default. */
function flagAbout(flag: FlagSpec, schema: SchemaObject | undefined): string {
  const parts: string[] = [];
  const description = typeof schema?.description === "string" ? schema.description : schema === undefined ? flag.description : "";
  if (description) parts.push(markdownText(sentence(description, 160)));
  if (flag.enum && flag.enum.length > 12) parts.push(`One of ${flag.enum.slice(0, 12).map((v) => markdownCode(String(v))).join(", ")}, ….`);
  if (typeof schema?.format === "string") parts.push(`Format: ${markdownText(schema.format)}.`);
  if (typeof schema?.pattern === "string") parts.push(`Pattern: ${markdownCode(schema.pattern)}.`);
  if (typeof schema?.["x-unit"] === "string") parts.push(`Unit: ${markdownText(schema["x-unit"])}.`);
  if (schema && "default" in schema) parts.push(`Default: ${markdownCode(JSON.stringify(schema.default) ?? "")}.`);
  if (flag.file) parts.push(`${markdownCode("@path")} reads a file, ${markdownCode("-")} stdin.`);
  return parts.join(" ");
}

/** One flag on one line: name and value, required or repeatable, then what it means. */
function flagLine(flag: FlagSpec, schema: SchemaObject | undefined): string {
  const marks = [flag.required ? "required" : "", flag.type === "array" ? "repeatable" : ""].filter(Boolean);
  const about = flagAbout(flag, schema);
  return `- ${markdownCode(`--${flag.flag} ${flagValue(flag)}`)}${marks.length > 0 ? ` (${marks.join(", ")})` : ""}${about ? `: ${about}` : ""}`;
}

/** The output's top-level fields, named as the JSON on stdout names them. */
function outputFields(op: OperationModel): string[] {
  const root = op.output.schema;
  const schema = resolveLocal(root, root);
  return schema && typeof schema.properties === "object" && schema.properties !== null ? Object.keys(schema.properties) : [];
}

/** What a call does to the world, in a few words (the effects line of --help, shortened: the rules below carry the key). */
function effectsWords(op: OperationModel): string {
  const e = op.effects;
  if (e.kind === "read") return "Read-only; safe to retry.";
  const idempotent = e.idempotent === "key" ? "idempotent under its operation key" : e.idempotent === "natural" ? "naturally idempotent" : "not idempotent (never retried automatically)";
  const parts = ["Mutates", e.destructive ? "destructive" : "non-destructive", e.reversible ? "reversible" : "irreversible", idempotent];
  if (e.openWorld) parts.push("reaches systems outside the platform");
  return `${parts[0]}: ${parts.slice(1).join(", ")}.`;
}

/** What the contract promises about one command: preview, key, pages, projection, preconditions. */
function ruleLines(op: OperationModel, command: CommandSpec): string[] {
  const lines: string[] = [];
  const p = op.preview;
  if (p) {
    const previewRoot = p.output?.schema;
    const previewSchema = previewRoot ? resolveLocal(previewRoot, previewRoot) : undefined;
    const tokenShown = isSchemaObject(previewSchema?.properties) && Object.hasOwn(previewSchema.properties, p.confirmTokenField);
    lines.push(`- Preview: ${markdownCode("--dry-run")} returns a confirm token${tokenShown ? ` in ${markdownCode(p.confirmTokenField)}` : ""}${p.expiresAtField ? ` (expiry in ${markdownCode(p.expiresAtField)})` : ""}, valid ${markdownText(p.ttl)}${p.singleUse ? ", single use" : ""}; then the same command with ${markdownCode("--confirm <token>")}.${p.defaultDryRun ? " Without --confirm the command only previews." : ""}`);
  }
  const k = op.idempotency;
  if (k) {
    // What the platform accepts as a key (a UUID, a pattern), so an agent that names its own key picks a valid one.
    const inputRoot = op.input.schema;
    const inputSchema = resolveLocal(inputRoot, inputRoot);
    const keySchema = isSchemaObject(inputSchema?.properties) ? resolveLocal(inputSchema.properties[k.keyField], inputRoot) : undefined;
    const shape = typeof keySchema?.format === "string" ? ` (format ${markdownText(keySchema.format)})` : typeof keySchema?.pattern === "string" ? ` (pattern ${markdownCode(keySchema.pattern)})` : "";
    lines.push(`- Operation key: ${markdownCode("--operation-key <key>")}${shape}, one per intended effect, reused on every retry of it (kept ${markdownText(k.retention)})${k.mismatchError ? `; the same key with other parameters is ${markdownCode(k.mismatchError)}` : ""}.`);
  }
  const flagOf = (field: string | null) => (field === null ? undefined : command.flags.find((f) => f.field === field)?.flag);
  if (op.pagination) {
    // A cursor traversal resumes where it stopped: its continuation is a cursor the cursor flag takes (the SDK's resumeFrom).
    const cursor = flagOf(command.cursorField);
    const resume = cursor ? `run it again with the same flags and ${markdownCode(`--${cursor} <continuation>`)}` : `raise ${markdownCode("--max-pages")} / ${markdownCode("--max-items")}`;
    lines.push(`- Pages: ${command.allMethod ? `${markdownCode("--all")} reads every page within ${markdownCode("--max-pages")} / ${markdownCode("--max-items")}; ` : ""}exit ${EXIT_CODES.incomplete} means incomplete: ${resume}.`);
  } else if (op.task) {
    const resume = flagOf(op.task.continuationField);
    const next = op.task.continuationField ? (resume ? `; run it again with the same flags and ${markdownCode(`--${resume} <${op.task.continuationField}>`)}` : `; continue with ${markdownCode(op.task.continuationField)}`) : "";
    lines.push(`- Completeness: the answer is whole only when ${markdownCode(op.task.completeField)} is true${next}.`);
  }
  if (command.fieldsField) lines.push(`- Fields: ${markdownCode("--fields a,b")} returns only those (identity fields always come back).`);
  for (const pre of op.preconditions) {
    const flag = command.flags.find((f) => f.field === pre.field)?.flag;
    lines.push(`- Precondition: ${markdownCode(flag === undefined ? pre.field : `--${flag}`)} must match the current ${markdownText(pre.compares)}, else ${markdownCode(pre.error)} and no change.`);
  }
  return lines;
}

/** An error as a reference shows it: code, class and its one action. */
function errorItem(model: ContractModel, code: string): string {
  const e = model.errors.find((candidate) => candidate.code === code);
  return e ? `${markdownCode(e.code)} (${markdownText(e.class)}) → ${markdownCode(e.action)}` : markdownCode(code);
}

/** What the commands of one reference file share: a flag line shown once (with the command it was shown under), errors every command raises. */
interface SharedInFile {
  readonly flagShownUnder: Map<string, string>;
  readonly commonErrors: ReadonlySet<string>;
}

function commandSection(model: ContractModel, op: OperationModel, command: CommandSpec, shared: SharedInFile): string[] {
  const lines = [`## ${markdownCode(command.name)}`, ""];
  if (command.summary) lines.push(markdownText(sentence(command.summary, 300)), "");
  if (op.description && op.description !== command.summary) lines.push(markdownText(sentence(op.description, 600)), "");
  lines.push(effectsWords(op), "");
  if (op.deprecated) lines.push(`Deprecated since ${markdownText(op.deprecated.since)}${op.deprecated.replacement ? `; use ${markdownCode(op.deprecated.replacement)}` : ""}.`, "");
  const rules = ruleLines(op, command);
  if (rules.length > 0) lines.push(...rules, "");
  if (command.flags.length > 0 || command.inputOnly.length > 0) {
    const schemas = new Map(cliFlagNames(op).flags.map((f) => [f.field, f.schema] as const));
    const fresh: string[] = [];
    const repeated = new Map<string, string[]>();
    for (const flag of command.flags) {
      const line = flagLine(flag, schemas.get(flag.field));
      const under = shared.flagShownUnder.get(line);
      if (under === undefined) {
        shared.flagShownUnder.set(line, command.name);
        fresh.push(line);
      } else repeated.set(under, [...(repeated.get(under) ?? []), markdownCode(`--${flag.flag}`)]);
    }
    lines.push("Flags:", "", ...fresh);
    for (const [under, flags] of repeated) lines.push(`- ${flags.join(", ")}: as in ${markdownCode(under)}`);
    if (command.inputOnly.length > 0) lines.push(`- ${markdownCode("--input <file>")}: the only way to set ${command.inputOnly.map((f) => markdownCode(f)).join(", ")}`);
    lines.push("");
  }
  const fields = outputFields(op);
  if (fields.length > 0) lines.push(`Output fields: ${fields.map((f) => markdownCode(f)).join(", ")}.`, "");
  const own = op.errors.filter((ref) => !shared.commonErrors.has(ref.code));
  if (own.length > 0) lines.push(`Errors${shared.commonErrors.size > 0 ? " (besides the common ones above)" : ""}: ${own.map((ref) => errorItem(model, ref.code)).join("; ")}.`, "");
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

/** Error codes every command of a file raises (none for a file of one command: its own list says them). */
function commonErrors(model: ContractModel, ops: readonly OperationModel[]): string[] {
  if (ops.length < 2) return [];
  const [first, ...rest] = ops;
  return first!.errors.map((ref) => ref.code).filter((code) => rest.every((op) => op.errors.some((ref) => ref.code === code)));
}

/** `references/<file>.md` → its text: each command's flags, output fields, rules, errors and one worked invocation. */
export function skillReferences(model: ContractModel, groups: readonly SkillGroup[] = skillGroups(model, commandSpecs(model))): Map<string, string> {
  const ops = new Map(model.operations.map((op) => [op.names.id, op] as const));
  const out = new Map<string, string>();
  for (const g of groups) {
    const lines = [`# ${markdownText(g.group ?? DEFAULT_GROUP)}: commands of ${markdownCode(cliName(model))}`, ""];
    if (g.description) lines.push(markdownText(sentence(g.description, 600)), "");
    const groupOps = g.commands.map((command) => ops.get(command.operation)!);
    const common = commonErrors(model, groupOps);
    if (common.length > 0) lines.push(`Errors every command here may end with: ${common.map((code) => errorItem(model, code)).join("; ")}.`, "");
    const shared: SharedInFile = { flagShownUnder: new Map(), commonErrors: new Set(common) };
    g.commands.forEach((command, i) => lines.push(...commandSection(model, groupOps[i]!, command, shared)));
    out.set(`references/${g.file}.md`, `${lines.join("\n").trimEnd()}\n`);
  }
  return out;
}

/** The skill's three parts. */
export function skillParts(model: ContractModel): SkillParts {
  const groups = skillGroups(model, commandSpecs(model));
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
