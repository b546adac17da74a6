/**
 * The comparable view of a contract model: a plain tree in which every fact the diff cares about
 * sits at a stable path, sets are objects keyed by their members (so membership changes show up as
 * added/removed keys), and schemas are dereferenced. A shared type (`types:`) is kept once, under
 * types/<Name>; operation schemas refer to it (typeRefNode), so an edit of a type is one change
 * however many operations reach it, and a large contract's tree stays the size of its document.
 * DiffSide reads through those references. Each tree path also knows the JSON pointer of the
 * document node it came from, so findings can point into both files.
 */
import { acceptedTypes, askedType, offeredTypes } from "../model/media.js";
import { cliFlagNames, commandNames, kebabCase } from "../model/naming.js";
import type { AuthModel, ContractModel, ErrorModel, JsonSchema, OperationModel } from "../model/types.js";
import { isSchemaObject, type SchemaObject } from "../contract/schema-walk.js";
import { escapePointerSegment } from "../contract/source.js";
import { createHash } from "node:crypto";
import type { Change } from "./structural.js";

export type TreeValue = string | number | boolean | null | TreeNode;
export interface TreeNode {
  [key: string]: TreeValue;
}

/**
 * Key of a reference to a shared type inside an operation's schema tree. A symbol: invisible to
 * Object.keys (a reference has no members of its own), and never a contract name.
 */
const TYPE_REF: unique symbol = Symbol("contractgen.diff.typeRef");

/** A reference to `types/<name>`: the type's own tree is kept once, under the root's `types`. */
export function typeRefNode(name: string): TreeNode {
  return { [TYPE_REF]: name } as unknown as TreeNode;
}

/** The type a tree value refers to, or undefined when it is no reference. */
export function typeRef(value: TreeValue | undefined): string | undefined {
  return value !== null && typeof value === "object" ? (value as unknown as { [TYPE_REF]?: string })[TYPE_REF] : undefined;
}

export interface ContractTree {
  readonly root: TreeNode;
  /**
   * Tree path (see pathKey) → document JSON pointer, recorded only where the pointer cannot be
   * derived from the parent's by appending the path's segments (schema roots, $ref targets, renamed
   * keys). DiffSide.pointer derives the rest.
   */
  readonly pointers: ReadonlyMap<string, string>;
  /** Document pointers of schemas cut short at MAX_SCHEMA_NODES: changes deep inside them may go unreported. */
  readonly oversized: readonly string[];
}

/** Map key of a tree path: segments joined by NUL, which never needs escaping here (a key that holds a NUL only risks sharing a pointer). */
export function pathKey(path: readonly string[]): string {
  return path.join("\u0000");
}

/**
 * A value as JSON text with sorted keys (equal values written in another key order have one text),
 * and for a model value without its source locations (`loc`, `withoutLoc`): compared as one scalar.
 */
export function canonicalJson(value: unknown, withoutLoc: boolean, depth = 0): string {
  if (value === null || typeof value !== "object" || depth > MAX_SCHEMA_PATH) return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, withoutLoc, depth + 1)).join(",")}]`;
  return `{${Object.keys(value)
    .filter((k) => !withoutLoc || k !== "loc")
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k], withoutLoc, depth + 1)}`)
    .join(",")}}`;
}

const plainJson = (value: unknown) => canonicalJson(value, true);

/**
 * The `type` set of a schema node without "null" (kept as `nullable`). Shared between nodes and
 * sides (never modified): equal sets are one object, which the structural walk skips at once.
 */
const typeSets = new Map<string, TreeNode>();
function typeSet(types: readonly unknown[]): TreeNode {
  const key = types.length === 1 ? String(types[0]) : JSON.stringify(types);
  let shared = typeSets.get(key);
  if (!shared) {
    shared = Object.freeze(set(types.filter((t) => t !== "null"))) as TreeNode;
    if (typeSets.size < 1000) typeSets.set(key, shared);
  }
  return shared;
}

/** Auth alternatives as one comparable text (order of alternatives and of schemes within one ignored). */
const alternatives = (list: ReadonlyArray<readonly string[]>) => JSON.stringify(list.map((a) => [...a].sort().join("+")).sort());

