import { clientClassName, clientMethodInputs, clientMethodNames, type MethodInputShape } from "../../model/naming.js";
import type { JsonSchema, OperationModel, TypeModel } from "../../model/types.js";
import { isSchemaObject, type SchemaObject } from "../../contract/schema-walk.js";
import { type DiffContext, type DiffSide, q, type RuleFinding } from "../rule.js";
import { MAX_SCHEMA_PATH, memberKey, pathKey, RETURNS } from "../tree.js";
import { errorRenames } from "./_pairs.js";

/*
 * The generated TypeScript SDK's source surface (not a rule: files starting with "_" are not
 * registered), for the sdk-* rules: what code written against the old generated SDK (src/emit/sdk)
 * names and writes, and whether it still compiles against the new one. The wire rules judge
 * requests and responses; these judge the code a consumer wrote.
 *
 * Names come from the functions the emitter itself prints them with (naming.ts: the client class,
 * its methods and their input shapes, the types' identifiers, which types.ts declares; the taxonomy's
 * codes are `ErrorCode` and what `isContractError` accepts), so the two cannot drift. Members come
 * from the schemas as json-schema-to-typescript types them (sdk/types.ts): property names as
 * written, `required` for optionality, `enum`/`const` as literal unions, `type` (integer is number,
 * "null" is `| null`), `items`, `allOf` as an intersection, anyOf/oneOf as a union (compared by the
 * kinds and literals it admits, not member by member), `additionalProperties`/`patternProperties`
 * as an index signature (absent: none, the generator's option), a schema with no typing keyword as
 * `unknown`.
 *
 * What old consumer code is assumed to do, per position:
 * - input (a method's `input`, a type reached from an input): pass any value its old type accepted,
 *   as an object literal, leaving optional options out. It breaks when an option it could set is
 *   gone (excess property: unless the object takes any other property, through an index signature
 *   or by declaring none, `{}`), one it could omit is required, a literal it could pass is gone, or
 *   a kind of value it could pass is no longer accepted. An index signature is the generator's
 *   reading of `additionalProperties`: absent means none, so dropping `additionalProperties: {…}`
 *   widens the wire and narrows the SDK.
 * - output (what a method returns, a type reached from an output): read every property and use the
 *   value as its old kind (call string methods, compare with each old literal). It breaks when a
 *   property is gone or may now be absent, a literal it compared with is gone (TS2367: no overlap),
 *   or the value may now be of another kind (null, a number where a string was, unknown). A literal
 *   added to an output union keeps its kind: compatible (an exhaustiveness check with `never` would
 *   notice, and is not assumed).
 *
 * Member surfaces are compared only for what the structural diff found changed (a shared type, an
 * operation's input or one of its returned schemas): an unchanged schema has an unchanged type, so
 * a large contract diffed against itself costs the names only.
 */

/** Rule ids of the SDK source findings. */
export type SdkRuleId =
  | "sdk-method-removed"
  | "sdk-export-removed"
  | "sdk-error-code-removed"
  | "sdk-property-removed"
  | "sdk-property-required"
  | "sdk-literal-removed"
  | "sdk-type-changed";

/** The end of every sdk-* hint: what the publisher of the generated SDK owes its users. */
export const SDK_MAJOR = "Publish the generated SDK package as a new major version: its consumers must edit code written against the old one, whatever the wire does.";

export type MethodKind = "call" | "preview" | "all";

export interface SdkMethod {
  readonly name: string;
  /** The operation's tree id on its side (on the old side of a rename, the new id). */
  readonly operation: string;
  readonly kind: MethodKind;
}

export type TypeSlot = "input" | "output" | "preview";

/** Who declares an exported type: a shared type, or one slot of an operation. */
export type SdkTypeOwner = { readonly kind: "type"; readonly name: string } | { readonly kind: "operation"; readonly operation: string; readonly slot: TypeSlot };

/** The names code written against a generated SDK can use. */
export interface SdkSurface {
  /** The client class (index.ts exports it). */
  readonly client: string;
  /** Client methods by name. */
  readonly methods: ReadonlyMap<string, SdkMethod>;
  /** Method name of an operation (tree id) and kind. */
  methodOf(operation: string, kind: MethodKind): string | undefined;
  /** Types declared in sdk/types.ts (re-exported by index.ts), by identifier. */
  readonly types: ReadonlyMap<string, SdkTypeOwner>;
  /** Identifiers of each operation's types (tree id → slot → identifier). */
  typesOf(operation: string): ReadonlyArray<readonly [TypeSlot, string]>;
  /** `ErrorCode`: the taxonomy's codes, what `isContractError` and `ContractErrorOf` accept. */
  readonly errorCodes: ReadonlySet<string>;
}

