/**
 * Stage two of the diff: rules. Each rule reads the neutral changes (and both models) and reports
 * findings with its stable id. Rules live one per file in rules/, registered in rules/index.ts;
 * helpers shared by several rules live in rules/_*.ts, which are not rules.
 */
import type { SourceLocation } from "../diagnostics/diagnostic.js";
import type { ContractModel, OperationModel } from "../model/types.js";
import type { SourceFile } from "../contract/source.js";
import { escapePointerSegment, getAtPointer } from "../contract/source.js";
import { type Change, type ChangeKind, matchPath } from "./structural.js";
import { type ContractTree, OPERATION_POINTERS, pathKey, RETURNS, type TreeNode, type TreeValue, typeRef } from "./tree.js";

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
  | "sdk"
  | "budget"
  | "outcome"
  | "webhook"
  | "type"
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
  surface: { observable: true, about: "derived MCP tools, CLI commands and the Agent Skill" },
  sdk: {
    observable: true,
    about:
      "source compatibility of the generated TypeScript SDK, not the wire: whether code written against the old SDK still compiles against the new one (warnings; under a breaking wire finding of the same edit, a consequence)",
  },
  outcome: { observable: true, about: "outcome states and polling" },
  webhook: { observable: true, about: "events the platform sends its consumers: added, removed, described (a payload is judged as an output, by the output rules)" },
  type: { observable: true, about: "shared types: each one's edits reported once, with every operation and side they reach" },
  budget: { observable: false, about: "the token budgets of the MCP catalogue and the Agent Skill: a build gate for the contract's authors" },
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
  /** The finding is about everything below its location (a whole type): changes inside need no finding of their own. */
  readonly subtree?: boolean;
  /**
   * For group rules: the findings this one stands for. They move under it as consequences, and its
   * severity is the worst of theirs.
   */
  readonly covers?: readonly Finding[];
  /** For a finding on a shared type: its name and how it reaches operations (see Finding.type). */
  readonly type?: SharedTypeReach;
}

/** Where a change to a shared type reaches: per side, the operations and the worst severity there. */
export interface SharedTypeReach {
  readonly name: string;
  readonly sides: ReadonlyArray<{ readonly side: "input" | "output"; readonly severity: Severity; readonly operations: readonly string[] }>;
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
  /**
   * Fallback rules run after the others and report what no finding covers; group rules run next and
   * gather findings (`covers`) under one; policy rules run last and see the other rules' findings.
   */
  readonly phase?: "fallback" | "group" | "policy";
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
  /** Set on a finding about a shared type (shared-type-changed): the type and the sides it reaches. */
  readonly type?: SharedTypeReach;
}

/**
 * An operation removed and another added that are one operation under a new id (rules/_pairs.ts,
 * pairOperations). The engine compares the old operation with the new one under the new id.
 */
export interface OperationRename {
  readonly from: string;
  readonly to: string;
  /** What identifies the pair: the same HTTP request, or the same input and output schemas. */
  readonly by: "http" | "schemas";
}

/**
 * A path parameter renamed in place: the same position in the same path template, another name (the
 * request on the wire is unchanged). The engine compares the old parameter under its new name; the
 * rule input-path-parameter-renamed reports the rename, which only the generated names see.
 */
export interface PathParameterRename {
  /** The operation's tree id. */
  readonly operation: string;
  readonly from: string;
  readonly to: string;
}

/** One side of the comparison. */
export class DiffSide {
  private readonly byId: ReadonlyMap<string, OperationModel>;
  /** Tree id → document id, for operations the tree keeps under another id (the old side of a rename). */
  private readonly documentIds: ReadonlyMap<string, string>;
  private readonly treeIds: ReadonlyMap<string, string>;

  /**
   * `aliases`: tree id → document id. On the old side of a renamed operation the tree keeps the old
   * operation under its new id, so the two are compared; it is read and located here under the new
   * id, at /operations/<old id> in the old document.
   */
  constructor(
    readonly model: ContractModel,
    readonly tree: ContractTree,
    readonly source: SourceFile | undefined,
    aliases: ReadonlyMap<string, string> = new Map(),
  ) {
    this.documentIds = aliases;
    const treeIds = new Map([...aliases].map(([treeId, docId]) => [docId, treeId]));
    this.treeIds = treeIds;
    this.byId = new Map(model.operations.map((o) => [treeIds.get(o.names.id) ?? o.names.id, o]));
  }

