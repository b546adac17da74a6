/** Runs the rules over two contracts and applies the user's configuration. */
import type { ContractModel } from "../model/types.js";
import type { SourceFile } from "../spec/source.js";
import { type Finding, DiffContext, DiffSide, type Rule, type Severity, SEVERITIES } from "./rule.js";
import { RULES } from "./rules/index.js";
import { structuralDiff } from "./structural.js";
import { contractTree } from "./tree.js";

export interface DiffConfig {
  /** Per-rule severity, or "off". */
  readonly rules?: Readonly<Record<string, Severity | "off">>;
  /** Accepted findings: each needs a reason, kept in the report. */
  readonly ignore?: ReadonlyArray<{ readonly rule: string; readonly operation?: string; readonly reason: string }>;
}

export interface DiffReport {
  readonly old: { readonly file: string; readonly version: string };
  readonly new: { readonly file: string; readonly version: string };
  readonly findings: readonly Finding[];
  readonly ignored: ReadonlyArray<Finding & { readonly reason: string }>;
  readonly summary: Readonly<Record<Severity, number>>;
}

export interface DiffInputSide {
  readonly model: ContractModel;
  readonly source?: SourceFile;
  /** How the side was named on the command line (a path or git ref). */
  readonly label: string;
}

const ORDER: Record<Severity, number> = { breaking: 0, warning: 1, info: 2 };

function compare(a: Finding, b: Finding): number {
  const op = (f: Finding) => f.operation ?? "";
  return (
    (op(a) < op(b) ? -1 : op(a) > op(b) ? 1 : 0) ||
    ORDER[a.severity] - ORDER[b.severity] ||
    (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}

export function runDiff(before: DiffInputSide, after: DiffInputSide, config: DiffConfig = {}, rules: readonly Rule[] = RULES): DiffReport {
  const oldSide = new DiffSide(before.model, contractTree(before.model), before.source);
  const newSide = new DiffSide(after.model, contractTree(after.model), after.source);
  const changes = structuralDiff(oldSide.tree.root, newSide.tree.root);

  const severityOf = (rule: Rule): Severity | "off" => config.rules?.[rule.id] ?? rule.severity;
  const run = (rule: Rule, ctx: DiffContext): Finding[] => {
    const severity = severityOf(rule);
    if (severity === "off" || rule.replacedBy) return [];
    return rule.check(ctx).map((f) => ({
      rule: rule.id,
      severity,
      category: rule.category,
      operation: f.operation,
      message: f.message,
      hint: f.hint ?? rule.hint,
      old: f.before ? oldSide.locate(f.before) : null,
      new: f.after ? newSide.locate(f.after) : null,
    }));
  };

  const base = new DiffContext(oldSide, newSide, changes);
  const findings = rules.filter((r) => r.phase !== "policy").flatMap((r) => run(r, base));
  const policyCtx = new DiffContext(oldSide, newSide, changes, findings);
  findings.push(...rules.filter((r) => r.phase === "policy").flatMap((r) => run(r, policyCtx)));

  const kept: Finding[] = [];
  const ignored: Array<Finding & { reason: string }> = [];
  for (const f of findings.sort(compare)) {
    const waiver = config.ignore?.find((i) => i.rule === f.rule && (i.operation === undefined || i.operation === f.operation));
    if (waiver) ignored.push({ ...f, reason: waiver.reason });
    else kept.push(f);
  }
  const summary = Object.fromEntries(SEVERITIES.map((s) => [s, kept.filter((f) => f.severity === s).length])) as Record<Severity, number>;
  return {
    old: { file: before.label, version: before.model.version },
    new: { file: after.label, version: after.model.version },
    findings: kept,
    ignored,
    summary,
  };
}