const surfaces = new WeakMap<DiffSide, SdkSurface>();

/** The SDK surface of one side, from its model. */
export function sdkSurface(side: DiffSide): SdkSurface {
  const cached = surfaces.get(side);
  if (cached) return cached;
  const model = side.model;
  const methods = new Map<string, SdkMethod>();
  const byOperation = new Map<string, string>();
  const types = new Map<string, SdkTypeOwner>();
  const opTypes = new Map<string, Array<readonly [TypeSlot, string]>>();
  for (const t of model.types) types.set(t.identifier, { kind: "type", name: t.name });
  const names = clientMethodNames(model);
  for (const op of model.operations) {
    const id = side.treeId(op);
    const m = names.get(op.names.id)!;
    for (const [kind, name] of [["call", m.call], ["preview", m.preview], ["all", m.all]] as const) {
      if (name === null) continue;
      methods.set(name, { name, operation: id, kind });
      byOperation.set(`${id}\u0000${kind}`, name);
    }
    const slots: Array<readonly [TypeSlot, string]> = [["input", op.names.types.input], ["output", op.names.types.output]];
    if (op.preview?.output && op.names.types.preview) slots.push(["preview", op.names.types.preview]);
    opTypes.set(id, slots);
    for (const [slot, identifier] of slots) if (!types.has(identifier)) types.set(identifier, { kind: "operation", operation: id, slot });
  }
  const surface: SdkSurface = {
    client: clientClassName(model),
    methods,
    methodOf: (operation, kind) => byOperation.get(`${operation}\u0000${kind}`),
    types,
    typesOf: (operation) => opTypes.get(operation) ?? [],
    errorCodes: new Set(model.errors.map((e) => e.code)),
  };
  surfaces.set(side, surface);
  return surface;
}

/* ---- members: a schema as the generated TypeScript types it ---- */

type Kind = "string" | "number" | "boolean" | "null" | "object" | "array";
const ALL_KINDS: readonly Kind[] = ["string", "number", "boolean", "null", "object", "array"];

/** A property of an object type. */
interface TsProp {
  readonly optional: boolean;
  readonly path: readonly string[];
  view(): TsView;
}

/** What TypeScript sees of one schema node. */
interface TsView {
  /** `unknown` (a schema with no typing keyword, `true`): any value. */
  readonly any: boolean;
  /** The kinds of value the type admits (all of them when `any`; none for `false`). */
  readonly kinds: ReadonlySet<Kind>;
  /** A union of literals (enum, const): JSON text of each; null when the type is not one. */
  readonly literals: ReadonlySet<string> | null;
  /** The shared type this node names (`$ref` to a type under `types:`), compared on its own; null otherwise. */
  readonly ref: string | null;
  /** Object members (allOf members merged), or null when not known member by member (a union). */
  readonly props: ReadonlyMap<string, TsProp> | null;
  /** An index signature: other properties are allowed. */
  readonly open: boolean;
  /** The element type of an array. */
  items(): TsView | null;
  /** The node's tree path on its side. */
  readonly path: readonly string[];
}

const anyView = (path: readonly string[]): TsView => ({ any: true, kinds: new Set(ALL_KINDS), literals: null, ref: null, props: null, open: true, items: () => null, path });

/** In-place applicators: with one of them, `unevaluatedProperties` is not typed (type-schema.ts). */
const APPLICATORS = ["allOf", "anyOf", "oneOf", "if", "then", "else", "not", "dependentSchemas", "$ref", "$dynamicRef"];

/** Keywords json-schema-to-typescript types from (a schema without any of them is `unknown`). */
const TYPING = ["type", "enum", "const", "properties", "additionalProperties", "unevaluatedProperties", "patternProperties", "items", "prefixItems", "allOf", "anyOf", "oneOf"];

const kindOf = (value: unknown): Kind =>
  value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "object" ? "object" : typeof value === "number" ? "number" : typeof value === "boolean" ? "boolean" : "string";

function typeKinds(type: unknown): Set<Kind> | null {
  const list = Array.isArray(type) ? type : typeof type === "string" ? [type] : null;
  if (list === null) return null;
  const out = new Set<Kind>();
  for (const t of list) {
    if (t === "integer" || t === "number") out.add("number");
    else if (t === "string" || t === "boolean" || t === "null" || t === "object" || t === "array") out.add(t);
  }
  return out;
}