  /** The operation the tree keeps under `id` (for the old side of a rename: the old operation under its new id). */
  operation(id: string): OperationModel | undefined {
    return this.byId.get(id);
  }

  /** The id under which the tree keeps a model operation. */
  treeId(op: OperationModel): string {
    return this.treeIds.get(op.names.id) ?? op.names.id;
  }

  /** The id the document writes for the operation the tree keeps under `id`. */
  documentId(id: string): string {
    return this.documentIds.get(id) ?? id;
  }

  /** The tree of shared type `name`, following a type that is only a reference to another (bounded). */
  private deref(value: TreeValue | undefined): TreeValue | undefined {
    const types = this.tree.root.types as TreeNode | undefined;
    for (let hops = 0; hops < 16; hops++) {
      const name = typeRef(value);
      if (name === undefined) return value;
      value = types !== undefined && Object.hasOwn(types, name) ? types[name] : undefined;
    }
    return undefined;
  }

  /** The value at a tree path, or undefined. References to shared types are read through. */
  get(path: readonly string[]): TreeValue | undefined {
    let node: TreeValue | undefined = this.tree.root;
    for (const segment of path) {
      // A keyword written beside a reference is the reference's own key; the rest is the type's.
      if (node !== null && typeof node === "object" && Object.hasOwn(node, segment)) {
        node = (node as TreeNode)[segment];
        continue;
      }
      node = this.deref(node);
      if (node === null || typeof node !== "object") return undefined;
      node = (node as TreeNode)[segment];
    }
    return this.deref(node);
  }

  /**
   * The path as the tree keeps it: a path that passes through a reference to a shared type continues
   * from types/<Name> (where the type's own pointers are recorded).
   */
  canonical(path: readonly string[]): readonly string[] {
    let node: TreeValue | undefined = this.tree.root;
    let out: string[] | null = null;
    for (let i = 0; i < path.length; i++) {
      let name: string | undefined = node !== null && typeof node === "object" && Object.hasOwn(node, path[i]!) ? undefined : typeRef(node);
      for (let hops = 0; name !== undefined && hops < 16; hops++) {
        out = ["types", name];
        node = (this.tree.root.types as TreeNode | undefined)?.[name];
        name = typeRef(node);
      }
      if (out) out.push(path[i]!);
      if (node === null || typeof node !== "object") {
        node = undefined;
        continue;
      }
      node = (node as TreeNode)[path[i]!];
    }
    const last = typeRef(node);
    if (last !== undefined) return ["types", last];
    return out ?? path;
  }

  /** Type name → the operations whose input, or whose returned schema under each label, reach it (directly or through other types). */
  private reachCache: Map<string, Map<string, string[]>> | undefined;

  /** Operations (in document order) whose `label` schema ("input", "output", "preview output"…) reaches shared type `name`. */
  reaching(name: string, label: string): readonly string[] {
    this.reachCache ??= this.computeReach();
    return this.reachCache.get(label)?.get(name) ?? [];
  }

  /** Labels under which some operation reaches shared type `name`. */
  reachLabels(name: string): string[] {
    this.reachCache ??= this.computeReach();
    return [...this.reachCache].filter(([, byType]) => byType.has(name)).map(([label]) => label);
  }

