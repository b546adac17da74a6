import { type DiffContext, q, type RuleFinding } from "../rule.js";
import { COMBINATOR_KEYWORDS, type TreeValue } from "../tree.js";
import { bound, type BoundSpec, showBound, stricter } from "./_bounds.js";
import { showTypes, textTypeDeclared, types, within } from "./_input-types.js";
import { findInSchema, isTreeNode, members, mention, reach, type SchemaMatch, type SchemaRoot, subject } from "./_schema.js";

/*
 * Every schema keyword the contract keeps, judged by direction (not a rule: files starting with "_"
 * are not registered). For a change at one schema node the table says whether the set of values the
 * schema accepts narrowed, widened, or changed both ways; the rules input-constraint-tightened,
 * input-constraint-loosened, output-constraint-loosened, output-schema-widened and
 * output-constraint-tightened report what falls on their side. A keyword a dedicated rule already
 * judges in a position (input-minimum-raised, output-enum-value-added…) is left to it there.
 */

/** What a change did to the values a schema accepts. */
export type Direction = "narrowed" | "widened" | "changed" | "none";

/**
 * What a widened output gives consumers: `value` (a value outside what they were promised: a bound, a
 * pattern, a constant; output-constraint-loosened) or `structure` (a shape they have not seen: a new
 * union branch, an opened object, a constraint schema dropped; output-schema-widened). Both break
 * consumers written against the old promise; the two rules let a team weigh them apart.
 */
export type Weight = "value" | "structure";

export interface Judgement {
  readonly m: SchemaMatch;
  readonly direction: Direction;
  readonly weight: Weight;
  readonly message: string;
  readonly before?: readonly string[];
  readonly after?: readonly string[];
}

/** One keyword's reading: its dedicated rules by position, and how a change of it is judged. */
interface KeywordSpec {
  /** Positions where another rule already judges this keyword. */
  readonly dedicated?: readonly SchemaRoot[];
  readonly weight: Weight;
  /** The judgement of a change at <schema>/<keyword>[/<member>] (`rest`), or null when nothing changed in meaning. */
  judge(ctx: DiffContext, m: SchemaMatch, root: SchemaRoot): Omit<Judgement, "m" | "weight"> | null;
}

const BOUNDS: ReadonlyArray<BoundSpec & { readonly dedicated?: readonly SchemaRoot[] }> = [
  { direction: "min", keyword: "minimum", exclusiveKeyword: "exclusiveMinimum", label: "minimum", dedicated: ["input"] },
  { direction: "max", keyword: "maximum", exclusiveKeyword: "exclusiveMaximum", label: "maximum", dedicated: ["input"] },
  { direction: "min", keyword: "minLength", implicit: 0, label: "minimum length", dedicated: ["input"] },
  { direction: "max", keyword: "maxLength", label: "maximum length", dedicated: ["input"] },
  { direction: "min", keyword: "minItems", implicit: 0, label: "minimum item count", dedicated: ["input"] },
  { direction: "max", keyword: "maxItems", label: "maximum item count", dedicated: ["input"] },
  { direction: "min", keyword: "minProperties", implicit: 0, label: "minimum property count" },
  { direction: "max", keyword: "maxProperties", label: "maximum property count" },
  { direction: "min", keyword: "minContains", implicit: 1, label: "minimum count of matching items" },
  { direction: "max", keyword: "maxContains", label: "maximum count of matching items" },
];

/** A keyword's value in a message; data keywords (const) are kept as JSON text already. */
const show = (v: TreeValue | undefined, data = false): string => (data && typeof v === "string" ? v : q(v));

/** Where a judgement points: the changed keyword on the side that has it, else the schema node. */
const at = (m: SchemaMatch) => ({
  before: m.change.kind === "added" ? m.schema : m.change.path,
  after: m.change.kind === "removed" ? m.schema : m.change.path,
});