/** A set as a tree node: members become keys (null prototype: a member named "__proto__" is a key like any other). */
function set(values: Iterable<unknown>): TreeNode {
  const out: TreeNode = Object.create(null) as TreeNode;
  for (const v of values) out[typeof v === "string" ? v : JSON.stringify(v)] = true;
  return out;
}

/** A map as a tree node, keyed by contract names (null prototype). */
function byName<T>(entries: Iterable<readonly [string, T]>, value: (entry: T) => TreeValue): TreeNode {
  const out: TreeNode = Object.create(null) as TreeNode;
  for (const [k, v] of entries) out[k] = value(v);
  return out;
}

/**
 * Every schema an operation returns, under operations/<id>/returns/<label>: the output rules compare
 * each one and name it by its label ("output", "preview output"). A schema an operation can return
 * joins the comparison as one more entry here (error `details`: one line mapping op.errors).
 */
function returnedSchemas(op: OperationModel, base: string): Array<readonly [label: string, schema: JsonSchema, pointer: string]> {
  return [
    ["output", op.output.schema, `${base}/output`],
    ...(op.preview?.output ? [["preview output", op.preview.output.schema, `${base}/preview/output`] as const] : []),
  ];
}

/** Tree key of the node that holds an operation's returned schemas (see returnedSchemas). */
export const RETURNS = "returns";

/**
 * Schema nesting the tree follows (tree path segments). The structural walk and the rules recurse
 * on the tree, so its depth is bounded; a deeper subschema is compared as one opaque marker.
 */
export const MAX_SCHEMA_PATH = 400;

/**
 * Tree nodes one schema may expand to once its references are followed (shared types are kept as
 * references, but other definitions and error details are inlined). Definitions that each name the
 * next twice double per level: 24 of them took `diff` past 100 s. Past the limit, subschemas are
 * compared as one opaque marker and the schema is listed in ContractTree.oversized.
 */
export const MAX_SCHEMA_NODES = 50_000;

/** Keywords whose value is a number or a string, kept as they are. */
const SCALAR_KEYWORDS = [
  "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern", "format",
  "minItems", "maxItems", "minProperties", "maxProperties", "multipleOf", "minContains", "maxContains",
  "contentMediaType", "contentEncoding", "title", "description", "x-unit", "x-sunset",
] as const;
/** Keywords whose value is true or false (false means the same as leaving them out). */
const FLAG_KEYWORDS = ["uniqueItems", "readOnly", "writeOnly", "deprecated"] as const;

/** Keywords whose value is data (any JSON), compared as canonical JSON text. */
const DATA_KEYWORDS = ["default", "const", "examples"] as const;
/** Keywords whose value is one subschema (additionalProperties: false is kept as `closed`). */
export const SINGLE_KEYWORDS = [
  "items", "additionalProperties", "unevaluatedItems", "unevaluatedProperties", "contains", "propertyNames",
  "not", "if", "then", "else", "contentSchema",
] as const;
/** Keywords whose value maps names (properties, patterns) to subschemas. */
export const MAP_KEYWORDS = ["properties", "patternProperties", "dependentSchemas"] as const;
/** Keywords whose value is a list of alternative or conjoint subschemas, keyed by member identity. */
export const COMBINATOR_KEYWORDS = ["allOf", "anyOf", "oneOf"] as const;

/** How the tree keeps each keyword ("other": enum, required, dependentRequired, prefixItems, each its own way). */
const KEYWORD_KIND: ReadonlyMap<string, "scalar" | "flag" | "data" | "map" | "single" | "combinator" | "other"> = new Map([
  ...SCALAR_KEYWORDS.map((k) => [k, "scalar"] as const),
  ...FLAG_KEYWORDS.map((k) => [k, "flag"] as const),
  ...DATA_KEYWORDS.map((k) => [k, "data"] as const),
  ...MAP_KEYWORDS.map((k) => [k, "map"] as const),
  ...SINGLE_KEYWORDS.map((k) => [k, "single"] as const),
  ...COMBINATOR_KEYWORDS.map((k) => [k, "combinator"] as const),
  ...(["enum", "x-extensible-enum", "required", "dependentRequired", "prefixItems"] as const).map((k) => [k, "other"] as const),
]);

/**
 * Tree paths below operations/<id> whose document pointer is not the path itself, relative to the
 * operation ("" = the operation): the same for every operation, so looked up rather than recorded
 * per operation (DiffSide.pointer). A name written explicitly (mcp.name, cli.name) is recorded.
 */
