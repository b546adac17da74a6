/** Runs the rules over two contracts and applies the user's configuration. */
import type { ContractModel, StabilityLevel } from "../model/types.js";
import type { SourceFile } from "../contract/source.js";
import { type Finding, type FindingPlaces, DiffContext, DiffSide, type OperationRename, overlaps, type PathParameterRename, type ReleaseDate, type Rule, type Severity, SEVERITIES } from "./rule.js";
import { RULES } from "./rules/index.js";
import { structuralDiff } from "./structural.js";
import { relaxedSeverity, STABILITY_RULES, stabilityHint, stabilityRank } from "./stability.js";
import { newestChangelogDate, pairOperations, pairPathParameters } from "./rules/_pairs.js";
import { askedTypeStillOffered } from "./rules/_media.js";
import { cliFlagChanges, type ContractTree, contractTree, pathKey, rekeyPointers, RETURNS, type TreeNode, type TreeValue } from "./tree.js";

export interface DiffConfig {
  /** Per-rule severity, or "off". */
  readonly rules?: Readonly<Record<string, Severity | "off">>;
  /** Accepted findings: each needs a reason, kept in the report. */
  readonly ignore?: ReadonlyArray<{ readonly rule: string; readonly operation?: string; readonly reason: string }>;
  /** What consumers do (see DiffOptions). */
  readonly strictOutputValidation?: boolean;
  /** The date the diff runs (YYYY-MM-DD; default today in UTC): sunsets of a side without a release date are judged by it. */
  readonly today?: string;
}

export interface DiffReport {
  readonly old: { readonly file: string; readonly version: string };
  readonly new: { readonly file: string; readonly version: string };
  /** Primary findings; what follows from each is in its `consequences`. */
  readonly findings: readonly Finding[];
  readonly ignored: ReadonlyArray<Finding & { readonly reason: string }>;
  /** Primary findings by severity. */
  readonly summary: Readonly<Record<Severity, number>>;
  /** Document pointers, per side, of schemas compared only as far as MAX_SCHEMA_NODES (tree.ts). */
  readonly oversized?: { readonly old: readonly string[]; readonly new: readonly string[] };
}

export interface DiffInputSide {
  readonly model: ContractModel;
  readonly source?: SourceFile;
  /** How the side was named on the command line (a path or git ref). */
  readonly label: string;
  /**
   * Whether the document dates its release. An OpenAPI document does not (its import writes a
   * placeholder changelog date so re-imports are identical): no finding may be judged by that date.
   */
  readonly dated?: boolean;
  /**
   * Whether the document's version is its own semantic version. An OpenAPI document whose
   * info.version is not one (Stripe's dates) gets one made up by the import: the version policy
   * cannot judge made-up numbers.
   */
  readonly versioned?: boolean;
}

/** Today in UTC as YYYY-MM-DD. */
export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

const ORDER: Record<Severity, number> = { breaking: 0, warning: 1, info: 2 };

