/**
 * Stage two of the diff: rules. Each rule reads the neutral changes (and both models) and reports
 * findings with its stable id. Rules live one per file in rules/, registered in rules/index.ts;
 * helpers shared by several rules live in rules/_*.ts, which are not rules.
 */
import type { SourceLocation } from "../diagnostics/diagnostic.js";
import type { ContractModel, OperationModel } from "../model/types.js";
import type { SourceFile } from "../spec/source.js";
import { escapePointerSegment } from "../spec/source.js";
import { type Change, type ChangeKind, matchPath } from "./structural.js";
import { type ContractTree, pathKey, type TreeNode, type TreeValue } from "./tree.js";

export type Severity = "breaking" | "warning" | "info";

export const SEVERITIES: readonly Severity[] = ["breaking", "warning", "info"];

export type Category =
  | "operation"
  | "input"
  | "output"
  | "error"
  | "effect"
  | "idempotency"
  | "preview"
  | "precondition"
  | "pagination"
  | "projection"
  | "transport"
  | "surface"
  | "budget"
  | "outcome"
  | "version";

/** What a rule reports; the engine adds the rule's id, severity and both locations. */
export interface RuleFinding {
  /** Operation concerned, or null for contract-wide findings. */
  readonly operation: string | null;
  /** One past-tense sentence with names quoted. */
  readonly message: string;
  /** Tree path on the old side (omit when the thing did not exist). */
  readonly before?: readonly string[];
  /** Tree path on the new side (omit when the thing no longer exists). */
  readonly after?: readonly string[];
  /** Overrides the rule's migration hint. */
  readonly hint?: string;
}

export interface Rule {
  /** Stable kebab-case id: never renamed; a retired id keeps `replacedBy`. */
  readonly id: string;
  readonly severity: Severity;
  readonly category: Category;
  /** What the rule checks, one sentence (docs/diff-rules.md). */
  readonly description: string;
  /** What consumers of the contract should do about a finding. */
  readonly hint: string;
  /** Policy rules run last and see the other rules' findings. */
  readonly phase?: "policy";
  /** Set on retired rules: they report nothing and point at their successor. */
  readonly replacedBy?: string;
  check(ctx: DiffContext): RuleFinding[];
}

export interface Finding {
  readonly rule: string;
  readonly severity: Severity;
  readonly category: Category;
  readonly operation: string | null;
  readonly message: string;
  readonly hint: string;
  readonly old: SourceLocation | null;
  readonly new: SourceLocation | null;
}

/** One side of the comparison. */
export class DiffSide {
  private readonly byId: ReadonlyMap<string, OperationModel>;

  constructor(
    readonly model: ContractModel,
    readonly tree: ContractTree,
    readonly source: SourceFile | undefined,
  ) {
    this.byId = new Map(model.operations.map((o) => [o.names.id, o]));
  }

  operation(id: string): OperationModel | undefined {
    return this.byId.get(id);
  }

  /** The value at a tree path, or undefined. */
  get(path: readonly string[]): TreeValue | undefined {
    let node: TreeValue | undefined = this.tree.root;
    for (const segment of path) {
      if (node === null || typeof node !== "object") return undefined;
      node = (node as TreeNode)[segment];
    }
    return node;
  }

  /** The document location a tree path came from (nearest recorded ancestor, then the document's). */
  locate(path: readonly string[]): SourceLocation | null {
    if (!this.source) return null;
    for (let n = path.length; n >= 0; n--) {
      const pointer = n === 0 ? "" : this.tree.pointers.get(pathKey(path.slice(0, n)));
      if (pointer !== undefined) {
        const rest = path.slice(n).map(escapePointerSegment).join("/");
        return this.source.locateKey(rest ? `${pointer}/${rest}` : pointer);
      }
    }
    return this.source.locate("");
  }
}

export interface Match {
  readonly change: Change;
  /** Segments captured by "*" and "**" in the pattern, in order. */
  readonly captures: string[][];
  /** The operation id when the path starts with operations/<id>. */
  readonly operation: string | null;
}

export class DiffContext {
  constructor(
    readonly old: DiffSide,
    readonly new_: DiffSide,
    readonly changes: readonly Change[],
    /** Findings of the non-policy rules (set for policy rules). */
    readonly findings: readonly Finding[] = [],
  ) {}

  /** Changes whose path matches `pattern` ("*" one segment, "**" any), optionally of some kinds. */
  find(pattern: readonly string[], kinds?: readonly ChangeKind[]): Match[] {
    const out: Match[] = [];
    for (const change of this.changes) {
      if (kinds && !kinds.includes(change.kind)) continue;
      const captures = matchPath(change.path, pattern);
      if (captures) out.push({ change, captures, operation: change.path[0] === "operations" ? (change.path[1] ?? null) : null });
    }
    return out;
  }
}

/** Quote a name for a message. */
export function q(value: unknown): string {
  return JSON.stringify(value);
}

/** "input.properties.a.properties.b" → "a.b": the field path a schema change is about. */
export function fieldPath(schemaPath: readonly string[]): string {
  const out: string[] = [];
  for (let i = 0; i < schemaPath.length; i++) {
    if (schemaPath[i] === "properties" && i + 1 < schemaPath.length) out.push(schemaPath[++i]!);
    else if (schemaPath[i] === "items") out.push("[]");
  }
  return out.join(".").replace(/\.\[\]/g, "[]") || "(root)";
}