/** Views of one side's schemas (shared types cached by name). */
class Views {
  private readonly types: ReadonlyMap<string, TypeModel>;
  private readonly typeViews = new Map<string, TsView>();

  constructor(readonly side: DiffSide) {
    this.types = new Map(side.model.types.map((t) => [t.name, t]));
  }

  hasType(name: string): boolean {
    return this.types.has(name);
  }

  /** The view of shared type `name` (what its declaration in types.ts is). */
  type(name: string): TsView {
    let v = this.typeViews.get(name);
    if (!v) {
      const t = this.types.get(name);
      v = t ? this.view(t.schema.schema, t.schema.schema, ["types", name], new Set()) : anyView(["types", name]);
      this.typeViews.set(name, v);
    }
    return v;
  }

  /**
   * The view of a schema node at tree path `path` (root: the bundled schema whose `$defs` its
   * references point into). A reference to a shared type is a `ref`; any other is followed (the
   * tree inlines it too), once per chain: a recursive one is `unknown`.
   */
  view(schema: unknown, root: JsonSchema, path: readonly string[], seen: ReadonlySet<string>): TsView {
    // As deep as the tree follows a schema (tree.ts); deeper is compared no further.
    if (path.length > MAX_SCHEMA_PATH) return anyView(path);
    let s = schema;
    let chain = seen;
    for (let hops = 0; hops < 16 && isSchemaObject(s) && typeof s.$ref === "string"; hops++) {
      const key = s.$ref.startsWith("#/$defs/") ? s.$ref.slice("#/$defs/".length) : null;
      if (key !== null && this.types.has(key)) return this.refView(key, path);
      const defs = isSchemaObject(root) ? root.$defs : undefined;
      if (key === null || chain.has(key) || !isSchemaObject(defs) || !Object.hasOwn(defs, key)) return anyView(path);
      chain = new Set([...chain, key]);
      s = defs[key];
    }
    if (s === false) return { any: false, kinds: new Set(), literals: null, ref: null, props: new Map(), open: false, items: () => null, path };
    if (!isSchemaObject(s) || !TYPING.some((k) => k in s)) return anyView(path);
    const node = s;
    let kinds: Set<Kind> | null = typeKinds(node.type);
    let literals: Set<string> | null = null;
    const narrow = (k: ReadonlySet<Kind>) => (kinds = kinds === null ? new Set(k) : new Set([...kinds].filter((x) => k.has(x))));
    const keepLiterals = (l: ReadonlySet<string>) => (literals = literals === null ? new Set(l) : new Set([...literals].filter((x) => l.has(x))));
    if (Array.isArray(node.enum)) {
      keepLiterals(new Set(node.enum.map((v) => JSON.stringify(v))));
      narrow(new Set(node.enum.map(kindOf)));
    }
    if ("const" in node) {
      keepLiterals(new Set([JSON.stringify(node.const)]));
      narrow(new Set([kindOf(node.const)]));
    }
    const objectLike = isSchemaObject(node.properties) || "additionalProperties" in node || "unevaluatedProperties" in node || isSchemaObject(node.patternProperties);
    if (node.type === undefined && isSchemaObject(node.properties)) narrow(new Set<Kind>(["object"]));
    // Own members, then each allOf member's (an intersection has them all; required in any is required).
    let props: Map<string, TsProp> | null = objectLike || kinds?.has("object") ? new Map() : null;
    // `unevaluatedProperties` types as `additionalProperties` only where no applicator decides it (type-schema.ts).
    const unevaluated = node.additionalProperties === undefined && !APPLICATORS.some((k) => k in node) ? node.unevaluatedProperties : undefined;
    let open = (node.additionalProperties !== undefined && node.additionalProperties !== false) || (unevaluated !== undefined && unevaluated !== false) || isSchemaObject(node.patternProperties);
    if (isSchemaObject(node.properties)) {
      const required = new Set(Array.isArray(node.required) ? node.required : []);
      for (const name of Object.keys(node.properties)) {
        const sub = node.properties[name];
        const at = [...path, "properties", name];
        props!.set(name, { optional: !required.has(name), path: at, view: lazy(() => this.view(sub, root, at, chain)) });
      }
    }
    let items: (() => TsView | null) | null = null;
    if (Array.isArray(node.prefixItems) || Array.isArray(node.items)) items = () => anyView([...path, "items"]);
    else if ("items" in node) items = lazy(() => this.view(node.items, root, [...path, "items"], chain));
    if (Array.isArray(node.allOf)) {
      for (const member of node.allOf) {
        const at = [...path, "allOf", memberKey(member, root)];
        let v = this.view(member, root, at, chain);
        if (v.ref !== null) v = this.type(v.ref);
        if (v.any) continue;
        narrow(v.kinds);
        if (v.literals) keepLiterals(v.literals);
        if (v.props) {
          props ??= new Map();
          for (const [name, p] of v.props) {
            const own = props.get(name);
            props.set(name, own ? { ...own, optional: own.optional && p.optional } : p);
          }
          open = open || v.open;
        }
        if (v.items) items ??= v.items;
      }
    }
    for (const keyword of ["anyOf", "oneOf"] as const) {
      const list = node[keyword];
      if (!Array.isArray(list) || list.length === 0) continue;
      const members = list.map((member) => {
        const v = this.view(member, root, [...path, keyword, memberKey(member, root)], chain);
        return v.ref !== null ? this.type(v.ref) : v;
      });
      if (members.some((m) => m.any)) continue;
      narrow(new Set(members.flatMap((m) => [...m.kinds])));
      if (members.every((m) => m.literals !== null)) keepLiterals(new Set(members.flatMap((m) => [...m.literals!])));
      // Members of a union are not compared one by one.
      if (!objectLike) props = null;
    }
    const finalKinds = kinds ?? new Set(ALL_KINDS);
    return {
      any: kinds === null && literals === null,
      kinds: finalKinds,
      literals,
      ref: null,
      props: finalKinds.has("object") ? props : null,
      open,
      items: items ?? (() => null),
      path,
    };
  }

