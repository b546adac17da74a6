/**
 * Values that satisfy a field's schema, for inputs the suite derives without a fixture: the
 * document's own const, default, examples and enum first, else a value built from the constraints
 * (pattern, format, lengths, bounds). Every built value is checked against the schema by the caller
 * (Ajv), so a generator that cannot honour a constraint yields nothing rather than a wrong value.
 * Strings carry a random part, so two derivations (two customers, two names) never collide.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { resolve } from "./checks.js";
import type { Schema } from "./harness.js";

/** How deep a nested object or array is filled; deeper required members give up (no unbounded recursion). */
const MAX_DEPTH = 6;
/** The longest run a pattern's open quantifier (`+`, `*`, `{n,}`) is given. */
const OPEN_REPEAT = 6;

function object(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A few random letters and digits: what makes a derived value new. */
export function randomWord(length = 8): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return [...randomBytes(length)].map((b) => alphabet[b % alphabet.length]).join("");
}

/** The values the document itself gives for a field, in the order they are tried. */
export function documentedValues(s: Record<string, unknown>): unknown[] {
  const values: unknown[] = [];
  if (Object.hasOwn(s, "const")) values.push(s.const);
  if (Object.hasOwn(s, "default")) values.push(s.default);
  if (Array.isArray(s.examples)) values.push(...s.examples);
  if (Object.hasOwn(s, "example")) values.push(s.example);
  if (Array.isArray(s.enum)) values.push(...s.enum.filter((v) => v !== null));
  return values;
}

function typeOf(s: Record<string, unknown>): string | undefined {
  if (typeof s.type === "string") return s.type;
  if (Array.isArray(s.type)) return (s.type as unknown[]).find((t): t is string => typeof t === "string" && t !== "null");
  if (object(s.properties)) return "object";
  if (typeof s.pattern === "string" || typeof s.format === "string") return "string";
  return undefined;
}

// --- strings from a pattern -------------------------------------------------------------------------

/** A string matching `pattern`, for the subset of regular expressions identifiers use; undefined when it holds something else. */
export function stringMatching(pattern: string): string | undefined {
  const generator = new PatternWriter(pattern);
  let out: string;
  try {
    out = generator.alternatives(0);
  } catch {
    return undefined;
  }
  if (generator.at < pattern.length) return undefined;
  try {
    return new RegExp(pattern, "u").test(out) ? out : undefined;
  } catch {
    return undefined;
  }
}

const DIGITS = "0123456789";
const WORD = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";

function pick(chars: string): string {
  return chars[randomBytes(1)[0]! % chars.length]!;
}

/** A recursive-descent writer over the pattern; nesting is bounded by the pattern's own length (a schema string). */
class PatternWriter {
  at = 0;
  constructor(private readonly source: string) {}

  alternatives(depth: number): string {
    if (depth > 16) throw new Error("too deep");
    const first = this.sequence(depth);
    // The first alternative is enough: it matches.
    while (this.source[this.at] === "|") {
      this.at++;
      this.sequence(depth);
    }
    return first;
  }

  private sequence(depth: number): string {
    let out = "";
    while (this.at < this.source.length && this.source[this.at] !== "|" && this.source[this.at] !== ")") {
      const atom = this.atom(depth);
      out += this.repeat(atom);
    }
    return out;
  }

  private atom(depth: number): () => string {
    const c = this.source[this.at++]!;
    if (c === "^" || c === "$") return () => "";
    if (c === "(") {
      if (this.source.startsWith("?:", this.at)) this.at += 2;
      else if (this.source[this.at] === "?") throw new Error("lookaround");
      const start = this.at;
      this.alternatives(depth + 1);
      const end = this.at;
      if (this.source[this.at++] !== ")") throw new Error("unclosed group");
      const inner = this.source.slice(start, end);
      return () => {
        const again = new PatternWriter(inner);
        return again.alternatives(depth + 1);
      };
    }
    if (c === "[") return this.charClass();
    if (c === "\\") return this.escape();
    if (c === ".") return () => pick(WORD);
    if ("*+?{".includes(c)) throw new Error("dangling quantifier");
    return () => c;
  }