/** A keyword whose presence narrows and whose absence widens; a changed value is judged by `modified` (default: both ways). */
function presence(name: string, modified?: ((before: TreeValue, after: TreeValue) => Direction | null) | null, data = false): KeywordSpec["judge"] {
  return (_ctx, m) => {
    const c = m.change;
    if (m.rest.length !== 1) return null;
    if (c.kind === "added") return { direction: "narrowed", message: `${subject(m)} gained ${name} ${show(c.after, data)}.`, ...at(m) };
    if (c.kind === "removed") return { direction: "widened", message: `${subject(m)} lost ${name} ${show(c.before, data)}.`, ...at(m) };
    const direction = modified ? modified(c.before!, c.after!) : "changed";
    if (direction === null) return null;
    return { direction, message: `The ${name.replace(/^the /, "")} of ${mention(m)} changed from ${show(c.before, data)} to ${show(c.after, data)}.`, ...at(m) };
  };
}

const article = (word: string) => (/^[aeiou]/.test(word) ? "an" : "a");

/** A true/false keyword: only a change of truth matters (`false` is the same as leaving it out). */
function flag(name: string): KeywordSpec["judge"] {
  return (_ctx, m) => {
    const before = m.change.before === true;
    const after = m.change.after === true;
    if (m.rest.length !== 1 || before === after) return null;
    return after ? { direction: "narrowed", message: `${subject(m)} now requires ${name}.`, ...at(m) } : { direction: "widened", message: `${subject(m)} no longer requires ${name}.`, ...at(m) };
  };
}

/** Whether a change of a true/false keyword changed its truth (false and absent are the same). */
export const truthChanged = (before: TreeValue | undefined, after: TreeValue | undefined): boolean => (before === true) !== (after === true);

/** A keyword holding one subschema: a new one constrains more, a removed one less; changes inside are judged where they are. */
function subschema(name: string): KeywordSpec["judge"] {
  return (_ctx, m) => {
    const c = m.change;
    if (m.rest.length !== 1 || c.kind === "modified") return null;
    // A `true` schema accepts anything: writing it or taking it out changes nothing.
    const value = c.kind === "added" ? c.after : c.before;
    if (isTreeNode(value) && value.any === true && Object.keys(value).length === 1)
      return { direction: "none", message: `${subject(m)} ${c.kind === "added" ? "gained" : "lost"} a \`true\` ${name} schema (it accepts anything: no change in what is valid).`, ...at(m) };
    return c.kind === "added"
      ? { direction: "narrowed", message: `${subject(m)} gained ${article(name)} ${name} schema.`, ...at(m) }
      : { direction: "widened", message: `${subject(m)} lost its ${name} schema.`, ...at(m) };
  };
}

/** `not` and `if`: a change anywhere below them is one change of the keyword, direction unknown. */
function opaque(name: string): KeywordSpec["judge"] {
  return (_ctx, m) => {
    const c = m.change;
    if (m.rest.length !== 1) return null;
    if (c.kind === "added") return { direction: name === "not" ? "narrowed" : "changed", message: `${subject(m)} gained ${article(name)} ${name} schema.`, ...at(m) };
    if (c.kind === "removed") return { direction: name === "not" ? "widened" : "changed", message: `${subject(m)} lost its ${name} schema.`, ...at(m) };
    return { direction: "changed", message: `The ${name} schema of ${mention(m)} changed.`, before: m.change.path, after: m.change.path };
  };
}

/** Whether one side's schema node at the match writes `keyword`. */
const writes = (side: DiffContext["old"], m: SchemaMatch, keyword: string): boolean => {
  const node = side.get(m.schema);
  return isTreeNode(node) && node[keyword] !== undefined;
};

/**
 * `then`/`else`: a branch applies only under an `if` (JSON Schema ignores it otherwise). Added or
 * removed where an `if` selects it, it constrains more or less; where none does, nothing changes.
 */