export const OPERATION_POINTERS: ReadonlyMap<string, string> = new Map(
  (
    [
      [["names", "tool"], ""],
      [["names", "kebab"], ""],
      [["mcpExposed"], "mcp"],
      [["mcpTitle"], "mcp/title"],
      [["extensions"], ""],
      [["annotations"], "effects"],
      [["http", "bindings"], "http"],
      [["http", "styles"], "http"],
      [["cliFlags"], "input"],
      // A filter's meaning is written in its list item (filters/<i>, found by its field).
      [["filterMeanings"], "filters"],
      // Tree keys that differ from the document's field names.
      [["preview", "ttlMs"], "preview/ttl"],
      [["preview", "defaultDryRun"], "preview/default"],
      [["idempotency", "retentionMs"], "idempotency/retention"],
      [["pagination", "limitField"], "pagination/limit/field"],
      [["pagination", "limitMax"], "pagination/limit/max"],
      [["pagination", "limitDefault"], "pagination/limit/default"],
      [["outcomes", "partial"], "outcomes/partial/field"],
      [["http", "successStatuses"], "http/successStatus"],
    ] as const
  ).map(([path, pointer]) => [pathKey(path), pointer]),
);

/**
 * The CLI flags of the operations whose flags can differ between two trees, as changes under
 * operations/<id>/cliFlags/<flag>. Deriving flags costs about as much as the rest of an operation's
 * tree, and they follow only from the input (and the behaviour fields): so they are derived only
 * for operations with a change of their own or whose input reaches a changed shared type.
 */
export function cliFlagChanges(
  before: { model: ContractModel; reaching(type: string, label: string): readonly string[]; operation(id: string): OperationModel | undefined },
  after: typeof before,
  changes: readonly Change[],
): Change[] {
  const touched = new Set<string>();
  for (const c of changes) {
    if (c.path[0] === "operations" && c.path.length > 2) touched.add(c.path[1]!);
    else if (c.path[0] === "types" && c.path.length > 1) for (const side of [before, after]) for (const id of side.reaching(c.path[1]!, "input")) touched.add(id);
  }
  if (touched.size === 0) return [];
  const out: Change[] = [];
  // Tree ids: a renamed operation is looked up on the old side under its new id (DiffSide.operation).
  for (const op of after.model.operations) {
    const id = op.names.id;
    const old = touched.has(id) ? before.operation(id) : undefined;
    if (!old) continue;
    const a = new Set(cliFlagNames(old).flags.map((f) => f.flag));
    const b = new Set(cliFlagNames(op).flags.map((f) => f.flag));
    for (const flag of [...a].sort()) if (!b.has(flag)) out.push({ kind: "removed", path: ["operations", id, "cliFlags", flag], before: true, after: undefined });
    for (const flag of [...b].sort()) if (!a.has(flag)) out.push({ kind: "added", path: ["operations", id, "cliFlags", flag], before: undefined, after: true });
  }
  return out;
}

class TreeBuilder {
  readonly pointers = new Map<string, string>();

  /** CLI command names as the naming module assigns them (a name the CLI reserves gets a suffix). */
  private readonly commands: Map<string, string>;

  /** Names of the contract's shared types: a `$defs` entry of that name is the type, referred to by name. */
  private readonly typeNames: ReadonlySet<string>;

  /** Whether schema() keeps type references (operations, types) or inlines them (error details). */
  private refs = true;

  /** Nodes the schema being built may still add (MAX_SCHEMA_NODES per schema root). */
  private nodesLeft = 0;
  readonly oversized: string[] = [];

  constructor(private readonly model: ContractModel) {
    this.commands = commandNames(model);
    this.typeNames = new Set(model.types.map((t) => t.name));
  }

  private at(path: string[], pointer: string): void {
    this.pointers.set(pathKey(path), pointer);
  }