  private escape(): () => string {
    const e = this.source[this.at++];
    if (e === undefined) throw new Error("trailing backslash");
    if (e === "d") return () => pick(DIGITS);
    if (e === "w") return () => pick(WORD);
    if (e === "s") return () => " ";
    if (/[DWSbBpPuxc0-9kn]/.test(e)) throw new Error("unsupported escape");
    return () => e;
  }

  private charClass(): () => string {
    let negated = false;
    if (this.source[this.at] === "^") {
      negated = true;
      this.at++;
    }
    let members = "";
    let first = true;
    while (this.at < this.source.length && (this.source[this.at] !== "]" || first)) {
      first = false;
      let c = this.source[this.at++]!;
      if (c === "\\") {
        const e = this.source[this.at++];
        if (e === "d") members += DIGITS;
        else if (e === "w") members += WORD;
        else if (e === "s") members += " ";
        else if (e === undefined || /[DWSpPux]/.test(e)) throw new Error("unsupported class escape");
        else members += e;
        continue;
      }
      if (this.source[this.at] === "-" && this.source[this.at + 1] !== "]" && this.at + 1 < this.source.length) {
        const to = this.source[this.at + 1]!;
        this.at += 2;
        const from = c.codePointAt(0)!;
        const last = to.codePointAt(0)!;
        if (last < from || last - from > 0xff) throw new Error("range");
        for (let p = from; p <= last; p++) members += String.fromCodePoint(p);
        continue;
      }
      c = c === undefined ? "" : c;
      members += c;
    }
    if (this.source[this.at++] !== "]") throw new Error("unclosed class");
    if (negated) {
      const allowed = [...WORD].filter((ch) => !members.includes(ch)).join("");
      if (allowed === "") throw new Error("empty class");
      return () => pick(allowed);
    }
    if (members === "") throw new Error("empty class");
    return () => pick(members);
  }

  private repeat(atom: () => string): string {
    let min = 1;
    let max = 1;
    const q = this.source[this.at];
    if (q === "*" || q === "+" || q === "?") {
      this.at++;
      min = q === "+" ? 1 : 0;
      max = q === "?" ? 1 : OPEN_REPEAT;
      // A "+" and "*" run gets a few characters: enough to be distinctive.
      if (q !== "?") min = Math.max(min, OPEN_REPEAT);
    } else if (q === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
      if (m) {
        this.at += m[0].length;
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === "" ? Math.max(min, OPEN_REPEAT) : Number(m[3]);
        if (min > 256 || max < min) throw new Error("repeat");
        // Distinctive but within the bound.
        min = Math.min(max, Math.max(min, OPEN_REPEAT));
      }
    }
    if (this.source[this.at] === "?" && (q === "*" || q === "+" || q === "?" || q === "{")) this.at++;
    let out = "";
    for (let i = 0; i < min; i++) out += atom();
    return out;
  }
}

// --- values from a schema --------------------------------------------------------------------------

/** A string of the declared format, or undefined for a format without a generator. */
function formatted(format: string, variant: number): string | undefined {
  const word = randomWord();
  switch (format) {
    case "email":
      return `zc-${word}@example.com`;
    case "uuid":
      return randomUUID();
    case "date-time":
      return new Date(Date.UTC(2026, 0, 1 + variant)).toISOString();
    case "date":
      return new Date(Date.UTC(2026, 0, 1 + variant)).toISOString().slice(0, 10);
    case "time":
      return "12:00:00Z";
    case "uri":
    case "url":
    case "iri":
      return `https://example.com/${word}`;
    case "uri-reference":
      return `/${word}`;
    case "hostname":
      return `${word}.example.com`;
    case "ipv4":
      return "192.0.2.1";
    case "ipv6":
      return "2001:db8::1";
    default:
      return undefined;
  }
}