function branch(name: "then" | "else"): KeywordSpec["judge"] {
  const judge = subschema(name);
  return (ctx, m, root) => {
    const c = m.change;
    if (m.rest.length !== 1 || c.kind === "modified") return null;
    const side = c.kind === "added" ? ctx.new_ : ctx.old;
    if (!writes(side, m, "if")) return { direction: "none", message: `${subject(m)} ${c.kind === "added" ? "gained" : "lost"} ${article(name)} ${name} schema without an if (JSON Schema ignores it: no change in what is valid).`, ...at(m) };
    return judge(ctx, m, root);
  };
}

/**
 * `if`: it only selects which of `then`/`else` applies. Without either it constrains nothing; added
 * (removed) together with them it is part of the conditional they add (remove), judged through the
 * branches; added to branches that were there it makes them apply (narrowed), removed from branches
 * that stay it lets them go (widened). Its own schema changed under branches: which values it
 * selects moved, in no direction the diff can name.
 */
const condition: KeywordSpec["judge"] = (ctx, m) => {
  const c = m.change;
  if (m.rest.length !== 1) return null;
  const branches = (side: DiffContext["old"]) => writes(side, m, "then") || writes(side, m, "else");
  const before = branches(ctx.old);
  const after = branches(ctx.new_);
  if (c.kind === "added") {
    if (!after) return { direction: "none", message: `${subject(m)} gained an if schema with neither then nor else (it constrains nothing).`, ...at(m) };
    if (!before) return { direction: "none", message: `${subject(m)} gained an if schema, with the branches it selects (judged on their own).`, ...at(m) };
    return { direction: "narrowed", message: `${subject(m)} gained an if schema: its then/else now apply.`, ...at(m) };
  }
  if (c.kind === "removed") {
    if (!before) return { direction: "none", message: `${subject(m)} lost an if schema that had neither then nor else (it constrained nothing).`, ...at(m) };
    if (!after) return { direction: "none", message: `${subject(m)} lost its if schema, with the branches it selected (judged on their own).`, ...at(m) };
    return { direction: "widened", message: `${subject(m)} lost its if schema: its then/else no longer apply.`, ...at(m) };
  }
  if (!before && !after) return { direction: "none", message: `The if schema of ${mention(m)} changed; with neither then nor else it constrains nothing.`, before: c.path, after: c.path };
  return { direction: "changed", message: `The if schema of ${mention(m)} changed: the values its then/else apply to moved.`, before: c.path, after: c.path };
};

/** A keyword holding named entries (patternProperties, dependentSchemas, dependentRequired, prefixItems): each entry constrains. */
function entries(name: string, entry: (key: string) => string, inner?: string): KeywordSpec["judge"] {
  return (_ctx, m) => {
    const c = m.change;
    const keys = m.rest.length === 1 ? members(c.kind === "added" ? c.after : c.before) : m.rest.length === 2 ? [m.rest[1]!] : [];
    // dependentRequired/<name>/<member>: one more property required when <name> is present.
    if (inner !== undefined && m.rest.length === 3 && c.kind !== "modified") {
      const verb = c.kind === "added" ? "now requires" : "no longer requires";
      return { direction: c.kind === "added" ? "narrowed" : "widened", message: `In ${mention(m)}, property ${q(m.rest[1])} ${verb} ${q(m.rest[2])}.`, ...at(m) };
    }
    if (keys.length === 0 || c.kind === "modified") return null;
    const list = keys.map(entry).join(", ");
    return c.kind === "added"
      ? { direction: "narrowed", message: `${subject(m)} gained ${name} ${list}.`, ...at(m) }
      : { direction: "widened", message: `${subject(m)} lost ${name} ${list}.`, ...at(m) };
  };
}

/** Whether a member of a combinator's list only requires names among `required` (nothing else that constrains). */
function impliedMember(list: TreeValue | undefined, required: readonly string[]): boolean {
  if (!isTreeNode(list)) return false;
  return Object.values(list).some((member) => {
    if (!isTreeNode(member)) return false;
    const constrains = Object.keys(member).filter((k) => !(k === "type" && members(member[k]).length === 0) && !(k === "nullable" && member[k] === false) && !ANNOTATIONS.has(k));
    return constrains.length === 1 && constrains[0] === "required" && members(member.required).every((n) => required.includes(n));
  });
}