  build(): TreeNode {
    const m = this.model;
    const root: TreeNode = {
      version: m.version,
      // What readers see (titles, descriptions, the changelog, toolsets, x- extensions): compared so
      // that no edit is silent, judged by contract-annotation-changed.
      title: m.title,
      description: m.description,
      changelog: byName(m.changelog.map((e) => [e.version, e] as const), (e) => plainJson(e)),
      toolsets: byName(m.toolsets.map((t) => [t.name, t] as const), (t) => t.description),
      extensions: byName(Object.entries(m.extensions), (v) => plainJson(v)),
      budget: {
        catalogTokens: m.budget.catalogTokens,
        maxTools: m.budget.maxTools,
        skill: { listingTokens: m.budget.skill.listingTokens, bodyTokens: m.budget.skill.bodyTokens, referenceTokens: m.budget.skill.referenceTokens },
      },
      transport: {
        baseUrl: m.transport.baseUrl,
        baseUrlEnv: m.transport.baseUrlEnv,
        timeoutMs: m.transport.timeoutMs,
        auth: authNode(m.transport.auth),
        // Defaults applied: an errorFormat written as the default compares equal to none.
        errorFormat: { style: m.transport.errorFormat.style, code: m.transport.errorFormat.code, message: m.transport.errorFormat.message, field: m.transport.errorFormat.field },
      },
      errors: byName(m.errors.map((e) => [e.code, e] as const), (e) => this.error(e)),
      types: byName(m.types.map((t) => [t.name, t] as const), (t) => this.schemaRoot(t.schema.schema, ["types", t.name], `/types/${escapePointerSegment(t.name)}`)),
      operations: byName(m.operations.map((op) => [op.names.id, op] as const), (op) => this.operation(op)),
      // Events the platform sends: each payload is compared as an output (what a consumer receives).
      webhooks: byName(m.webhooks.map((w) => [w.name, w] as const), (w) => ({
        summary: w.summary,
        description: w.description,
        deprecated: w.deprecated,
        payload: this.schemaRoot(w.payload.schema, ["webhooks", w.name, "payload"], `/webhooks/${escapePointerSegment(w.name)}/payload`),
      })),
    };
    this.at(["budget"], "/budget");
    // x- extensions sit at the document's root; the changelog is a list (its entries are located at the list).
    this.at(["extensions"], "");
    this.at(["changelog"], "/changelog");
    this.at(["transport", "auth"], "/transport/auth");
    this.at(["transport", "baseUrl"], "/transport/http/baseUrl");
    this.at(["transport", "baseUrlEnv"], "/transport/http/baseUrlEnv");
    this.at(["transport", "timeoutMs"], "/transport/http/timeout");
    this.at(["transport", "errorFormat"], "/transport/http/errorFormat");
    for (const e of m.errors) this.at(["errors", e.code], `/errors/${escapePointerSegment(e.code)}`);
    return root;
  }

  /** An error: its class, action and status, the input field it concerns, and its details schema when declared. */
  private error(e: ErrorModel): TreeNode {
    const at = `/errors/${escapePointerSegment(e.code)}`;
    this.at(["errors", e.code, "field"], e.field !== null ? `${at}/field` : at);
    this.at(["errors", e.code, "wire"], e.wire !== null ? `${at}/wire` : at);
    const node: TreeNode = { class: e.class, action: e.action, http: e.httpStatus, field: e.field, wire: e.wire, description: e.description, since: e.since, retryable: e.retryable };
    // Few and compared on their own (error-details-changed): inlined, as they always were.
    this.refs = false;
    if (e.details) node.details = this.schemaRoot(e.details.schema, ["errors", e.code, "details"], `${at}/details`, false);
    this.refs = true;
    return node;
  }

  /** A set of media types, each located where the document writes it: the modelled type's field or its item in the list of others. */
  private mediaTypes(id: string, types: ReadonlySet<string>, modelled: string, field: string, others: readonly string[], list: string): TreeNode {
    const base = `/operations/${escapePointerSegment(id)}/http`;
    for (const type of types) {
      const index = others.indexOf(type);
      this.at(["operations", id, "http", list === "alsoAccepts" ? "accepts" : "offers", type], index >= 0 ? `${base}/${list}/${index}` : type === modelled ? `${base}/${field}` : base);
    }
    return set([...types].sort());
  }

