/**
 * The comparable view of a contract model: a plain tree in which every fact the diff cares about
 * sits at a stable path, sets are objects keyed by their members (so membership changes show up as
 * added/removed keys), and schemas are dereferenced. Each tree path also knows the JSON pointer of
 * the document node it came from, so findings can point into both files.
 */
import { operationFlags } from "../emit/cli/commands.js";
import { kebabCase } from "../model/naming.js";
import type { ContractModel, JsonSchema, OperationModel } from "../model/types.js";
import { isSchemaObject, type SchemaObject } from "../spec/schema-walk.js";
import { escapePointerSegment } from "../spec/source.js";

export type TreeValue = string | number | boolean | null | TreeNode;
export interface TreeNode {
  [key: string]: TreeValue;
}

export interface ContractTree {
  readonly root: TreeNode;
  /** Tree path (see pathKey) → document JSON pointer. */
  readonly pointers: ReadonlyMap<string, string>;
}

/** Map key of a tree path: segments joined by NUL, which never needs escaping here (a key that holds a NUL only risks sharing a pointer). */
export function pathKey(path: readonly string[]): string {
  return path.join("\u0000");
}

/**
 * A tree node keyed by contract names (fields, codes, operations, set members). It has no prototype,
 * so a field called "constructor" or "__proto__" is an ordinary key, and looking up one that is
 * absent gives undefined instead of an Object.prototype member.
 */
function keyed(entries: Iterable<readonly [string, TreeValue]> = []): TreeNode {
  const out = Object.create(null) as TreeNode;
  for (const [k, v] of entries) out[k] = v;
  return out;
}

/** A set as a tree node: members become keys. */
function set(values: Iterable<unknown>): TreeNode {
  return keyed([...values].map((v) => [typeof v === "string" ? v : JSON.stringify(v), true] as const));
}

const SCALAR_KEYWORDS = [
  "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern", "format",
  "minItems", "maxItems", "minProperties", "maxProperties", "multipleOf", "x-unit",
] as const;

class TreeBuilder {
  readonly pointers = new Map<string, string>();

  constructor(private readonly model: ContractModel) {}

  private at(path: string[], pointer: string): void {
    this.pointers.set(pathKey(path), pointer);
  }

  build(): TreeNode {
    const m = this.model;
    const root: TreeNode = {
      version: m.version,
      budget: { catalogTokens: m.budget.catalogTokens, maxTools: m.budget.maxTools },
      transport: {
        baseUrl: m.transport.baseUrl,
        auth: { type: m.transport.auth.type, tokenEnv: m.transport.auth.type === "none" ? null : m.transport.auth.tokenEnv, header: m.transport.auth.type === "apiKey" ? m.transport.auth.header : null },
      },
      errors: keyed(m.errors.map((e) => [e.code, { class: e.class, action: e.action, http: e.httpStatus }])),
      operations: keyed(m.operations.map((op) => [op.names.id, this.operation(op)])),
    };
    this.at(["budget"], "/budget");
    this.at(["transport", "auth"], "/transport/auth");
    this.at(["transport", "baseUrl"], "/transport/http/baseUrl");
    for (const e of m.errors) this.at(["errors", e.code], `/errors/${escapePointerSegment(e.code)}`);
    return root;
  }