/** allOf/anyOf/oneOf members: an allOf member constrains more; an anyOf/oneOf member is one more alternative. */
function combinator(name: (typeof COMBINATOR_KEYWORDS)[number]): KeywordSpec["judge"] {
  return (ctx, m) => {
    const c = m.change;
    if (c.kind === "modified") return null;
    const side = c.kind === "added" ? ctx.new_ : ctx.old;
    if (m.rest.length === 1) {
      // An anyOf (or a oneOf of one) with a member that only requires names the other side's node
      // already requires (`required: [state]` rewritten as `anyOf: [{required: [state]}]`) accepts
      // what that node did: no change in what is valid.
      const list = c.kind === "added" ? c.after : c.before;
      const other = c.kind === "added" ? ctx.old : ctx.new_;
      if ((name === "anyOf" || members(list).length === 1) && impliedMember(list, members(other.get([...m.schema, "required"])))) {
        return { direction: "none", message: `${subject(m)} ${c.kind === "added" ? "gained" : "lost"} ${name} (${members(list).length} members), one of which only requires what ${c.kind === "added" ? "was already" : "is still"} required.`, ...at(m) };
      }
      // The whole list appeared or went: the schema now must (or no longer must) match its members.
      return c.kind === "added"
        ? { direction: "narrowed", message: `${subject(m)} gained ${name} (${members(c.after).length} members).`, ...at(m) }
        : { direction: "widened", message: `${subject(m)} lost its ${name} (${members(c.before).length} members).`, ...at(m) };
    }
    if (m.rest.length !== 2) return null;
    const index = side.ownPointer(m.change.path).split("/").pop();
    const key = m.rest[1]!;
    const who = key.startsWith("#") ? `member ${index}` : `member ${index} (${key})`;
    const more = name === "allOf" ? "narrowed" : "widened";
    const fewer = name === "allOf" ? "widened" : "narrowed";
    // A member that references a shared type is located at the list (its own path would lead into the type).
    const list = [...m.schema, name];
    const where = key.startsWith("$ref ") ? { before: list, after: list } : at(m);
    return c.kind === "added"
      ? { direction: more, message: `${subject(m)} gained ${name} ${who}.`, ...where }
      : { direction: fewer, message: `${subject(m)} lost ${name} ${who}.`, ...where };
  };
}

function multipleOf(before: TreeValue, after: TreeValue): Direction {
  if (typeof before !== "number" || typeof after !== "number" || before <= 0 || after <= 0) return "changed";
  const divides = (a: number, b: number) => Math.abs(a / b - Math.round(a / b)) < 1e-9;
  // Multiples of 6 are all multiples of 3: 3 → 6 narrows, 6 → 3 widens.
  if (divides(after, before)) return "narrowed";
  if (divides(before, after)) return "widened";
  return "changed";
}

/**
 * Number formats no value a client can send as JSON fails: every integer a JavaScript client holds
 * exactly is an int64, and double/float only say how wide the platform stores it. Writing one on an
 * input refuses nothing (int32 does: larger integers).
 */
export const REFUSES_NOTHING: ReadonlySet<string> = new Set(["int64", "double", "float"]);