  private operation(op: OperationModel): TreeNode {
    const id = op.names.id;
    const base = `/operations/${escapePointerSegment(id)}`;
    // Where the document writes these is the same for every operation (OPERATION_POINTERS); only
    // names written explicitly are recorded here.
    if (op.names.tool !== id) this.at(["operations", id, "names", "tool"], `${base}/mcp/name`);
    if (op.names.kebab !== kebabCase(id)) this.at(["operations", id, "names", "kebab"], `${base}/cli/name`);
    const node: TreeNode = {
      summary: op.summary,
      description: op.description,
      extensions: byName(Object.entries(op.extensions), (v) => plainJson(v)),
      mcpTitle: op.mcp.title,
      target: op.target === null ? null : plainJson(op.target),
      toolset: op.toolset,
      scopes: set(op.scopes),
      // An operation's own auth that says what the contract requires anyway is the same as none of its own.
      ...(op.auth !== null && alternatives(op.auth) !== alternatives(this.model.transport.auth.require) ? { auth: set(op.auth.map((alternative) => [...alternative].sort().join("+"))) } : {}),
      http: {
        method: op.http.method,
        path: op.http.path,
        bindings: byName(op.http.bindings.map((b) => [b.field, b] as const), (b) => `${b.in}:${b.name}`),
        // How each field is serialized where it goes: "<in>:<style>", "*" when exploded (JSON body fields have none).
        styles: byName(
          op.http.bindings.filter((b) => b.in !== "body" || op.http.contentType === "application/x-www-form-urlencoded").map((b) => [b.field, b] as const),
          (b) => {
            const style = b.style ?? (b.in === "path" || b.in === "header" ? "simple" : "form");
            return `${b.in}:${style}${b.explode ?? style === "form" ? "*" : ""}`;
          },
        ),
        contentType: op.http.contentType,
        successStatuses: set(op.http.successStatuses),
        body: op.http.body,
        bodyRequired: op.http.bodyRequired,
        accept: op.http.accept,
        // Every media type taken, modelled or listed: one moving between the two is no change.
        accepts: this.mediaTypes(id, acceptedTypes(op), op.http.contentType, "contentType", op.http.alsoAccepts, "alsoAccepts"),
        offers: this.mediaTypes(id, offeredTypes(op), askedType(op), "accept", op.http.alsoOffers, "alsoOffers"),
      },
      effects: { kind: op.effects.kind, idempotent: op.effects.idempotent, destructive: op.effects.destructive, reversible: op.effects.reversible, openWorld: op.effects.openWorld, undo: op.effects.undo },
      annotations: { ...op.annotations },
      names: { tool: op.names.tool, kebab: this.commands.get(op.names.id)! },
      mcpExposed: op.mcp.exposed,
      errors: set(op.errors.map((e) => e.code)),
      filters: set(op.filters.map((f) => f.field)),
      // What each filter with a declared meaning tests (filter-meaning-changed); plain filters have none.
      filterMeanings: byName(
        op.filters.filter((f) => f.match !== null).map((f) => [f.field, f] as const),
        (f) => ({ property: f.property, match: f.match, bound: f.bound, fromInclusive: f.ends?.fromInclusive ?? null, toInclusive: f.ends?.toInclusive ?? null }),
      ),
      outcomes: { states: set(op.outcomes.states), pollWith: op.outcomes.pollWith, partial: op.outcomes.partialField },
      preconditions: byName(op.preconditions.map((p) => [p.field, p] as const), (p) => ({ kind: p.kind, compares: p.compares, required: p.required, error: p.error })),
      input: this.schemaRoot(op.input.schema, ["operations", id, "input"], `${base}/input`),
      [RETURNS]: byName(
        returnedSchemas(op, base).map(([label, schema, pointer]) => [label, this.schemaRoot(schema, ["operations", id, RETURNS, label], pointer)] as const),
        (tree) => tree,
      ),
    };
    if (op.stability) node.stability = op.stability;
    if (op.deprecated) node.deprecated = { since: op.deprecated.since, sunset: op.deprecated.sunset, replacement: op.deprecated.replacement };
    if (op.idempotency) node.idempotency = { key: op.idempotency.keyField, retentionMs: op.idempotency.retentionMs, scope: op.idempotency.scope, mismatchError: op.idempotency.mismatchError, keyRequired: op.idempotency.keyRequired };
    if (op.preview) node.preview = { dryRun: op.preview.dryRunField, defaultDryRun: op.preview.defaultDryRun, confirmToken: op.preview.confirmTokenField, ttlMs: op.preview.ttlMs, singleUse: op.preview.singleUse, expiresAt: op.preview.expiresAtField, invalidTokenError: op.preview.invalidTokenError };
    if (op.pagination) {
      const p = op.pagination;
      node.pagination = { cursor: p.cursorField, nextCursor: p.nextCursorField, items: p.itemsField, limitField: p.limitField, limitMax: p.limitMax, limitDefault: p.limitDefault, total: p.totalField, partial: p.partialField, errors: p.errorsField };
      // Keys a paging style leaves out are absent, not null: a style change is one finding
      // (pagination-style-changed), not a "renamed to null" of each cursor or limit key.
      for (const key of ["cursor", "nextCursor", "items", "limitField", "limitMax"] as const) if (node.pagination[key] === null) delete node.pagination[key];
      if (p.style !== "cursor") {
        Object.assign(node.pagination, {
          style: p.style,
          nextLink: p.nextLink === null ? null : p.nextLink.kind === "field" ? p.nextLink.field : "header:Link",
          page: p.pageField,
          firstPage: p.style === "page" ? p.firstPage : null,
          offset: p.offsetField,
        });
      }
    }
    if (op.projection) node.projection = { field: op.projection.field, selectable: set(op.projection.selectable), identity: set(op.projection.identity) };
    if (op.task) node.task = { recordsExamined: op.task.recordsExaminedField, complete: op.task.completeField, continuation: op.task.continuationField, answer: op.task.answerField };
    return node;
  }