  private refView(name: string, path: readonly string[]): TsView {
    const resolved = lazy(() => this.type(name));
    return {
      get any() { return resolved().any; },
      get kinds() { return resolved().kinds; },
      get literals() { return resolved().literals; },
      ref: name,
      get props() { return resolved().props; },
      get open() { return resolved().open; },
      items: () => resolved().items(),
      path,
    };
  }
}

function lazy<T>(make: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = make();
      done = true;
    }
    return value;
  };
}

/** The view of a method's input: the operation's input type with the method's shape applied (clientMethodInputs). */
function methodInputView(views: Views, op: OperationModel, id: string, shape: MethodInputShape): TsView {
  const schema = op.input.schema;
  let view = views.view(schema, schema, ["operations", id, "input"], new Set());
  const touched = [...shape.omit, ...shape.optional, ...(shape.confirm ?? [])];
  if (touched.length === 0 || view.props === null) return view;
  if (view.ref !== null) view = views.type(view.ref);
  const props = new Map(view.props);
  for (const field of shape.omit) props.delete(field);
  for (const field of shape.optional) {
    const p = props.get(field);
    if (p) props.set(field, { ...p, optional: true });
  }
  if (shape.confirm) {
    const [dryRun, token] = shape.confirm;
    const d = props.get(dryRun);
    if (d) props.set(dryRun, { ...d, optional: true, view: () => ({ ...anyView(d.path), any: false, kinds: new Set<Kind>(["boolean"]), literals: new Set(["false"]), props: null, open: false }) });
    const t = props.get(token);
    if (t) {
      props.set(token, {
        ...t,
        optional: false,
        view: lazy(() => {
          const v = t.view();
          return { ...v, any: false, kinds: new Set([...v.kinds].filter((k) => k !== "null")), items: v.items };
        }),
      });
    }
  }
  return { ...view, ref: null, props, items: view.items };
}

/* ---- comparing ---- */

type Position = "input" | "output";

/** One SDK incompatibility before its message is written: positions it breaks in are merged. */
interface Incompatibility {
  readonly rule: SdkRuleId;
  readonly before?: readonly string[];
  readonly after?: readonly string[];
  /** Field path in the declaration ("" for its root). */
  readonly field: string;
  /** What changed, after the subject ("was removed", "lost the literal \"x\""). */
  readonly change: string;
  /** What old code meets, per position. */
  readonly effects: Map<Position, string>;
}

/** Where a declaration sits: what its subject is called in a message, and the operations it reaches. */
interface Declaration {
  /** `input option`, `output property`…: for a field, and for the root. */
  readonly describe: (field: string) => string;
  readonly operations: readonly string[];
  readonly positions: readonly Position[];
}