export const KEYWORDS: ReadonlyMap<string, KeywordSpec> = new Map<string, KeywordSpec>([
  ["multipleOf", { weight: "value", judge: presence("multipleOf", multipleOf) }],
  ["uniqueItems", { weight: "value", judge: flag("uniqueItems") }],
  ["const", { weight: "value", judge: presence("the constant", null, true) }],
  [
    "format",
    {
      weight: "value",
      // Input: a format added or changed is input-format-changed; output: one removed or changed is output-format-changed.
      judge: (_ctx, m, root) => {
        if (m.rest.length !== 1) return null;
        if (root === "input" && m.change.kind !== "removed" && REFUSES_NOTHING.has(String(m.change.after)))
          return { direction: "none", message: `${subject(m)} ${m.change.kind === "added" ? "gained" : "changed to"} the format ${q(m.change.after)}, which every number a client sends as JSON already fits.`, ...at(m) };
        if (root === "input" && m.change.kind === "removed") return { direction: "widened", message: `${subject(m)} lost its format ${q(m.change.before)}.`, ...at(m) };
        if (root === "output" && m.change.kind === "added") return { direction: "narrowed", message: `${subject(m)} gained the format ${q(m.change.after)}.`, ...at(m) };
        return null;
      },
    },
  ],
  ["pattern", { dedicated: ["input"], weight: "value", judge: presence("the pattern") }],
  ["contentMediaType", { weight: "value", judge: presence("the content media type") }],
  ["contentEncoding", { weight: "value", judge: presence("the content encoding") }],
  [
    "enum",
    {
      dedicated: ["input"],
      weight: "value",
      // Output values added or removed are output-enum-value-*; a whole enum appearing narrows.
      judge: (_ctx, m) => (m.rest.length === 1 && m.change.kind === "added" ? { direction: "narrowed", message: `${subject(m)} gained an enum of ${members(m.change.after).length} values.`, ...at(m) } : null),
    },
  ],
  [
    "nullable",
    {
      weight: "value",
      judge: (_ctx, m, root) => {
        const c = m.change;
        if (c.kind !== "modified" || m.rest.length !== 1) return null;
        if ((root === "input" && c.after === false) || (root === "output" && c.after === true)) return null;
        const loc = { before: [...m.schema, "type"], after: [...m.schema, "type"] };
        // Input: losing null is input-nullable-removed; output: gaining it is output-nullable-added.
        return c.after === true ? { direction: "widened", message: `${subject(m)} became nullable.`, ...loc } : { direction: "narrowed", message: `${subject(m)} can no longer be null.`, ...loc };
      },
    },
  ],
  [
    "type",
    {
      weight: "value",
      // Input: narrowed or changed types are input-property-type-narrowed/-changed; output: widened or changed ones are output-property-type-changed.
      judge: (ctx, m, root) => {
        if (m.rest.length > 2 || ctx.old.get(m.schema) === undefined || ctx.new_.get(m.schema) === undefined) return null;
        const before = types(ctx.old, m.schema);
        const after = types(ctx.new_, m.schema);
        if (!before || !after) return null;
        const narrower = within(after, before);
        const wider = within(before, after);
        const loc = { before: [...m.schema, "type"], after: [...m.schema, "type"] };
        const message = `The type of ${mention(m)} changed from ${showTypes(before)} to ${showTypes(after)}.`;
        if (root === "input" && textTypeDeclared(ctx, m, before, after))
          return { direction: "none", message: `${message.slice(0, -1)}: it is sent as text, so no value a caller could send is refused.`, ...loc };
        if (root === "input" && wider && !narrower) return { direction: "widened", message, ...loc };
        if (root === "output" && narrower && !wider) return { direction: "narrowed", message, ...loc };
        return null;
      },
    },
  ],
  [
    "typeUnwritten",
    {
      weight: "value",
      judge: (_ctx, m) =>
        m.rest.length !== 1 || m.change.kind === "modified"
          ? null
          : m.change.kind === "added"
            ? { direction: "widened", message: `${subject(m)} no longer declares its type "object": values that are not objects are valid too.`, before: [...m.schema, "type"], after: m.schema }
            : { direction: "narrowed", message: `${subject(m)} now declares its type "object": only objects are valid.`, before: m.schema, after: [...m.schema, "type"] },
    },
  ],
  [
    "any",
    {
      weight: "structure",
      // A boolean schema: `false` accepts nothing, `true` anything.
      judge: (_ctx, m) =>
        m.change.kind === "modified" && m.rest.length === 1
          ? m.change.after === false
            ? { direction: "narrowed", message: `${subject(m)} now accepts no value (false schema).`, ...at(m) }
            : { direction: "widened", message: `${subject(m)} now accepts any value (true schema).`, ...at(m) }
          : null,
    },
  ],
  [
    "closed",
    {
      dedicated: ["input"],
      weight: "structure",
      judge: (_ctx, m) =>
        m.change.kind === "added"
          ? { direction: "narrowed", message: `${subject(m)} no longer has properties beyond those it lists.`, before: m.schema, after: m.schema }
          : m.change.kind === "removed"
            ? { direction: "widened", message: `${subject(m)} may now have properties beyond those it lists.`, before: m.schema, after: m.schema }
            : null,
    },
  ],
  ["items", { weight: "structure", judge: subschema("items") }],
  ["additionalProperties", { weight: "structure", judge: subschema("additionalProperties") }],
  ["unevaluatedItems", { weight: "structure", judge: subschema("unevaluatedItems") }],
  ["unevaluatedProperties", { weight: "structure", judge: subschema("unevaluatedProperties") }],
  ["contains", { weight: "structure", judge: subschema("contains") }],
  ["propertyNames", { weight: "structure", judge: subschema("propertyNames") }],
  ["then", { weight: "structure", judge: branch("then") }],
  ["else", { weight: "structure", judge: branch("else") }],
  ["contentSchema", { weight: "structure", judge: subschema("contentSchema") }],
  ["not", { weight: "value", judge: opaque("not") }],
  ["if", { weight: "value", judge: condition }],
  [
    "required",
    {
      // Names required by a node that does not declare them (a then/else branch, a dependentSchemas
      // entry, an allOf member of constraints only); where the node declares the property, the
      // input-property-* rules judge it.
      dedicated: ["output"],
      weight: "value",
      judge: (ctx, m) => {
        const c = m.change;
        if (c.kind === "modified" || m.rest.length > 2) return null;
        const names = (m.rest.length === 2 ? [m.rest[1]!] : members(c.kind === "added" ? c.after : c.before)).filter(
          (name) => ctx.old.get([...m.schema, "properties", name]) === undefined && ctx.new_.get([...m.schema, "properties", name]) === undefined,
        );
        if (names.length === 0) return null;
        const list = names.map(q).join(", ");
        return c.kind === "added"
          ? { direction: "narrowed", message: `${subject(m)} now requires ${list}.`, ...at(m) }
          : { direction: "widened", message: `${subject(m)} no longer requires ${list}.`, ...at(m) };
      },
    },
  ],
  ["patternProperties", { weight: "structure", judge: entries("patternProperties", (k) => q(k)) }],
  ["dependentSchemas", { weight: "structure", judge: entries("dependentSchemas for", (k) => q(k)) }],
  ["dependentRequired", { weight: "value", judge: entries("dependentRequired for", (k) => q(k), "member") }],
  ["prefixItems", { weight: "structure", judge: entries("tuple items", (k) => `#${k}`) }],
  ...COMBINATOR_KEYWORDS.map((k) => [k, { weight: "structure" as const, judge: combinator(k) }] as const),
  [
    "readOnly",
    {
      weight: "value",
      // In input only: a read-only property is not an input (in output the flag is an annotation).
      judge: (ctx, m, root) => {
        if (root !== "input" || m.rest.length !== 1 || !truthChanged(m.change.before, m.change.after)) return null;
        if (m.change.after === true) return { direction: "narrowed", message: `${subject(m)} became read-only: it is no longer accepted as input.`, ...at(m) };
        const parent = m.schema.slice(0, -2);
        const required = m.schema.at(-2) === "properties" && members(ctx.new_.get([...parent, "required"])).includes(m.schema.at(-1)!);
        return required
          ? { direction: "narrowed", message: `${subject(m)} is no longer read-only, and is required: callers must now send it.`, ...at(m) }
          : { direction: "widened", message: `${subject(m)} is no longer read-only: callers may send it.`, ...at(m) };
      },
    },
  ],
  [
    "writeOnly",
    {
      weight: "value",
      // In output only; becoming write-only (no longer returned) is output-property-became-write-only.
      judge: (_ctx, m, root) =>
        root === "output" && m.rest.length === 1 && m.change.before === true && m.change.after !== true ? { direction: "narrowed", message: `${subject(m)} is no longer write-only: it is now returned.`, ...at(m) } : null,
    },
  ],
  ...BOUNDS.flatMap((spec) =>
    [spec.keyword, ...(spec.exclusiveKeyword ? [spec.exclusiveKeyword] : [])].map(
      (k) => [k, { ...(spec.dedicated ? { dedicated: spec.dedicated } : {}), weight: "value" as const, judge: boundJudge(spec) }] as const,
    ),
  ),
]);