  /**
   * The tree of a whole schema (a type, an input, an output, error details) at document pointer
   * `pointer`, within MAX_SCHEMA_NODES. `recordPointer`: whether the root's pointer is recorded
   * (error details derive theirs from the error's).
   */
  private schemaRoot(schema: JsonSchema, path: string[], pointer: string, recordPointer = true): TreeNode {
    this.nodesLeft = MAX_SCHEMA_NODES;
    const tree = this.schema(schema, schema, path, new Set(), recordPointer ? pointer : undefined);
    if (this.nodesLeft < 0) this.oversized.push(pointer);
    return tree;
  }

  /**
   * A dereferenced, normalized schema; `$defs` references resolve to the shared type they name.
   * `path` is extended and restored in place (copies per node cost more than the rest of the walk).
   * Only a schema root passes its document pointer: below it, a node's pointer is its parent's plus
   * the same segments unless a $ref moved it, so pointers are recorded, never built, per node.
   */
  private schema(node: JsonSchema | unknown, root: JsonSchema, path: string[], seen: ReadonlySet<string>, rootPointer?: string): TreeNode {
    let current: unknown = node;
    let moved: string | undefined;
    let refName: string | null = null;
    for (let hops = 0; hops < 16 && isSchemaObject(current) && typeof current.$ref === "string"; hops++) {
      refName = current.$ref.startsWith("#/$defs/") ? current.$ref.slice("#/$defs/".length) : null;
      if (this.refs && refName !== null && this.typeNames.has(refName)) {
        const ref = typeRefNode(refName);
        if (hops === 0) this.siblings(current, ref, root, path, seen, rootPointer);
        return ref;
      }
      const defs = isSchemaObject(root) ? root.$defs : undefined;
      current = refName !== null && isSchemaObject(defs) && Object.hasOwn(defs, refName) ? defs[refName] : undefined;
      if (refName !== null) moved = `/types/${escapePointerSegment(refName)}`;
    }
    const at = moved ?? rootPointer;
    if (at !== undefined) this.at(path, at);
    if (refName !== null && seen.has(refName)) return { recursive: refName };
    if (path.length > MAX_SCHEMA_PATH) return { tooDeep: true };
    if (--this.nodesLeft < 0) return { tooLarge: true };
    const nextSeen = refName !== null ? new Set([...seen, refName]) : seen;
    if (!isSchemaObject(current)) return { any: current !== false };
    const s = current as SchemaObject;
    const types = Array.isArray(s.type) ? s.type : typeof s.type === "string" ? [s.type] : isSchemaObject(s.properties) ? ["object"] : [];
    // Keyed by JSON Schema keywords only (never a contract name): a plain object.
    const out: TreeNode = { type: typeSet(types), nullable: types.includes("null") };
    // `type` left out but read as "object" from `properties`: non-objects are valid too (properties only constrains objects).
    if (s.type === undefined && types.length > 0) out.typeUnwritten = true;
    // One pass over the node's own keys (most nodes have a few): each keyword by its kind.
    for (const k of Object.keys(s)) {
      const kind = KEYWORD_KIND.get(k);
      if (kind === undefined) continue;
      const v = s[k];
      switch (kind) {
        case "scalar":
          if (typeof v === "string" || typeof v === "number") out[k] = v;
          break;
        // Flags: `false` means the same as leaving them out (rules compare truth), but is still a change of the document's model.
        case "flag":
          if (typeof v === "boolean") out[k] = v;
          break;
        case "data":
          out[k] = JSON.stringify(v);
          break;
        case "map": {
          if (!isSchemaObject(v)) break;
          // Keyed by contract names (property names, patterns): a null-prototype object.
          const children: TreeNode = Object.create(null) as TreeNode;
          for (const name of Object.keys(v)) {
            path.push(k, name);
            children[name] = this.schema(v[name], root, path, nextSeen);
            path.length -= 2;
          }
          out[k] = children;
          break;
        }
        case "single":
          // `false` for the two that close an object is kept as `closed`; a `true` schema is kept ({ any: true }) though it accepts what leaving it out does.
          if (v === undefined || (v === false && (k === "additionalProperties" || k === "unevaluatedProperties"))) break;
          path.push(k);
          out[k] = this.schema(v, root, path, nextSeen);
          path.length -= 1;
          break;
        case "combinator":
          if (Array.isArray(v)) out[k] = this.members(k, v, root, path, nextSeen);
          break;
        case "other":
          if (k === "enum" && Array.isArray(v)) out.enum = set(v.map((x) => (typeof x === "string" ? x : JSON.stringify(x))));
          // The values a field is known to take, the set left open (consumers were told to expect more).
          else if (k === "x-extensible-enum" && Array.isArray(v)) out[k] = set(v.map((x) => (typeof x === "string" ? x : JSON.stringify(x))));
          else if (k === "required" && Array.isArray(v)) out.required = set(v);
          else if (k === "dependentRequired" && isSchemaObject(v)) out.dependentRequired = byName(Object.entries(v), (names) => set(Array.isArray(names) ? names : []));
          else if (k === "prefixItems" && Array.isArray(v)) {
            const items: TreeNode = Object.create(null) as TreeNode;
            v.forEach((sub, i) => {
              path.push("prefixItems", String(i));
              items[String(i)] = this.schema(sub, root, path, nextSeen);
              path.length -= 2;
            });
            out.prefixItems = items;
          }
          break;
      }
    }
    if (s.additionalProperties === false || s.unevaluatedProperties === false) {
      out.closed = true;
      // Which keyword closes it, when one is removed and the other still closes the object.
      if (s.additionalProperties === false && s.unevaluatedProperties === false) out.closedBy = "both";
    }
    return out;
  }

