import { type DiffContext, type DiffSide, fieldPath, type Match, q } from "../rule.js";
import type { Change, ChangeKind } from "../structural.js";
import { splitPointer } from "../../contract/source.js";
import { COMBINATOR_KEYWORDS, MAP_KEYWORDS, pathKey, RETURNS, SINGLE_KEYWORDS, type TreeNode, type TreeValue } from "../tree.js";
import { releaseOf } from "./_pairs.js";

/*
 * Finding changes inside operation input and output schemas (not a rule: files starting with "_" are
 * not registered). Used by the input-* and output-* rules.
 */

/** Whether a tree value is a node (a schema, a set, a map) rather than a scalar, null or absent. */
export function isTreeNode(value: TreeValue | undefined): value is TreeNode {
  return value !== null && typeof value === "object";
}

/** Keys of a tree node (the members of a set), or [] when it is no node. */
export function members(value: TreeValue | undefined): string[] {
  return isTreeNode(value) ? Object.keys(value) : [];
}

/**
 * Which schemas of an operation: its input (operations/<id>/input), or everything it returns
 * (operations/<id>/returns/<label>: the output, the preview output…; see returnedSchemas in tree.ts).
 */
export type SchemaRoot = "input" | "output";

/** Steps to a subschema that take a name (a property, a pattern, a tuple index, a combinator member). */
const NAMED_STEPS: ReadonlySet<string> = new Set([...MAP_KEYWORDS, ...COMBINATOR_KEYWORDS, "prefixItems"]);

/**
 * Steps to one subschema whose constraints keep their direction: a stricter `then`, `contains` or
 * `additionalProperties` schema accepts less. `not` (which inverts it) and `if` (which decides which
 * branch applies) are not steps: a change below them is judged as one change of that keyword.
 */
export const DIRECT_STEPS: ReadonlySet<string> = new Set(SINGLE_KEYWORDS.filter((k) => k !== "not" && k !== "if"));

/**
 * Whether `segments`, read from a schema node, lead to another schema node: properties/<name>,
 * items, allOf|anyOf|oneOf/<member> and the other subschema steps. A bare "**" would also match a
 * property named "type", "enum" or "required" as if it were that keyword.
 */
export function isSchemaPath(segments: readonly string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if (DIRECT_STEPS.has(s)) continue;
    if (NAMED_STEPS.has(s) && i + 1 < segments.length) {
      i++;
      continue;
    }
    return false;
  }
  return true;
}

/**
 * The changes the schema rules of one position read: a change below `not` or `if` stands as one
 * modification of that keyword (direction is judged there, not inside), and a change inside a
 * property that does not exist in this position is left out: `readOnly` properties are not inputs,
 * `writeOnly` ones are not outputs (the flag's own change is judged by the keyword rules).
 */
export function schemaChanges(ctx: DiffContext, root: SchemaRoot): readonly Change[] {
  let byRoot = cache.get(ctx);
  if (!byRoot) cache.set(ctx, (byRoot = new Map()));
  const cached = byRoot.get(root);
  if (cached) return cached;
  const hidden = root === "input" ? "readOnly" : "writeOnly";
  const out: Change[] = [];
  const truncated = new Set<string>();
  for (const change of ctx.changes) {
    const path = change.path;
    const start = schemaStart(path, root);
    if (start < 0) {
      out.push(change);
      continue;
    }
    let keep = true;
    let cut = -1;
    for (let i = start; i < path.length; i++) {
      const s = path[i]!;
      if (s === "not" || s === "if") {
        if (i + 1 < path.length) cut = i + 1;
        break;
      }
      if (DIRECT_STEPS.has(s)) continue;
      if (NAMED_STEPS.has(s) && i + 1 < path.length) {
        i++;
        // The flag's own change (…/<name>/readOnly) is not inside the property: it is about it.
        if (s === "properties" && !(i + 2 === path.length && path[i + 1] === hidden)) {
          const property = path.slice(0, i + 1);
          if (ctx.old.get([...property, hidden]) === true || ctx.new_.get([...property, hidden]) === true) {
            keep = false;
            break;
          }
        }
        continue;
      }
      break;
    }
    if (!keep) continue;
    if (cut < 0) {
      out.push(change);
      continue;
    }
    const at = path.slice(0, cut);
    const key = pathKey(at);
    if (truncated.has(key)) continue;
    truncated.add(key);
    out.push({ kind: "modified", path: at, before: ctx.old.get(at), after: ctx.new_.get(at) });
  }
  byRoot.set(root, out);
  return out;
}