/** A bound keyword: stricter or looser as _bounds.ts reads it (inclusive and exclusive forms together). */
function boundJudge(spec: BoundSpec): KeywordSpec["judge"] {
  return (ctx, m) => {
    if (m.rest.length !== 1 || ctx.old.get(m.schema) === undefined || ctx.new_.get(m.schema) === undefined) return null;
    const before = bound(ctx.old, m.schema, spec);
    const after = bound(ctx.new_, m.schema, spec);
    const narrowed = stricter(after, before, spec);
    if (!narrowed && !stricter(before, after, spec)) return null;
    const verb = (spec.direction === "min") === narrowed ? "raised" : "lowered";
    const message =
      before && after && (before.keyword !== null || after.keyword !== null) && before.keyword !== null && after.keyword !== null
        ? `The ${spec.label} of ${mention(m)} was ${verb} from ${showBound(before)} to ${showBound(after)}.`
        : narrowed
          ? `${subject(m)} gained a ${spec.label} of ${showBound(after!)}.`
          : `${subject(m)} lost its ${spec.label} of ${showBound(before!)}.`;
    return {
      direction: narrowed ? "narrowed" : "widened",
      message,
      before: before?.keyword ? [...m.schema, before.keyword] : m.schema,
      after: after?.keyword ? [...m.schema, after.keyword] : m.schema,
    };
  };
}