  /**
   * Keywords written beside a `$ref` to a shared type (2020-12 applies both: a description, a
   * constraint): kept as the reference's own keys, which DiffSide.get reads before the type's.
   */
  private siblings(schema: SchemaObject, ref: TreeNode, root: JsonSchema, path: string[], seen: ReadonlySet<string>, rootPointer: string | undefined): void {
    const rest: SchemaObject = { ...schema };
    delete rest.$ref;
    delete rest.$comment;
    if (Object.keys(rest).length === 0) return;
    if (rootPointer !== undefined) this.at(path, rootPointer);
    const tree = this.schema(rest, root, path, seen);
    // `type` and `nullable` are always set on a node; beside a reference they are the type's unless written.
    if (!("type" in rest)) {
      delete tree.type;
      delete tree.nullable;
    }
    Object.assign(ref, tree);
  }

  /**
   * The members of an allOf/anyOf/oneOf, keyed by identity rather than position (memberKey), so that
   * inserting one member does not shift every later one. Each member's document pointer is recorded
   * (its key is not its index); members the keys do not pair are paired by structure in structuralDiff.
   */
  private members(keyword: string, list: unknown[], root: JsonSchema, path: string[], seen: ReadonlySet<string>): TreeNode {
    const out: TreeNode = Object.create(null) as TreeNode;
    const parent = this.pointerOf(path);
    list.forEach((sub, i) => {
      const base = memberKey(sub, root);
      let key = base;
      for (let n = 2; Object.hasOwn(out, key); n++) key = `${base} (${n})`;
      path.push(keyword, key);
      this.at(path, `${parent}/${keyword}/${i}`);
      out[key] = this.schema(sub, root, path, seen);
      path.length -= 2;
    });
    return markMembers(out);
  }