  private computeReach(): Map<string, Map<string, string[]>> {
    const types = (this.tree.root.types ?? {}) as TreeNode;
    // Direct references of a tree, not following them (trees are bounded by MAX_SCHEMA_PATH).
    const direct = (value: TreeValue | undefined, into: Set<string>) => {
      const stack: Array<TreeValue | undefined> = [value];
      while (stack.length > 0) {
        const v = stack.pop();
        if (v === null || typeof v !== "object") continue;
        const name = typeRef(v);
        if (name !== undefined) into.add(name);
        // A reference's own keys are keywords written beside it.
        for (const k of Object.keys(v)) stack.push((v as TreeNode)[k]);
      }
      return into;
    };
    const closures = new Map<string, Set<string>>();
    const edges = new Map<string, Set<string>>();
    const edgesOf = (name: string) => {
      let e = edges.get(name);
      if (!e) edges.set(name, (e = Object.hasOwn(types, name) ? direct(types[name], new Set()) : new Set()));
      return e;
    };
    const closure = (name: string): Set<string> => {
      let c = closures.get(name);
      if (c) return c;
      c = new Set([name]);
      const queue = [name];
      while (queue.length > 0) for (const next of edgesOf(queue.pop()!)) if (!c.has(next)) c.add(next), queue.push(next);
      closures.set(name, c);
      return c;
    };
    const out = new Map<string, Map<string, string[]>>();
    const add = (label: string, id: string, tree: TreeValue | undefined) => {
      const reached = new Set<string>();
      for (const name of direct(tree, new Set())) for (const t of closure(name)) reached.add(t);
      if (reached.size === 0) return;
      let byType = out.get(label);
      if (!byType) out.set(label, (byType = new Map()));
      for (const t of reached) (byType.get(t) ?? byType.set(t, []).get(t)!).push(id);
    };
    const operations = this.tree.root.operations as TreeNode;
    for (const op of this.model.operations) {
      const id = this.treeId(op);
      const node = operations[id] as TreeNode;
      add("input", id, node.input);
      const returns = node[RETURNS] as TreeNode;
      for (const label of Object.keys(returns)) add(label, id, returns[label]);
    }
    // Webhook payloads reach types too, under their own label and ids no operation can have (rules/_schema.ts).
    const webhooks = (this.tree.root.webhooks ?? {}) as TreeNode;
    for (const name of Object.keys(webhooks)) add("webhook payload", `webhook ${name}`, (webhooks[name] as TreeNode).payload);
    return out;
  }

  /**
   * The document location a tree path came from (nearest recorded ancestor, then the document's).
   * Sets are lists in the document: a member name below a list (an enum value, a required name, an
   * error code, a scope) is addressed by its index, so the pointer and the location are the item's.
   * A path the document does not have resolves to its nearest existing parent.
   */
  locate(path: readonly string[]): SourceLocation | null {
    if (!this.source) return null;
    const { base, rest } = this.recorded(this.canonical(path));
    return this.source.locateKey(this.indexed(base, rest));
  }

  /** The document pointer of a tree path itself: a path that ends at a reference to a shared type is not followed into the type. */
  ownPointer(path: readonly string[]): string {
    const { base, rest } = this.recorded(path);
    return rest.reduce((p, s) => `${p}/${escapePointerSegment(s)}`, base);
  }

  /** The document JSON pointer a tree path stands for: its nearest recorded ancestor's plus the remaining segments. */
  pointer(path: readonly string[]): string {
    return this.ownPointer(this.canonical(path));
  }