const cache = new WeakMap<DiffContext, Map<SchemaRoot, Change[]>>();

/** Where the schema steps of a path begin (after operations/<id>/input, …/returns/<label>, types/<Name>, errors/<code>/details), or -1 outside schemas. */
export function schemaRootLength(path: readonly string[]): number {
  if (path[0] === "types") return path.length >= 2 ? 2 : -1;
  if (path[0] === "errors") return path[2] === "details" ? 3 : -1;
  if (path[0] === "webhooks") return path[2] === "payload" ? 3 : -1;
  if (path[0] !== "operations") return -1;
  if (path[2] === "input") return 3;
  return path[2] === RETURNS && path.length >= 4 ? 4 : -1;
}

/** Where the schema steps of a change path begin for one position (shared types count for both), or -1. */
function schemaStart(path: readonly string[], root: SchemaRoot): number {
  const start = schemaRootLength(path);
  // A webhook payload is what a consumer receives: an output.
  if (path[0] === "errors" || (path[0] === "webhooks" && root === "input") || (path[0] === "operations" && (path[2] === "input") !== (root === "input"))) return -1;
  return start;
}

/** Whether property `name` of the schema node at `schema` is hidden in this position (readOnly in input, writeOnly in output) on either side. */
export function hiddenProperty(ctx: DiffContext, root: SchemaRoot, schema: readonly string[], name: string): boolean {
  const hidden = root === "input" ? "readOnly" : "writeOnly";
  return ctx.old.get([...schema, "properties", name, hidden]) === true || ctx.new_.get([...schema, "properties", name, hidden]) === true;
}

/** The label of a webhook's payload (a returned schema of no operation). */
export const WEBHOOK_PAYLOAD = "webhook payload";

/** Reach ids of webhooks (DiffSide.reaching under WEBHOOK_PAYLOAD): `webhook <name>`, which no operation id can be. */
export const webhookReachId = (name: string) => `webhook ${name}`;
const webhookOf = (id: string) => id.slice("webhook ".length);

/** A document node several schema positions share (a type under `types:`), and the field within it. */
export interface SharedNode {
  /** `type "Money"`, or the JSON pointer of a shared node that is not a type. */
  readonly owner: string;
  /** The field inside it, e.g. "lines[].amount", or "(root)". */
  readonly field: string;
}

/** A change at `<schema node>/<tail…>` of an operation's input or returned schemas. */
export interface SchemaMatch extends Match {
  /** The first operation the change reaches (see `operations` for all of them). */
  readonly operation: string;
  /** Every operation the change reaches, in order: more than one when the node is a shared type. */
  readonly operations: readonly string[];
  /** Tree path of the schema node the change is in: types/<Name>/… for a shared type, else of the operation. */
  readonly schema: readonly string[];
  /** Length of the schema root's path: operations/<id>/input (3), operations/<id>/returns/<label> (4), or types/<Name> (2). */
  readonly rootLength: number;
  /** "input", "output", "preview output"… */
  readonly label: string;
  /** The changed path below that schema node (`tail` with its "*" filled in). */
  readonly rest: readonly string[];
  /** The field the schema node describes, e.g. "orders[].status", or "(root)" for the schema itself. */
  readonly field: string;
  /** Set when the node is one document node reached from several places: the change is reported once. */
  readonly shared: SharedNode | null;
  /** The webhooks whose payload the change is in (then `operations` is empty and `operation` is the first webhook's name). */
  readonly webhooks?: readonly string[];
}