/** Annotations: they change no value a schema accepts, only what readers and generated docs see. */
export const ANNOTATIONS: ReadonlySet<string> = new Set(["title", "description", "examples", "deprecated", "x-sunset", "default", "readOnly", "writeOnly", "uniqueItems"]);

const judged = new WeakMap<DiffContext, Map<SchemaRoot, Judgement[]>>();

/**
 * Every keyword change of one position judged, one judgement per schema node and keyword (a bound
 * and its exclusive form are one), keywords with a dedicated rule in that position left out.
 */
export function judgements(ctx: DiffContext, root: SchemaRoot): readonly Judgement[] {
  let byRoot = judged.get(ctx);
  if (!byRoot) judged.set(ctx, (byRoot = new Map()));
  const cached = byRoot.get(root);
  if (cached) return cached;
  const out: Judgement[] = [];
  const seen = new Set<string>();
  for (const [keyword, spec] of KEYWORDS) {
    if (spec.dedicated?.includes(root)) continue;
    for (const tail of [[keyword], [keyword, "*"], [keyword, "*", "*"]]) {
      for (const m of findInSchema(ctx, root, tail)) {
        const judgement = spec.judge(ctx, m, root);
        if (!judgement) continue;
        // One finding per node for a bound written with both its inclusive and exclusive keyword.
        const key = `${m.schema.join("\u0000")}\u0001${judgement.message}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ m, weight: spec.weight, ...judgement });
      }
    }
  }
  byRoot.set(root, out);
  return out;
}

/** The findings of one keyword rule: the judgements of a position in the given directions (and weight). */
export function keywordFindings(ctx: DiffContext, root: SchemaRoot, directions: readonly Direction[], weight?: Weight): RuleFinding[] {
  return judgements(ctx, root)
    .filter((j) => directions.includes(j.direction) && (weight === undefined || j.weight === weight))
    .map((j) => ({ ...reach(j.m), message: j.message, ...(j.before ? { before: j.before } : {}), ...(j.after ? { after: j.after } : {}) }));
}

export { isTreeNode };