  private recorded(path: readonly string[]): { base: string; rest: readonly string[] } {
    for (let n = path.length; n > 0; n--) {
      const pointer = this.tree.pointers.get(pathKey(path.slice(0, n)));
      if (pointer !== undefined) return { base: pointer, rest: path.slice(n) };
      if (path[0] === "operations" && n > 2) {
        const relative = OPERATION_POINTERS.get(pathKey(path.slice(2, n)));
        if (relative !== undefined) return { base: `/operations/${escapePointerSegment(this.documentId(path[1]!))}${relative ? `/${relative}` : ""}`, rest: path.slice(n) };
      }
      if (path[0] === "operations" && n === 2 && this.documentId(path[1]!) !== path[1]) return { base: `/operations/${escapePointerSegment(this.documentId(path[1]!))}`, rest: path.slice(2) };
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
        // A list item is named by its value, or (a filter written with its meaning) by its `field`.
        const i = node.findIndex(
          (item) =>
            (item !== null && typeof item !== "object" && (item === segment || JSON.stringify(item) === segment)) ||
            (item !== null && typeof item === "object" && !Array.isArray(item) && (item as Record<string, unknown>).field === segment),
        );
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

/** The tree paths of a finding on each side (absent where the side has nothing to point at). */
export interface FindingPlaces {
  readonly before?: readonly string[] | undefined;
  readonly after?: readonly string[] | undefined;
  /** Whether the finding stands for everything below its paths (RuleFinding.subtree). */
  readonly subtree?: boolean;
}

/** What the diff assumes about consumers (set in the config file). */
export interface DiffOptions {
  /**
   * MCP clients validate structured output strictly, as if every output object were closed: any
   * change to a tool's output schema is observable (mcp-output-schema-changed).
   */
  readonly strictOutputValidation?: boolean;
  /**
   * The date the new contract is released on, which lifecycle rules judge sunset dates by: its newest
   * changelog date, or, for a side whose document gives none (an OpenAPI document), the date the diff
   * runs (`--date`), as OpenAPI diff tools judge a sunset. Set by the engine.
   */
  readonly release?: ReleaseDate;
  /** Whether both sides' versions are the documents' own (see DiffInputSide.versioned); the version policy applies only then. Default true. */
  readonly versioned?: boolean;
}

/** A release date and where it came from (a finding that judges by it says which). */
export interface ReleaseDate {
  readonly date: string;
  readonly from: "changelog" | "run";
}

export class DiffContext {
  constructor(
    readonly old: DiffSide,
    readonly new_: DiffSide,
    readonly changes: readonly Change[],
    /** Findings of the non-policy rules, consequences under their primary (set for group and policy rules). */
    readonly findings: readonly Finding[] = [],
    readonly options: DiffOptions = {},
    /** The tree path each finding was reported at (its new side's, else its old side's). */
    private readonly paths: ReadonlyMap<Finding, readonly string[]> = new Map(),
    /** Renamed operations: compared under their new id (see DiffSide's aliases); reported by operation-renamed. */
    readonly renames: readonly OperationRename[] = [],
    /** Both tree paths of each finding, as its rule gave them (for the fallback rules). */
    private readonly places: ReadonlyMap<Finding, FindingPlaces> = new Map(),
    /** Path parameters renamed in place: compared under their new name; reported by input-path-parameter-renamed. */
    readonly pathParameterRenames: readonly PathParameterRename[] = [],
  ) {}

  /** Whether `field` of operation `id` (tree id) is a path parameter renamed in place, on the side given. */
  isRenamedPathParameter(id: string, field: string, side: "old" | "new"): boolean {
    return this.pathParameterRenames.some((r) => r.operation === id && (side === "old" ? r.from : r.to) === field);
  }

  /** Both tree paths a finding was reported at, as its rule gave them. */
  placesOf(f: Finding): FindingPlaces | undefined {
    return this.places.get(f);
  }

  /** The tree path a finding was reported at, as its rule gave it (not read through type references). */
  pathOf(f: Finding): readonly string[] | undefined {
    return this.paths.get(f);
  }

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

/**
 * How each schema step reads in a field path: `a.b`, `a[]`, `a[0]`, `a.*` (any other property),
 * `a./^x-/` (properties matching a pattern), `a(then)`; a combinator member adds nothing (its
 * properties are the object's).
 */
const FIELD_STEPS: ReadonlyMap<string, (name: string) => string> = new Map([
  ["properties", (name: string) => `.${name}`],
  ["patternProperties", (name: string) => `./${name}/`],
  ["prefixItems", (name: string) => `[${name}]`],
  ["dependentSchemas", (name: string) => `(with ${name})`],
  ["allOf", () => ""],
  ["anyOf", () => ""],
  ["oneOf", () => ""],
]);
const FIELD_SINGLE_STEPS: ReadonlyMap<string, string> = new Map([
  ["items", "[]"],
  ["unevaluatedItems", "[]"],
  ["contains", "[contains]"],
  ["additionalProperties", ".*"],
  ["unevaluatedProperties", ".*"],
  ["propertyNames", "(property names)"],
  ["then", "(then)"],
  ["else", "(else)"],
  ["if", "(if)"],
  ["not", "(not)"],
  ["contentSchema", "(content)"],
]);

/** "input.properties.a.properties.b" → "a.b": the field path a schema change is about. */
export function fieldPath(schemaPath: readonly string[]): string {
  let out = "";
  for (let i = 0; i < schemaPath.length; i++) {
    const step = FIELD_STEPS.get(schemaPath[i]!);
    if (step && i + 1 < schemaPath.length) out += step(schemaPath[++i]!);
    else out += FIELD_SINGLE_STEPS.get(schemaPath[i]!) ?? "";
  }
  return out.replace(/^\./, "") || "(root)";
}