/** Nodes compared per declaration at most (a recursive or huge type stops there). */
const MAX_COMPARED = 20_000;

class Comparison {
  private readonly found = new Map<string, Incompatibility>();
  private budget = MAX_COMPARED;

  constructor(
    private readonly old: Views,
    private readonly new_: Views,
    /** Old-side property name → its new name (a path parameter renamed in place), for the root of an operation's input. */
    private readonly renamedAtRoot: ReadonlyMap<string, string> = new Map(),
  ) {}

  results(): Incompatibility[] {
    return [...this.found.values()];
  }

  private report(position: Position, inc: Omit<Incompatibility, "effects">, effect: string): void {
    const key = [inc.rule, pathKey(inc.before ?? []), pathKey(inc.after ?? []), inc.change].join("\u0001");
    const known = this.found.get(key);
    if (known) known.effects.set(position, effect);
    else this.found.set(key, { ...inc, effects: new Map([[position, effect]]) });
  }

  compare(a: TsView, b: TsView, position: Position, field: string, visited: Set<string> = new Set()): void {
    if (--this.budget < 0 || a.path.length > MAX_SCHEMA_PATH || b.path.length > MAX_SCHEMA_PATH) return;
    if (a.ref !== null && b.ref !== null && a.ref === b.ref && this.old.hasType(a.ref) && this.new_.hasType(b.ref)) return;
    if (a.ref !== null || b.ref !== null) {
      const key = `${position}\u0000${a.ref ?? pathKey(a.path)}\u0000${b.ref ?? pathKey(b.path)}`;
      if (visited.has(key)) return;
      visited.add(key);
      if (a.ref !== null) a = this.old.type(a.ref);
      if (b.ref !== null) b = this.new_.type(b.ref);
    }
    const at = { before: a.path, after: b.path, field };
    const list = (kinds: Iterable<string>) => [...kinds].map((k) => (k === "object" || k === "array" ? `an ${k}` : k)).join(", ");
    if (position === "input") {
      if (!b.any) {
        if (a.any) {
          this.report(position, { rule: "sdk-type-changed", ...at, change: `accepted any value and now only ${list(b.kinds)}` }, "code that passes another value no longer compiles");
          return;
        }
        const lost = [...a.kinds].filter((k) => !b.kinds.has(k));
        if (lost.length === a.kinds.size && a.kinds.size > 0) {
          this.report(position, { rule: "sdk-type-changed", ...at, change: `now accepts only ${list(b.kinds)} (was ${list(a.kinds)})` }, "code that passes a value of the old type no longer compiles");
          return;
        }
        if (lost.length > 0) this.report(position, { rule: "sdk-type-changed", ...at, change: `no longer accepts ${list(lost)}` }, `code that passes ${lost.length === 1 && lost[0] === "null" ? "null" : "such a value"} no longer compiles`);
        if (b.literals !== null) {
          if (a.literals === null) {
            this.report(position, { rule: "sdk-type-changed", ...at, change: `now accepts only ${[...b.literals].join(", ")}` }, "code that passes any other value no longer compiles");
            return;
          }
          for (const literal of a.literals) {
            if (!b.literals.has(literal)) this.report(position, { rule: "sdk-literal-removed", before: [...a.path, "enum", literalKey(literal)], after: b.path, field, change: `lost the literal ${literal}` }, "code that passes it no longer compiles");
          }
        }
      }
    } else {
      if (!a.any) {
        if (b.any) {
          this.report(position, { rule: "sdk-type-changed", ...at, change: "is now typed unknown" }, "code that uses the value as before no longer compiles");
          return;
        }
        const gained = [...b.kinds].filter((k) => !a.kinds.has(k));
        if (gained.length === b.kinds.size && b.kinds.size > 0) {
          this.report(position, { rule: "sdk-type-changed", ...at, change: `is now ${list(b.kinds)} (was ${list(a.kinds)})` }, "code that uses the value as before no longer compiles");
          return;
        }
        if (gained.length > 0) {
          this.report(position, { rule: "sdk-type-changed", ...at, change: `may now be ${list(gained)}` }, gained.length === 1 && gained[0] === "null" ? "code that uses the value without a null check no longer compiles" : "code that uses the value as before no longer compiles");
        }
        if (a.literals !== null && b.literals !== null) {
          for (const literal of a.literals) {
            if (!b.literals.has(literal)) this.report(position, { rule: "sdk-literal-removed", before: [...a.path, "enum", literalKey(literal)], after: b.path, field, change: `lost the literal ${literal}` }, "code that compares it with that literal no longer compiles (TS2367: no overlap)");
          }
        }
      }
    }
    if (a.props !== null && b.props !== null) this.compareMembers(a, b, position, field, visited);
    const ai = a.items();
    const bi = b.items();
    if (ai && bi) this.compare(ai, bi, position, field === "" ? "[]" : `${field}[]`, visited);
  }