/** `type "X"` and the field below /types/X for a pointer into `types:`, else the pointer itself. */
function sharedNode(pointer: string): SharedNode {
  const segments = splitPointer(pointer);
  if (segments[0] === "types" && segments.length >= 2) return { owner: `type ${q(segments[1])}`, field: fieldPath(segments.slice(2)) };
  return { owner: q(pointer), field: "(root)" };
}

/**
 * Changes to `tail` (e.g. ["minimum"] or ["enum", "*"]) of any schema node of an operation's input
 * or returned schemas, at any depth: nested properties, array items and combinator branches. A
 * property that happens to be named like a keyword ("type", "enum") is not mistaken for the keyword.
 *
 * A change inside a shared document node (a type several operations reference) appears once per
 * place that reaches it; those are merged into one match that lists every operation reached, so a
 * rule reports the edit once.
 */
export function findInSchema(ctx: DiffContext, root: SchemaRoot, tail: readonly string[], kinds?: readonly ChangeKind[]): SchemaMatch[] {
  const rootKey = root === "input" ? "input" : RETURNS;
  const rootLength = root === "input" ? 3 : 4;
  const groups = new Map<string, { first: SchemaMatch; operations: string[]; uses: number }>();
  const fromTypes: SchemaMatch[] = [];
  // The path is operations/<id>/<root>[/<label>]/<schema steps…>/<tail…>, or types/<Name>/<schema
  // steps…>/<tail…>: matched from both ends directly (the rules call this often over every change;
  // a "**" pattern match costs much more).
  outer: for (const change of schemaChanges(ctx, root)) {
    const path = change.path;
    const inType = path[0] === "types";
    const inWebhook = root === "output" && path[0] === "webhooks" && path[2] === "payload";
    const start = inType ? 2 : inWebhook ? 3 : rootLength;
    if (path.length < start + tail.length) continue;
    if (!inType && !inWebhook && (path[0] !== "operations" || path[2] !== rootKey)) continue;
    if (kinds && !kinds.includes(change.kind)) continue;
    const at = path.length - tail.length;
    for (let i = 0; i < tail.length; i++) if (tail[i] !== "*" && path[at + i] !== tail[i]) continue outer;
    const below = path.slice(start, at);
    if (!isSchemaPath(below)) continue;
    const schema = path.slice(0, at);
    const rest = path.slice(at);
    const starred = tail.flatMap((t, i) => (t === "*" ? [[rest[i]!]] : []));
    if (inType) {
      // A shared type's edit is one change; it reaches every operation whose schema reaches the type
      // on both sides (an operation that starts or stops using it changed at its own reference).
      const name = path[1]!;
      const labels = root === "input" ? ["input"] : ctx.new_.reachLabels(name).filter((l) => l !== "input");
      for (const label of labels) {
        const before = new Set(ctx.old.reaching(name, label));
        // Sorted, as the walk over operations by name used to list them.
        const reached = ctx.new_.reaching(name, label).filter((id) => before.has(id)).sort();
        if (reached.length === 0) continue;
        const shared = { owner: `type ${q(name)}`, field: fieldPath(below) };
        if (label === WEBHOOK_PAYLOAD) {
          const webhooks = reached.map(webhookOf);
          fromTypes.push({ change, captures: [[webhooks[0]!], [label], below, ...starred], operation: webhooks[0]!, operations: [], schema, rootLength: 2, label, rest, field: shared.field, shared, webhooks });
          continue;
        }
        const operations = reached;
        const captures = [[operations[0]!], ...(root === "input" ? [] : [[label]]), below, ...starred];
        fromTypes.push({ change, captures, operation: operations[0]!, operations, schema, rootLength: 2, label, rest, field: shared.field, shared });
      }
      continue;
    }
    if (inWebhook) {
      const webhook = path[1]!;
      fromTypes.push({ change, captures: [[webhook], [WEBHOOK_PAYLOAD], below, ...starred], operation: webhook, operations: [], schema, rootLength: 3, label: WEBHOOK_PAYLOAD, rest, field: fieldPath(below), shared: null, webhooks: [webhook] });
      continue;
    }
    const operation = path[1]!;
    const label = root === "input" ? "input" : path[3]!;
    const captures = [[operation], ...(root === "input" ? [] : [[label]]), below, ...starred];
    const match: SchemaMatch = { change, captures, operation, operations: [operation], schema, rootLength, label, rest, field: fieldPath(below), shared: null };
    // One document node reached from several places has the same pointers on both sides.
    const key = [label, ctx.old.pointer(schema), ctx.new_.pointer(schema), pathKey(rest), change.kind].join("\u0001");
    const group = groups.get(key);
    if (!group) groups.set(key, { first: match, operations: [operation], uses: 1 });
    else {
      group.uses++;
      if (!group.operations.includes(operation)) group.operations.push(operation);
    }
  }
  const inline = [...groups.values()].map(({ first, operations, uses }) => {
    if (uses === 1) return first;
    const at = ctx.new_.get(first.schema) !== undefined ? ctx.new_.pointer(first.schema) : ctx.old.pointer(first.schema);
    return { ...first, operations, shared: sharedNode(at) };
  });
  return [...inline, ...fromTypes];
}

