/**
 * Stage two of the diff: rules. Each rule reads the neutral changes (and both models) and reports
 * findings with its stable id. Rules live one per file in rules/, registered in rules/index.ts;
 * helpers shared by several rules live in rules/_*.ts, which are not rules.
 */
import type { SourceLocation } from "../diagnostics/diagnostic.js";
import type { ContractModel, OperationModel } from "../model/types.js";
import type { SourceFile } from "../spec/source.js";
import { escapePointerSegment, getAtPointer } from "../spec/source.js";
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

/**
 * What each category is about. `observable`: whether a change of the category is one a consumer of
 * the contract (SDK, CLI, MCP client, HTTP caller) can observe. Only breaking findings of observable
 * categories call for a major version (version-major-bump-required); the others are build gates
 * (the catalogue budget) or the policy itself.
 */
export const CATEGORIES: Readonly<Record<Category, { readonly observable: boolean; readonly about: string }>> = {
  operation: { observable: true, about: "operations added, removed, renamed, deprecated" },
  input: { observable: true, about: "what calls may and must send" },
  output: { observable: true, about: "everything an operation returns: its output and its preview output" },
  error: { observable: true, about: "the error taxonomy and the codes each operation raises" },
  effect: { observable: true, about: "what a call does: reads, mutations, destruction, reversibility" },
  idempotency: { observable: true, about: "retry safety" },
  preview: { observable: true, about: "dry runs and confirm tokens" },
  precondition: { observable: true, about: "revision and value preconditions" },
  pagination: { observable: true, about: "cursors, page sizes, completeness fields" },
  projection: { observable: true, about: "field selection" },
  transport: { observable: true, about: "HTTP bindings, base URL, authentication, scopes" },
  surface: { observable: true, about: "derived MCP tools and CLI commands" },
  outcome: { observable: true, about: "outcome states and polling" },
  budget: { observable: false, about: "the MCP catalogue budget: a build gate for the contract's authors" },
  version: { observable: false, about: "the version policy (version bumps, changelog)" },
};

/** What a rule reports; the engine adds the rule's id, severity and both locations. */
export interface RuleFinding {
  /** Operation concerned, or null for contract-wide findings and for findings that reach several operations. */
  readonly operation: string | null;
  /** Every operation the finding reaches (a change to a shared type reaches several); defaults to `operation`. */
  readonly operations?: readonly string[];
  /** For policy rules: the finding this one is a duty of; it is reported under that finding. */
  readonly about?: Finding;
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
  /**
   * Rule ids or categories whose findings this rule's findings follow from (an MCP annotation derived
   * from an effect, a CLI flag derived from an input property). A finding that overlaps one of theirs
   * (same operation, overlapping location) is reported under it as a consequence, not on its own.
   */
  readonly consequenceOf?: readonly string[];
  /** Set on retired rules: they report nothing and point at their successor. */
  readonly replacedBy?: string;
  check(ctx: DiffContext): RuleFinding[];
}

export interface Finding {
  readonly rule: string;
  readonly severity: Severity;
  readonly category: Category;
  readonly operation: string | null;
  /** Every operation the finding reaches. */
  readonly operations: readonly string[];
  readonly message: string;
  readonly hint: string;
  readonly old: SourceLocation | null;
  readonly new: SourceLocation | null;
  /**
   * Where a tool annotating the new file should attach the finding: `new`, or for a thing that no
   * longer exists the nearest parent that survives in the new file.
   */
  readonly anchor: SourceLocation | null;
  /** Findings that follow from this one (derived surfaces, policy duties), reported under it. */
  readonly consequences: readonly Finding[];
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

  /**
   * The document location a tree path came from (nearest recorded ancestor, then the document's).
   * Sets are lists in the document: a member name below a list (an enum value, a required name, an
   * error code, a scope) is addressed by its index, so the pointer and the location are the item's.
   * A path the document does not have resolves to its nearest existing parent.
   */
  locate(path: readonly string[]): SourceLocation | null {
    if (!this.source) return null;
    const { base, rest } = this.recorded(path);
    return this.source.locateKey(this.indexed(base, rest));
  }

  /** The document JSON pointer a tree path stands for: its nearest recorded ancestor's plus the remaining segments. */
  pointer(path: readonly string[]): string {
    const { base, rest } = this.recorded(path);
    return rest.reduce((p, s) => `${p}/${escapePointerSegment(s)}`, base);
  }

  private recorded(path: readonly string[]): { base: string; rest: readonly string[] } {
    for (let n = path.length; n > 0; n--) {
      const pointer = this.tree.pointers.get(pathKey(path.slice(0, n)));
      if (pointer !== undefined) return { base: pointer, rest: path.slice(n) };
    }
    return { base: "", rest: path };
  }

  /** `base` + `rest` as a JSON pointer, with members of document lists replaced by their index. */
  private indexed(base: string, rest: readonly string[]): string {
    let node = getAtPointer(this.source!.value, base);
    let pointer = base;
    for (const segment of rest) {
      let step = segment;
      if (Array.isArray(node)) {
        const i = node.findIndex((item) => item !== null && typeof item !== "object" && (item === segment || JSON.stringify(item) === segment));
        if (i >= 0) step = String(i);
      }
      pointer = `${pointer}/${escapePointerSegment(step)}`;
      node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[step] : undefined;
    }
    return pointer;
  }
}

export interface Match {
  readonly change: Change;
  /** Segments captured by "*" and "**" in the pattern, in order. */
  readonly captures: string[][];
  /** The operation id when the path starts with operations/<id>. */
  readonly operation: string | null;
}

/** What the diff assumes about consumers (set in the config file). */
export interface DiffOptions {
  /**
   * MCP clients validate structured output strictly, as if every output object were closed: any
   * change to a tool's output schema is observable (mcp-output-schema-changed).
   */
  readonly strictOutputValidation?: boolean;
}

export class DiffContext {
  constructor(
    readonly old: DiffSide,
    readonly new_: DiffSide,
    readonly changes: readonly Change[],
    /** Findings of the non-policy rules, consequences under their primary (set for policy rules). */
    readonly findings: readonly Finding[] = [],
    readonly options: DiffOptions = {},
  ) {}

  /** Every finding of the non-policy rules, consequences included. */
  allFindings(): Finding[] {
    return this.findings.flatMap((f) => [f, ...f.consequences]);
  }

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

/** Whether two document pointers overlap: the same node, or one inside the other. */
export function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
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