function compare(a: Finding, b: Finding): number {
  const op = (f: Finding) => f.operation ?? f.operations[0] ?? "";
  return (
    (op(a) < op(b) ? -1 : op(a) > op(b) ? 1 : 0) ||
    ORDER[a.severity] - ORDER[b.severity] ||
    (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}

/** A finding whose `consequences` can still be filled in (the engine's own working copy). */
type Working = Finding & { consequences: Finding[] };

const sharesOperation = (a: Finding, b: Finding) =>
  a.operations.length === 0 ? b.operations.length === 0 : a.operations.some((o) => b.operations.includes(o));

const sameNode = (a: Finding, b: Finding) =>
  (a.old !== null && b.old !== null && overlaps(a.old.pointer, b.old.pointer)) || (a.new !== null && b.new !== null && overlaps(a.new.pointer, b.new.pointer));

/** Every finding, consequences included. */
export function allFindings(findings: readonly Finding[]): Finding[] {
  return findings.flatMap((f) => [f, ...allFindings(f.consequences)]);
}

/**
 * The old side's tree with each renamed operation moved from operations/<from> to operations/<to>,
 * recorded pointers included (they keep pointing at /operations/<from> in the old document). The
 * trees are the diff's own: the structural diff then compares the old operation with the new one.
 */
function renameOperations(tree: ContractTree, renames: readonly OperationRename[]): ContractTree {
  if (renames.length === 0) return tree;
  const to = new Map(renames.map((r) => [r.from, r.to]));
  const before = tree.root.operations as TreeNode;
  const operations: TreeNode = Object.create(null) as TreeNode;
  for (const id of Object.keys(before)) operations[to.get(id) ?? id] = before[id]!;
  const head = pathKey(["operations", ""]);
  const pointers = new Map<string, string>();
  for (const [key, pointer] of tree.pointers) {
    const end = key.startsWith(head) ? key.indexOf("\u0000", head.length) : -1;
    const id = key.startsWith(head) ? key.slice(head.length, end < 0 ? undefined : end) : undefined;
    const moved = id !== undefined ? to.get(id) : undefined;
    pointers.set(moved !== undefined ? head + moved + (end < 0 ? "" : key.slice(end)) : key, pointer);
  }
  return { root: { ...tree.root, operations }, pointers, oversized: tree.oversized };
}

/**
 * The old side's tree with each path parameter renamed in place kept under its new name: its input
 * property, its required mark, its binding (given the new wire name: the position is the same) and
 * its style, and the operation's path template. Recorded pointers keep pointing at the old document.
 */
function renamePathParameters(tree: ContractTree, side: DiffSide, renames: readonly PathParameterRename[], newSide: DiffSide): ContractTree {
  if (renames.length === 0) return tree;
  const pointers = tree.pointers as Map<string, string>;
  const operations = tree.root.operations as TreeNode;
  const copy = (node: TreeValue | undefined): TreeNode => Object.assign(Object.create(null) as TreeNode, node as TreeNode);
  const moved: TreeNode = Object.assign(Object.create(null) as TreeNode, operations);
  for (const id of new Set(renames.map((r) => r.operation))) {
    const op = copy(operations[id]);
    const input = copy(op.input);
    const http = copy(op.http);
    const members = { properties: copy(input.properties), required: copy(input.required), bindings: copy(http.bindings), styles: copy(http.styles) };
    const newHttp = newSide.get(["operations", id, "http"]) as TreeNode;
    for (const r of renames.filter((x) => x.operation === id)) {
      for (const [where, key] of [[["input", "properties"], "properties"], [["input", "required"], "required"], [["http", "bindings"], "bindings"], [["http", "styles"], "styles"]] as const) {
        const node = members[key];
        if (!(r.from in node)) continue;
        const at = ["operations", id, ...where];
        const pointer = side.pointer([...at, r.from]);
        rekeyPointers(tree, at, r.from, r.to);
        pointers.set(pathKey([...at, r.to]), pointer);
        node[r.to] = key === "bindings" ? (newHttp.bindings as TreeNode)[r.to]! : node[r.from]!;
        delete node[r.from];
      }
    }
    if (input.properties !== undefined) input.properties = members.properties;
    if (input.required !== undefined) input.required = members.required;
    http.bindings = members.bindings;
    http.styles = members.styles;
    http.path = newHttp.path!;
    op.input = input;
    op.http = http;
    moved[id] = op;
  }
  return { root: { ...tree.root, operations: moved }, pointers, oversized: tree.oversized };
}

/**
 * An operation whose generated clients now ask for another media type of its response while the
 * old one is still offered: callers asking for the old type get what they got, so the output is not
 * compared as one type turning into another (text into JSON). media-type-preferred-changed reports
 * the switch. The old tree takes the new output.
 */
function keepOfferedOutputs(tree: ContractTree, oldSide: DiffSide, newSide: DiffSide): ContractTree {
  const operations = tree.root.operations as TreeNode;
  let moved: TreeNode | undefined;
  for (const op of newSide.model.operations) {
    const id = newSide.treeId(op);
    const before = oldSide.operation(id);
    if (before === undefined || !askedTypeStillOffered(before, op)) continue;
    const newReturns = (newSide.get(["operations", id]) as TreeNode)[RETURNS] as TreeNode;
    const oldOp = operations[id] as TreeNode;
    const returns: TreeNode = Object.assign(Object.create(null) as TreeNode, oldOp[RETURNS] as TreeNode, { output: newReturns.output! });
    moved ??= Object.assign(Object.create(null) as TreeNode, operations);
    moved[id] = Object.assign(Object.create(null) as TreeNode, oldOp, { [RETURNS]: returns });
  }
  return moved === undefined ? tree : { root: { ...tree.root, operations: moved }, pointers: tree.pointers, oversized: tree.oversized };
}

export function runDiff(before: DiffInputSide, after: DiffInputSide, config: DiffConfig = {}, rules: readonly Rule[] = RULES): DiffReport {
  const builtOld = contractTree(before.model);
  const newTree = contractTree(after.model);
  const newSide = new DiffSide(after.model, newTree, after.source);
  // A renamed operation is compared with its old self: the old tree keeps it under its new id.
  const renames = pairOperations(new DiffSide(before.model, builtOld, before.source), newSide);
  const aliases = new Map(renames.map((r) => [r.to, r.from]));
  const renamedTree = renameOperations(builtOld, renames);
  // A path parameter renamed in place is compared with its old self under its new name.
  const renamedSide = new DiffSide(before.model, renamedTree, before.source, aliases);
  const pathRenames = pairPathParameters(renamedSide, newSide);
  const oldTree = renamePathParameters(renamedTree, renamedSide, pathRenames, newSide);
  const oldSide = new DiffSide(before.model, keepOfferedOutputs(oldTree, renamedSide, newSide), before.source, aliases);
  const structural = structuralDiff(oldSide.tree.root, newSide.tree.root, (members, from, to) => rekeyPointers(oldTree, members, from, to));
  const changes = [...structural, ...cliFlagChanges(oldSide, newSide, structural)];
  const release: ReleaseDate =
    after.dated === false
      ? { date: config.today ?? todayUtc(), from: "run" }
      : { date: newestChangelogDate(after.model), from: "changelog" };
  const options = { strictOutputValidation: config.strictOutputValidation === true, release, versioned: before.versioned !== false && after.versioned !== false };
  const byId = new Map(rules.map((r) => [r.id, r]));

  const severityOf = (rule: Rule): Severity | "off" => config.rules?.[rule.id] ?? rule.severity;
  // The most settled level the old contract gave the operations a finding is about: one stable
  // operation among them keeps the finding's full weight.
  const mostSettled = (operations: readonly string[]): StabilityLevel | null => {
    const levels = operations.map((id) => oldSide.operation(id)?.stability ?? null);
    return levels.length === 0 ? null : levels.reduce((a, b) => (stabilityRank(b) > stabilityRank(a) ? b : a));
  };
  const about = new Map<Finding, Finding>();
  const paths = new Map<Finding, readonly string[]>();
  const places = new Map<Finding, FindingPlaces>();
  const run = (rule: Rule, ctx: DiffContext): Working[] => {
    const severity = severityOf(rule);
    if (severity === "off" || rule.replacedBy) return [];
    return rule.check(ctx).map((f) => {
      const operations = f.operations ?? (f.operation === null ? [] : [f.operation]);
      const level = STABILITY_RULES.has(rule.id) ? null : mostSettled(operations);
      const relaxed = relaxedSeverity(severity, level);
      const finding: Working = {
        rule: rule.id,
        severity: relaxed,
        category: rule.category,
        operation: f.operation,
        operations,
        message: f.message,
        hint: level !== null && relaxed !== severity ? `${stabilityHint(level)} ${f.hint ?? rule.hint}` : (f.hint ?? rule.hint),
        old: f.before ? oldSide.locate(f.before) : null,
        new: f.after ? newSide.locate(f.after) : null,
        // A removed thing is annotated on the new file at its nearest surviving parent.
        anchor: f.after ? newSide.locate(f.after) : f.before ? newSide.locate(f.before) : null,
        consequences: [],
        ...(f.type ? { type: f.type } : {}),
      };
      if (f.about) about.set(finding, f.about);
      const path = f.after ?? f.before;
      if (path) paths.set(finding, path);
      places.set(finding, { before: f.before, after: f.after, ...(f.subtree ? { subtree: true } : {}) });
      return finding;
    });
  };

  const ignored: Array<Finding & { reason: string }> = [];
  const waive = (findings: Working[]): Working[] =>
    findings.filter((f) => {
      const waiver = config.ignore?.find((i) => i.rule === f.rule && (i.operation === undefined || i.operation === f.operation || f.operations.includes(i.operation)));
      if (waiver) ignored.push({ ...f, reason: waiver.reason });
      return !waiver;
    });

  const base = new DiffContext(oldSide, newSide, changes, [], options, new Map(), renames, new Map(), pathRenames);
  const flat = waive(rules.filter((r) => r.phase === undefined).flatMap((r) => run(r, base))).sort(compare);
  // One edit, one primary finding: what follows from it (a derived MCP annotation, a CLI flag) goes under it.
  const derivedFrom = (f: Finding) => byId.get(f.rule)?.consequenceOf;
  const primaries = flat.filter((f) => !derivedFrom(f));
  const findings: Working[] = [...primaries];
  for (const f of flat) {
    const sources = derivedFrom(f);
    if (!sources) continue;
    const primary = primaries.find((p) => (sources.includes(p.rule) || sources.includes(p.category)) && sharesOperation(p, f) && sameNode(p, f));
    if (primary) primary.consequences.push(f);
    else findings.push(f);
  }
  // Nothing silent: a change no finding covers gets a located finding of its own.
  const fallbackCtx = new DiffContext(oldSide, newSide, changes, findings, options, paths, renames, places, pathRenames);
  findings.push(...waive(rules.filter((r) => r.phase === "fallback").flatMap((r) => run(r, fallbackCtx))));
  findings.sort(compare);

  // Group findings stand for several others (a shared type's edits): those move under them.
  const groupCtx = new DiffContext(oldSide, newSide, changes, findings, options, paths, renames, new Map(), pathRenames);
  for (const rule of rules.filter((r) => r.phase === "group")) {
    if (severityOf(rule) === "off" || rule.replacedBy) continue;
    for (const f of rule.check(groupCtx)) {
      const covered = (f.covers ?? []).filter((c) => findings.includes(c as Working)) as Working[];
      if (covered.length === 0) continue;
      const [group] = run({ ...rule, check: () => [f] }, groupCtx);
      const worst = covered.reduce((w, c) => (ORDER[c.severity] < ORDER[w] ? c.severity : w), "info" as Severity);
      const grouped: Working = { ...group!, severity: worst, consequences: covered };
      findings.splice(findings.indexOf(covered[0]!), 1, grouped);
      for (const c of covered.slice(1)) findings.splice(findings.indexOf(c), 1);
      // A waiver of the group rule applies to the grouped finding as a whole.
      if (waive([grouped]).length === 0) findings.splice(findings.indexOf(grouped), 1);
    }
  }
  findings.sort(compare);

  // Policy findings come after the changes they are about; a duty about one finding goes under it.
  const policyCtx = new DiffContext(oldSide, newSide, changes, findings, options, paths, renames, new Map(), pathRenames);
  const policy: Working[] = [];
  for (const f of waive(rules.filter((r) => r.phase === "policy").flatMap((r) => run(r, policyCtx))).sort(compare)) {
    const target = about.get(f);
    if (target && findings.includes(target as Working)) (target as Working).consequences.push(f);
    else policy.push(f);
  }
  findings.push(...policy);

  const summary = Object.fromEntries(SEVERITIES.map((s) => [s, findings.filter((f) => f.severity === s).length])) as Record<Severity, number>;
  return {
    old: { file: before.label, version: before.model.version },
    new: { file: after.label, version: after.model.version },
    findings,
    ignored: ignored.sort(compare),
    summary,
    oversized: { old: oldTree.oversized, new: newTree.oversized },
  };
}