  private compareMembers(a: TsView, b: TsView, position: Position, field: string, visited: Set<string>): void {
    const child = (name: string) => (field === "" ? name : `${field}.${name}`);
    const renamed = field === "" ? this.renamedAtRoot : new Map<string, string>();
    const renamedTo = new Set(renamed.values());
    for (const [name, pa] of a.props!) {
      const to = renamed.get(name);
      const pb = b.props!.get(name);
      if (!pb) {
        if (position === "input" && takesAny(b) && to === undefined) continue;
        const after = to !== undefined ? b.props!.get(to)?.path : undefined;
        this.report(
          position,
          { rule: "sdk-property-removed", before: pa.path, after: after ?? b.path, field: child(name), change: to !== undefined ? `was renamed to ${q(to)} (a path parameter renamed in place)` : "was removed" },
          position === "input" ? `code that sets ${q(name)} no longer compiles` : `code that reads ${q(name)} no longer compiles`,
        );
        continue;
      }
      if (position === "input" && pa.optional && !pb.optional) this.report(position, { rule: "sdk-property-required", before: pa.path, after: pb.path, field: child(name), change: "became required" }, "calls that leave it out no longer compile");
      // Located where the edit is, at the name leaving `required` (as output-property-became-optional).
      if (position === "output" && !pa.optional && pb.optional) this.report(position, { rule: "sdk-type-changed", before: [...a.path, "required", name], after: [...b.path, "required"], field: child(name), change: "became optional (may be undefined)" }, "code that uses it without a check no longer compiles");
      this.compare(pa.view(), pb.view(), position, child(name), visited);
    }
    if (position === "input") {
      for (const [name, pb] of b.props!) {
        if (a.props!.has(name) || pb.optional || renamedTo.has(name)) continue;
        this.report(position, { rule: "sdk-property-required", after: pb.path, field: child(name), change: "was added as required" }, "calls that leave it out no longer compile");
      }
      if (takesAny(a) && !takesAny(b)) this.report(position, { rule: "sdk-type-changed", ...{ before: a.path, after: b.path, field }, change: "no longer takes other properties (its index signature is gone)" }, "code that sets any other property no longer compiles");
    }
  }
}

/**
 * Whether an object literal with any other property is assignable to the object type: it has an
 * index signature, or declares no property at all (TypeScript checks no excess property against `{}`).
 */
function takesAny(v: TsView): boolean {
  return v.open || v.props === null || v.props.size === 0;
}

/** The tree member key of an enum literal (strings as they are, other values as JSON). */
function literalKey(json: string): string {
  const value = JSON.parse(json) as unknown;
  return typeof value === "string" ? value : json;
}

/* ---- the findings ---- */

const cache = new WeakMap<DiffContext, ReadonlyArray<{ rule: SdkRuleId; finding: RuleFinding }>>();

const reach = (operations: readonly string[]) => ({ operation: operations.length === 1 ? operations[0]! : null, operations });

/** Every SDK source incompatibility between the two sides, once per diff. */
export function sdkFindings(ctx: DiffContext, rule: SdkRuleId): RuleFinding[] {
  let all = cache.get(ctx);
  if (!all) cache.set(ctx, (all = computeFindings(ctx)));
  return all.filter((f) => f.rule === rule).map((f) => f.finding);
}