/** The operation fields of a finding about a schema match: all operations it reaches. */
export function reach(m: SchemaMatch): { operation: string | null; operations: readonly string[] } {
  return { operation: m.operations.length === 1 ? m.operation : null, operations: m.operations };
}

/** Who owns the field: `"op"`, `webhook "order.created"`, or `type "X" (used by 3 operations)`. */
export function owner(m: SchemaMatch): string {
  if (m.webhooks !== undefined) {
    const webhooks = m.webhooks.length === 1 ? `webhook ${q(m.webhooks[0])}` : `${m.webhooks.length} webhooks`;
    return m.shared ? `${m.shared.owner} (sent by ${webhooks})` : webhooks;
  }
  if (!m.shared) return q(m.operation);
  return `${m.shared.owner} (used by ${m.operations.length === 1 ? q(m.operation) : `${m.operations.length} operations`})`;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `Output "a.b" of "op"`, `The output of "op"` (root), `Output "total" of type "Order" (used by 3 operations)`: a sentence's subject. */
export function subject(m: SchemaMatch): string {
  const field = m.shared ? m.shared.field : m.field;
  if (field === "(root)") return m.shared ? `${capital(m.label)} ${owner(m)}` : `The ${m.label} of ${owner(m)}`;
  return `${capital(m.label)} ${q(field)} of ${owner(m)}`;
}

/** `output "a.b" of "op"` (see subject) inside a sentence. */
export function mention(m: SchemaMatch): string {
  const field = m.shared ? m.shared.field : m.field;
  if (field === "(root)") return m.shared ? `${m.label} ${owner(m)}` : `the ${m.label} of ${owner(m)}`;
  return `${m.label} ${q(field)} of ${owner(m)}`;
}

/** The field path of property `name` of the match's schema node. */
export function childField(m: SchemaMatch, name: string): string {
  const base = m.shared ? m.shared.field : m.field;
  return base === "(root)" ? name : `${base}.${name}`;
}

/** `Output property "a.b" of "op"`: the subject of a sentence about property `name` of the match's node. */
export function propertySubject(m: SchemaMatch, name: string): string {
  return `${capital(m.label)} property ${q(childField(m, name))} of ${owner(m)}`;
}

/** `output property "a.b" of "op"` inside a sentence. */
export function propertyMention(m: SchemaMatch, name: string): string {
  return `${m.label} property ${q(childField(m, name))} of ${owner(m)}`;
}

/** Matches grouped by schema node: the first match of each node, in change order. */
export function bySchema<M extends SchemaMatch>(matches: readonly M[]): M[] {
  const seen = new Map<string, M>();
  for (const m of matches) if (!seen.has(pathKey(m.schema))) seen.set(pathKey(m.schema), m);
  return [...seen.values()];
}

/**
 * Property names that joined (`added`) or left (`removed`) the `required` list of a schema node: one
 * by one, or with the whole list when the node gained or lost `required` altogether.
 */
export function requiredChanges(ctx: DiffContext, root: SchemaRoot, kind: "added" | "removed"): { m: SchemaMatch; name: string }[] {
  return [
    ...findInSchema(ctx, root, ["required", "*"], [kind]).map((m) => ({ m, name: m.rest[1]! })),
    ...findInSchema(ctx, root, ["required"], [kind]).flatMap((m) => members(kind === "added" ? m.change.after : m.change.before).map((name) => ({ m, name }))),
  ].filter(({ m, name }) => !hiddenProperty(ctx, root, m.schema, name));
}

/**
 * Properties that were added or removed at a schema node present on both sides: one by one, or all of
 * them when the node gained or lost `properties` altogether. `path` is the property's own tree path.
 */
export function propertyChanges(ctx: DiffContext, root: SchemaRoot, kind: "added" | "removed"): Array<{ m: SchemaMatch; name: string; path: readonly string[] }> {
  const other = kind === "added" ? ctx.old : ctx.new_;
  return [
    ...findInSchema(ctx, root, ["properties", "*"], [kind]).map((m) => ({ m, name: m.rest[1]!, path: m.change.path })),
    ...findInSchema(ctx, root, ["properties"], [kind])
      .filter((m) => isTreeNode(other.get(m.schema)))
      .flatMap((m) => members(kind === "added" ? m.change.after : m.change.before).map((name) => ({ m, name, path: [...m.change.path, name] }))),
  ].filter(({ m, name }) => !hiddenProperty(ctx, root, m.schema, name) && !declaredNearby(kind === "added" ? ctx.old : ctx.new_, m.schema, name));
}

/**
 * Whether the object at `schema` declares property `name` on `side` directly or through one of its
 * allOf members, or (when `schema` is itself an allOf member) its parent does: a property moved
 * between an object and its allOf members is still there (a common refactoring into composition).
 */
function declaredNearby(side: DiffSide, schema: readonly string[], name: string): boolean {
  const declares = (node: readonly string[]) => {
    if (side.get([...node, "properties", name]) !== undefined) return true;
    return members(side.get([...node, "allOf"])).some((key) => side.get([...node, "allOf", key, "properties", name]) !== undefined);
  };
  if (declares(schema)) return true;
  return schema.length >= 2 && schema.at(-2) === "allOf" && declares(schema.slice(0, -2));
}

/** Kept for the input rules: subject and mention of an input match. */
export const inputSubject = subject;
export const inputMention = mention;

/* ---- a field's lifecycle ---- */

/** What the old contract announced about a property it had: deprecated, and the sunset date if any. */
export interface FieldLifecycle {
  readonly deprecated: boolean;
  readonly sunset: string | null;
}

/** The lifecycle of the property at tree path `path` on `side` (a removed property: on the old side). */
export function lifecycleAt(side: DiffSide, path: readonly string[]): FieldLifecycle {
  const node = side.get(path);
  if (!isTreeNode(node)) return { deprecated: false, sunset: null };
  const sunset = typeof node["x-sunset"] === "string" ? node["x-sunset"] : null;
  return { deprecated: node.deprecated === true || sunset !== null, sunset };
}

/** Whether a field's sunset is still ahead of the new contract's release (a removal then breaks a promise). */
export function sunsetAhead(ctx: DiffContext, life: FieldLifecycle): boolean {
  return life.sunset !== null && releaseOf(ctx).date < life.sunset;
}

/**
 * Input properties the new contract removed that the old one had deprecated, with the release date to
 * judge their sunset by. Removing one was announced: input-property-removed leaves them to
 * input-property-removed-after-deprecation and input-property-removed-before-sunset.
 */
export function deprecatedInputRemovals(ctx: DiffContext): Array<{ m: SchemaMatch; name: string; path: readonly string[]; sunset: string | null; beforeSunset: boolean }> {
  return propertyChanges(ctx, "input", "removed").flatMap((r) => {
    const life = lifecycleAt(ctx.old, r.path);
    if (!life.deprecated) return [];
    return [{ ...r, sunset: life.sunset, beforeSunset: sunsetAhead(ctx, life) }];
  });
}