function stringValue(s: Record<string, unknown>, variant: number): string | undefined {
  let value: string | undefined;
  if (typeof s.pattern === "string") value = stringMatching(s.pattern);
  else if (typeof s.format === "string") value = formatted(s.format, variant);
  else value = `zc ${randomWord()}`;
  if (value === undefined) return undefined;
  const min = typeof s.minLength === "number" ? s.minLength : 0;
  const max = typeof s.maxLength === "number" ? s.maxLength : Infinity;
  if (typeof s.pattern !== "string" && typeof s.format !== "string") {
    while (value.length < min) value += randomWord();
    if (value.length > max) value = value.slice(0, Math.max(min, max));
  }
  return value;
}

function numberValue(s: Record<string, unknown>, integer: boolean, variant: number): number | undefined {
  const low = typeof s.minimum === "number" ? s.minimum : typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum + (integer ? 1 : 0.5) : undefined;
  const high = typeof s.maximum === "number" ? s.maximum : typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum - (integer ? 1 : 0.5) : undefined;
  // Small values, near zero where the range allows: a refund of 1 cent, a stock change of 1, fit where large ones may not.
  const start = (low === undefined || low <= 1) && (high === undefined || high >= 1) ? 1 : (low === undefined || low <= 0) && (high === undefined || high >= 0) ? 0 : (low ?? high!);
  let value = start + variant;
  if (integer) value = Math.ceil(value);
  if (typeof s.multipleOf === "number" && s.multipleOf > 0) value = Math.ceil(value / s.multipleOf) * s.multipleOf;
  if (high !== undefined && value > high) value = low ?? high;
  return Number.isFinite(value) ? value : undefined;
}

/**
 * A value for `schema` (resolved in `root`): the document's first value (documented: const, default,
 * examples, enum) when `documented` allows it, else one built from the constraints. `variant` makes a
 * second value differ from the first. Undefined when nothing can be built.
 */
export function schemaValue(root: Schema, schema: unknown, variant = 0, documented = true, depth = 0): { value: unknown } | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const s = resolve(root, schema);
  if (!s) return schema === true || schema === undefined ? { value: `zc ${randomWord()}` } : undefined;
  const declared = documentedValues(s);
  if (documented && declared.length > 0) return { value: declared[variant % declared.length] };
  if (Array.isArray(s.enum)) return declared.length > 0 ? { value: declared[variant % declared.length] } : undefined;
  for (const k of ["allOf", "anyOf", "oneOf"] as const) {
    if (Array.isArray(s[k]) && !object(s.properties) && s.type === undefined) return schemaValue(root, (s[k] as unknown[])[0], variant, documented, depth + 1);
  }
  switch (typeOf(s)) {
    case "string": {
      const value = stringValue(s, variant);
      return value === undefined ? undefined : { value };
    }
    case "integer":
    case "number": {
      const value = numberValue(s, typeOf(s) === "integer", variant);
      return value === undefined ? undefined : { value };
    }
    case "boolean":
      return { value: variant % 2 === 1 };
    case "array": {
      const min = typeof s.minItems === "number" ? s.minItems : 0;
      if (min > 8) return undefined;
      const items: unknown[] = [];
      for (let i = 0; i < Math.max(min, 1); i++) {
        const item = schemaValue(root, s.items, variant + i, documented, depth + 1);
        if (!item) return min === 0 ? { value: [] } : undefined;
        items.push(item.value);
      }
      return { value: s.uniqueItems === true && min <= 1 ? items.slice(0, Math.max(min, 1)) : items };
    }
    case "object": {
      const properties = object(s.properties) ?? {};
      const out = Object.create(null) as Record<string, unknown>;
      for (const name of Array.isArray(s.required) ? (s.required as unknown[]).filter((r): r is string => typeof r === "string") : []) {
        const value = schemaValue(root, Object.hasOwn(properties, name) ? properties[name] : true, variant, documented, depth + 1);
        if (!value) return undefined;
        Object.defineProperty(out, name, { value: value.value, enumerable: true, writable: true, configurable: true });
      }
      return { value: out };
    }
    default:
      return undefined;
  }
}