function computeFindings(ctx: DiffContext): Array<{ rule: SdkRuleId; finding: RuleFinding }> {
  const out: Array<{ rule: SdkRuleId; finding: RuleFinding }> = [];
  const add = (rule: SdkRuleId, finding: RuleFinding) => out.push({ rule, finding });
  const a = sdkSurface(ctx.old);
  const b = sdkSurface(ctx.new_);

  // The client class (named after the contract).
  if (a.client !== b.client) {
    add("sdk-export-removed", {
      operation: null,
      message: `The SDK's client class ${q(a.client)} is now ${q(b.client)} (the contract's name changed): code that imports or constructs ${q(a.client)} no longer compiles.`,
      before: ["contract"],
      after: ["contract"],
    });
  }

  // Methods, with the types of the operation slot they belong to.
  const covered = new Set<string>();
  for (const [name, m] of a.methods) {
    if (b.methods.has(name)) continue;
    const op = ctx.old.operation(m.operation)!;
    const now = ctx.new_.operation(m.operation);
    const successor = now ? b.methodOf(m.operation, m.kind) : undefined;
    const documentId = ctx.old.documentId(m.operation);
    const renamedOp = documentId !== m.operation;
    const slots = a.typesOf(m.operation).filter(([slot]) => (m.kind === "call" ? true : m.kind === "preview" ? slot === "preview" : false));
    const goneTypes = slots.filter(([, id]) => !b.types.has(id));
    for (const [, id] of goneTypes) covered.add(id);
    const newIds = new Map(now ? b.typesOf(m.operation) : []);
    const typesText =
      goneTypes.length === 0
        ? ""
        : `; so ${goneTypes.length === 1 ? "is its type" : "are its types"} ${goneTypes.map(([slot, id]) => (newIds.has(slot) ? `${q(id)} (now ${q(newIds.get(slot))})` : q(id))).join(", ")}`;
    const why = !now
      ? `operation ${q(documentId)} was removed`
      : renamedOp
        ? `operation ${q(documentId)} was renamed to ${q(m.operation)}`
        : m.kind === "preview"
          ? `operation ${q(m.operation)} lost its preview`
          : m.kind === "all"
            ? `operation ${q(m.operation)} lost its pagination`
            : `another member took the name`;
    const what = m.kind === "call" ? "SDK method" : m.kind === "preview" ? "SDK preview method" : "SDK traversal method";
    const change = successor !== undefined ? `is now ${q(`${b.client}.${successor}`)}` : "was removed";
    add("sdk-method-removed", {
      operation: m.operation,
      message: `${what} ${q(`${a.client}.${name}`)} ${change} (${why})${typesText}: code that calls it no longer compiles.`,
      before: m.kind === "call" ? ["operations", m.operation] : ["operations", m.operation, m.kind === "preview" ? "preview" : "pagination"],
      ...(now ? { after: ["operations", m.operation] } : {}),
    });
  }

  // Exported types not already named with their method.
  for (const [identifier, owner] of a.types) {
    if (b.types.has(identifier) || covered.has(identifier)) continue;
    if (owner.kind === "type") {
      const still = ctx.new_.get(["types", owner.name]) !== undefined;
      add("sdk-export-removed", {
        operation: null,
        operations: [...new Set(ctx.old.reachLabels(owner.name).flatMap((l) => ctx.old.reaching(owner.name, l)))].filter((id) => ctx.old.operation(id) !== undefined).sort(),
        message: `SDK type ${q(identifier)} is no longer exported (shared type ${q(owner.name)} ${still ? "is declared under another name" : "was removed"}): code that names it no longer compiles.`,
        before: ["types", owner.name],
        ...(still ? { after: ["types", owner.name] } : {}),
      });
    } else {
      const now = ctx.new_.operation(owner.operation);
      add("sdk-export-removed", {
        operation: owner.operation,
        message: `SDK type ${q(identifier)} (the ${owner.slot} of operation ${q(ctx.old.documentId(owner.operation))}) is no longer exported: code that names it no longer compiles.`,
        before: ["operations", owner.operation],
        ...(now ? { after: ["operations", owner.operation] } : {}),
      });
    }
  }

  // Error codes: ErrorCode, isContractError(e, code), ContractErrorOf<code>, TAXONOMY[code].
  const renames = new Map(errorRenames(ctx).map((r) => [r.from, r.to]));
  for (const code of a.errorCodes) {
    if (b.errorCodes.has(code)) continue;
    const to = renames.get(code);
    add("sdk-error-code-removed", {
      operation: null,
      message: `Error code ${q(code)} ${to !== undefined ? `is now ${q(to)}` : "left the SDK's ErrorCode"}: code that writes isContractError(e, ${q(code)}), ContractErrorOf<${q(code)}> or TAXONOMY[${q(code)}] no longer compiles.`,
      before: ["errors", code],
      ...(to !== undefined ? { after: ["errors", to] } : {}),
    });
  }

  // Members of what the structural diff found changed.
  const oldViews = new Views(ctx.old);
  const newViews = new Views(ctx.new_);
  const types = new Set<string>();
  const operations = new Map<string, Set<string>>();
  const touch = (id: string, label: string) => (operations.get(id) ?? operations.set(id, new Set()).get(id)!).add(label);
  for (const c of ctx.changes) {
    if (c.path[0] === "types" && c.path.length >= 2) types.add(c.path[1]!);
    else if (c.path[0] === "operations" && c.path.length >= 3) {
      if (c.path[2] === RETURNS) {
        if (c.path.length >= 4) touch(c.path[1]!, c.path[3]!);
      } else if (c.path[2] !== "cliFlags") touch(c.path[1]!, "input");
    }
  }
  for (const r of ctx.pathParameterRenames) touch(r.operation, "input");

  const describeOp = (id: string, label: string) => {
    const kind: MethodKind = label === "preview output" ? "preview" : "call";
    // Named as the old code calls it.
    const method = `${a.methodOf(id, kind) ?? b.methodOf(id, kind) ?? id}()`;
    if (label === "input") return (field: string) => (field === "" ? `The input of SDK method ${q(method)}` : `Input option ${q(field)} of SDK method ${q(method)}`);
    const what = label === "output" ? "Output" : `${label.charAt(0).toUpperCase()}${label.slice(1)}`;
    return (field: string) => (field === "" ? `The ${label} of SDK method ${q(method)}` : `${what} property ${q(field)} of SDK method ${q(method)}`);
  };

  const emit = (results: readonly Incompatibility[], declaration: Declaration) => {
    for (const inc of results) {
      const effects = declaration.positions.filter((p) => inc.effects.has(p)).map((p) => inc.effects.get(p)!);
      const unique = [...new Set(effects)];
      const where = declaration.positions.length > 1 ? ` (${declaration.positions.filter((p) => inc.effects.has(p)).join(" and ")})` : "";
      add(inc.rule, {
        ...reach(declaration.operations),
        message: `${declaration.describe(inc.field)} ${inc.change}${where}: ${unique.join("; ")}.`,
        ...(inc.before ? { before: inc.before } : {}),
        ...(inc.after ? { after: inc.after } : {}),
      });
    }
  };

  for (const [id, labels] of operations) {
    const before = ctx.old.operation(id);
    const after = ctx.new_.operation(id);
    if (!before || !after) continue;
    for (const label of [...labels].sort()) {
      if (label === "input") {
        const renamed = new Map(ctx.pathParameterRenames.filter((r) => r.operation === id).map((r) => [r.from, r.to]));
        const cmp = new Comparison(oldViews, newViews, renamed);
        cmp.compare(methodInputView(oldViews, before, id, clientMethodInputs(before).call), methodInputView(newViews, after, id, clientMethodInputs(after).call), "input", "");
        emit(cmp.results(), { describe: describeOp(id, label), operations: [id], positions: ["input"] });
        continue;
      }
      const pick = (op: OperationModel) => (label === "output" ? op.output.schema : label === "preview output" ? op.preview?.output?.schema : undefined);
      const sa = pick(before);
      const sb = pick(after);
      if (sa === undefined || sb === undefined) continue;
      const path = ["operations", id, RETURNS, label];
      const cmp = new Comparison(oldViews, newViews);
      cmp.compare(oldViews.view(sa, sa, path, new Set()), newViews.view(sb, sb, path, new Set()), "output", "");
      emit(cmp.results(), { describe: describeOp(id, label), operations: [id], positions: ["output"] });
    }
  }

  for (const name of [...types].sort()) {
    if (!oldViews.hasType(name) || !newViews.hasType(name)) continue;
    const labels = ctx.old.reachLabels(name).filter((l) => ctx.new_.reachLabels(name).includes(l));
    const positions: Position[] = [...new Set(labels.map((l): Position => (l === "input" ? "input" : "output")))].sort();
    if (positions.length === 0) continue;
    const reached = new Set<string>();
    for (const label of labels) {
      const still = new Set(ctx.new_.reaching(name, label));
      // Operations only (a webhook payload reaches types too, under an id no operation has).
      for (const id of ctx.old.reaching(name, label)) if (still.has(id) && ctx.old.operation(id) !== undefined) reached.add(id);
    }
    const identifier = ctx.old.model.types.find((t) => t.name === name)?.identifier ?? name;
    const cmp = new Comparison(oldViews, newViews);
    for (const position of positions) cmp.compare(oldViews.type(name), newViews.type(name), position, "");
    emit(cmp.results(), {
      describe: (field) => (field === "" ? `SDK type ${q(identifier)}` : `Property ${q(field)} of SDK type ${q(identifier)}`),
      operations: [...reached].sort(),
      positions,
    });
  }
  return out;
}