  private operation(op: OperationModel): TreeNode {
    const id = op.names.id;
    const base = `/operations/${escapePointerSegment(id)}`;
    this.at(["operations", id], base);
    this.at(["operations", id, "names", "tool"], op.names.tool === id ? base : `${base}/mcp/name`);
    this.at(["operations", id, "names", "kebab"], op.names.kebab === kebabCase(id) ? base : `${base}/cli/name`);
    this.at(["operations", id, "mcpExposed"], `${base}/mcp`);
    this.at(["operations", id, "annotations"], `${base}/effects`);
    this.at(["operations", id, "http", "bindings"], `${base}/http`);
    this.at(["operations", id, "cliFlags"], `${base}/input`);
    // Tree keys that differ from the document's field names.
    const aliases: Array<[string[], string]> = [
      [["preview", "ttlMs"], "preview/ttl"],
      [["preview", "defaultDryRun"], "preview/default"],
      [["idempotency", "retentionMs"], "idempotency/retention"],
      [["pagination", "limitField"], "pagination/limit/field"],
      [["pagination", "limitMax"], "pagination/limit/max"],
      [["pagination", "limitDefault"], "pagination/limit/default"],
      [["outcomes", "partial"], "outcomes/partial/field"],
    ];
    for (const [path, pointer] of aliases) this.at(["operations", id, ...path], `${base}/${pointer}`);
    const node: TreeNode = {
      summary: op.summary,
      description: op.description,
      toolset: op.toolset,
      scopes: set(op.scopes),
      http: { method: op.http.method, path: op.http.path, bindings: keyed(op.http.bindings.map((b) => [b.field, `${b.in}:${b.name}`])) },
      effects: { kind: op.effects.kind, idempotent: op.effects.idempotent, destructive: op.effects.destructive, reversible: op.effects.reversible, openWorld: op.effects.openWorld },
      annotations: { ...op.annotations },
      names: { tool: op.names.tool, kebab: op.names.kebab },
      mcpExposed: op.mcp.exposed,
      errors: set(op.errors.map((e) => e.code)),
      filters: set(op.filters),
      outcomes: { states: set(op.outcomes.states), pollWith: op.outcomes.pollWith, partial: op.outcomes.partialField },
      preconditions: keyed(op.preconditions.map((p) => [p.field, { kind: p.kind, compares: p.compares, required: p.required, error: p.error }])),
      cliFlags: set(operationFlags(op).flags.map((f) => f.flag)),
      input: this.schema(op.input.schema, op.input.schema, ["operations", id, "input"], `${base}/input`, new Set()),
      output: this.schema(op.output.schema, op.output.schema, ["operations", id, "output"], `${base}/output`, new Set()),
    };
    if (op.deprecated) node.deprecated = { since: op.deprecated.since, sunset: op.deprecated.sunset, replacement: op.deprecated.replacement };
    if (op.idempotency) node.idempotency = { key: op.idempotency.keyField, retentionMs: op.idempotency.retentionMs, scope: op.idempotency.scope, mismatchError: op.idempotency.mismatchError };
    if (op.preview) node.preview = { dryRun: op.preview.dryRunField, defaultDryRun: op.preview.defaultDryRun, confirmToken: op.preview.confirmTokenField, ttlMs: op.preview.ttlMs };
    if (op.pagination) {
      const p = op.pagination;
      node.pagination = { cursor: p.cursorField, nextCursor: p.nextCursorField, items: p.itemsField, limitField: p.limitField, limitMax: p.limitMax, limitDefault: p.limitDefault, total: p.totalField, partial: p.partialField, errors: p.errorsField };
    }
    if (op.projection) node.projection = { field: op.projection.field, selectable: set(op.projection.selectable), identity: set(op.projection.identity) };
    if (op.task) node.task = { recordsExamined: op.task.recordsExaminedField, complete: op.task.completeField, continuation: op.task.continuationField };
    return node;
  }

  /** A dereferenced, normalized schema; `$defs` references resolve to the shared type they name. */
  private schema(node: JsonSchema | unknown, root: JsonSchema, path: string[], pointer: string, seen: ReadonlySet<string>): TreeNode {
    let current: unknown = node;
    let at = pointer;
    let refName: string | null = null;
    for (let hops = 0; hops < 16 && isSchemaObject(current) && typeof current.$ref === "string"; hops++) {
      refName = current.$ref.startsWith("#/$defs/") ? current.$ref.slice("#/$defs/".length) : null;
      const defs = isSchemaObject(root) ? root.$defs : undefined;
      current = refName !== null && isSchemaObject(defs) && Object.hasOwn(defs, refName) ? defs[refName] : undefined;
      if (refName !== null) at = `/types/${escapePointerSegment(refName)}`;
    }
    this.at(path, at);
    if (refName !== null && seen.has(refName)) return { recursive: refName };
    const nextSeen = refName !== null ? new Set([...seen, refName]) : seen;
    if (!isSchemaObject(current)) return { any: current !== false };
    const s = current as SchemaObject;
    const types = Array.isArray(s.type) ? s.type : typeof s.type === "string" ? [s.type] : isSchemaObject(s.properties) ? ["object"] : [];
    const out: TreeNode = { type: set(types.filter((t) => t !== "null")), nullable: types.includes("null") };
    for (const k of SCALAR_KEYWORDS) if (typeof s[k] === "string" || typeof s[k] === "number") out[k] = s[k] as string | number;
    if ("default" in s) out.default = JSON.stringify(s.default);
    if ("const" in s) out.const = JSON.stringify(s.const);
    if (Array.isArray(s.enum)) out.enum = set(s.enum.map((v) => (typeof v === "string" ? v : JSON.stringify(v))));
    if (Array.isArray(s.required)) out.required = set(s.required);
    if (s.additionalProperties === false || s.unevaluatedProperties === false) out.closed = true;
    if (isSchemaObject(s.properties)) {
      const props = keyed();
      for (const [name, sub] of Object.entries(s.properties)) props[name] = this.schema(sub, root, [...path, "properties", name], `${at}/properties/${escapePointerSegment(name)}`, nextSeen);
      out.properties = props;
    }
    if (s.items !== undefined) out.items = this.schema(s.items, root, [...path, "items"], `${at}/items`, nextSeen);
    for (const k of ["allOf", "anyOf", "oneOf"] as const) {
      if (Array.isArray(s[k])) {
        const branches = keyed();
        (s[k] as unknown[]).forEach((sub, i) => (branches[String(i)] = this.schema(sub, root, [...path, k, String(i)], `${at}/${k}/${i}`, nextSeen)));
        out[k] = branches;
      }
    }
    return out;
  }
}

export function contractTree(model: ContractModel): ContractTree {
  const builder = new TreeBuilder(model);
  const root = builder.build();
  return { root, pointers: builder.pointers };
}