  /** The document pointer of a tree path being built: its nearest recorded ancestor's plus the rest. */
  private pointerOf(path: readonly string[]): string {
    for (let n = path.length; n > 0; n--) {
      const pointer = this.pointers.get(pathKey(path.slice(0, n)));
      if (pointer !== undefined) return path.slice(n).reduce((p, s) => `${p}/${escapePointerSegment(s)}`, pointer);
    }
    return path.reduce((p, s) => `${p}/${escapePointerSegment(s)}`, "");
  }
}

/** Key of the marker on a node that holds allOf/anyOf/oneOf members (invisible to Object.keys). */
const MEMBERS: unique symbol = Symbol("contractgen.diff.members");

export function markMembers(node: TreeNode): TreeNode {
  (node as unknown as { [MEMBERS]: true })[MEMBERS] = true;
  return node;
}

/** Whether a tree node holds the members of an allOf/anyOf/oneOf (keyed by memberKey). */
export function isMembers(value: TreeValue | undefined): value is TreeNode {
  return value !== null && typeof value === "object" && (value as unknown as { [MEMBERS]?: true })[MEMBERS] === true;
}

/**
 * Who a combinator member is, in this order: the type it references (`$ref Money`), the value its
 * discriminating property is fixed to (`kind=card`), its title (`title Card`), else its content
 * (`#` and a digest: equal members match, different ones are paired by structure in structuralDiff).
 */
export function memberKey(member: unknown, root: JsonSchema): string {
  if (!isSchemaObject(member)) return `#${JSON.stringify(member)}`;
  if (typeof member.$ref === "string") return `$ref ${member.$ref.startsWith("#/$defs/") ? member.$ref.slice("#/$defs/".length) : member.$ref}`;
  const props = member.properties;
  if (isSchemaObject(props)) {
    for (const name of Object.keys(props).sort()) {
      const p = props[name];
      if (isSchemaObject(p) && "const" in p) return `${name}=${JSON.stringify(p.const)}`;
      if (isSchemaObject(p) && Array.isArray(p.enum) && p.enum.length === 1) return `${name}=${JSON.stringify(p.enum[0])}`;
    }
  }
  if (typeof member.title === "string") return `title ${member.title}`;
  void root;
  return `#${createHash("sha1").update(canonicalJson(member, false)).digest("hex").slice(0, 10)}`;
}


/**
 * Moves the recorded pointers of member `from` of the members node at `members` to member `to`
 * (structuralDiff renamed the old side's key to the new side's when it paired them by structure).
 */
export function rekeyPointers(tree: ContractTree, members: readonly string[], from: string, to: string): void {
  const pointers = tree.pointers as Map<string, string>;
  const prefix = pathKey([...members, from]);
  const moved: Array<[string, string]> = [];
  for (const [key, pointer] of pointers) if (key === prefix || key.startsWith(`${prefix}\u0000`)) moved.push([key, pointer]);
  const target = pathKey([...members, to]);
  for (const [key, pointer] of moved) {
    pointers.delete(key);
    pointers.set(target + key.slice(prefix.length), pointer);
  }
}

export function contractTree(model: ContractModel): ContractTree {
  const builder = new TreeBuilder(model);
  const root = builder.build();
  return { root, pointers: builder.pointers, oversized: builder.oversized };
}

/**
 * `transport.auth` in the tree: the single forms as they always were (type, tokenEnv, header); named
 * schemes by name with how each is sent, and the alternatives required. Rules that judge what a
 * caller must now send read the models (auth-credential-required, auth-removed).
 */
function authNode(auth: AuthModel): TreeNode {
  if (auth.form !== "schemes") {
    const single = auth.schemes[0];
    return { type: auth.form, tokenEnv: single && single.type !== "basic" ? single.tokenEnv : null, header: single?.type === "apiKey" ? single.paramName : null };
  }
  return {
    type: "schemes",
    tokenEnv: null,
    header: null,
    schemes: byName(auth.schemes.map((s) => [s.name, s] as const), (s) => (s.type === "apiKey" ? `apiKey:${s.in}:${s.paramName}` : s.type)),
    require: set(auth.require.map((alternative) => [...alternative].sort().join("+"))),
  };
}
