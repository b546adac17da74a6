/**
 * Values judged as a server receives them. A value the suite sends is serialized by the parameter's
 * own binding (style, explode, deepObject, allowReserved; path, query, header, cookie or body) and
 * read back by the decoder a server uses: the SDK's encoder (runtime/wire-request.ts) and the host's
 * decoder (runtime/wire-decode.ts), never a third reading. A negative value is a fault only when it
 * is still invalid once read back (`tags=not-a-value` is the one-item array ["not-a-value"] in form
 * style without explode), and a stale or near value is a comparison only when the field's own
 * schema allows it (else invalid input is the right answer).
 */
import type { ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { decodeInput } from "../../sdk/runtime/wire-decode.js";
import { effectiveStyle, encodeRequest, type WireBinding } from "../../sdk/runtime/wire-request.js";
import type { OperationSpec, Schema } from "./harness.js";

const addFormats = addFormatsModule.default;

// The harness's settings (harness.ts): formats are asserted, as the reference host asserts them.
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats(ajv);
const compiled = new WeakMap<object, Map<string, ValidateFunction>>();

type SchemaObject = { readonly [keyword: string]: unknown };

function isObject(v: unknown): v is SchemaObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The input schema's own property `field` (no $ref followed), or undefined. */
function propertyOf(root: Schema, field: string): unknown {
  if (!isObject(root) || !isObject(root.properties)) return undefined;
  return Object.hasOwn(root.properties, field) ? root.properties[field] : undefined;
}

/**
 * A validator of input field `field` alone, against its own schema (the input's `$defs` kept, so a
 * `$ref` into them resolves); null when the input declares no such property.
 */
export function fieldValidator(op: OperationSpec, field: string): ValidateFunction | null {
  const root = op.input;
  const property = propertyOf(root, field);
  if (property === undefined || !isObject(root)) return null;
  let byField = compiled.get(root);
  if (!byField) compiled.set(root, (byField = new Map()));
  let validate = byField.get(field);
  if (!validate) {
    const schema = isObject(property) ? { ...(isObject(root.$defs) ? { $defs: root.$defs } : {}), ...property } : property;
    validate = ajv.compile(schema as object);
    byField.set(field, validate);
  }
  return validate;
}

/** Whether the field's own schema allows `value` (true when the input declares no such field: nothing to judge by). */
export function fieldAllows(op: OperationSpec, field: string, value: unknown): boolean {
  const validate = fieldValidator(op, field);
  return validate === null || validate(value) === true;
}

const WIRE_BASE = "http://suite.invalid";

/** What `value` of `field` becomes on the wire, and back: the text sent, and the value a server reads (absent: none). */
export interface Received {
  /** How the value travels, for messages (`tags=a,b`, `If-Match: r1`, `/items/7`, or the JSON body member). */
  readonly sent: string;
  readonly present: boolean;
  readonly value: unknown;
}

/**
 * `value` of input field `field` serialized as its binding says (wire-request.ts) and read back as a
 * server reads it (wire-decode.ts), with no other field set: what the server's validation sees.
 */
export function asReceived(op: OperationSpec, field: string, value: unknown): Received {
  const input = Object.create(null) as Record<string, unknown>;
  Object.defineProperty(input, field, { value, enumerable: true, writable: true, configurable: true });
  const encoded = encodeRequest({ ...op, bodyField: op.body ?? null }, input, WIRE_BASE, { unbound: "send" });
  const url = new URL(encoded.url);
  const headers = new Map(Object.entries(encoded.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const rawQuery = url.search.startsWith("?") ? url.search.slice(1) : url.search;
  const decoded = decodeInput(
    { http: { bindings: op.bindings, body: op.body ?? null }, input: { schema: op.input } },
    {
      rawPathValues: pathValues(op, url.pathname),
      query: new URLSearchParams(rawQuery),
      rawQuery,
      header: (name) => headers.get(name.toLowerCase()),
      body: typeof encoded.body === "string" ? encoded.body : "",
    },
  ).input;
  const present = Object.hasOwn(decoded, field);
  return { sent: sentText(op, field, encoded.url, headers, encoded.body), present, value: present ? decoded[field] : undefined };
}

/** The raw (still encoded) path segment values of an encoded URL, by the path template's names. */
function pathValues(op: OperationSpec, pathname: string): Record<string, string> {
  const names: string[] = [];
  const source = op.path
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
      names.push(name);
      return "([^/]*)";
    })
    .join("");
  const match = new RegExp(`${source}$`).exec(pathname);
  const values = Object.create(null) as Record<string, string>;
  names.forEach((name, i) => (values[name] = match?.[i + 1] ?? ""));
  return values;
}

function bindingOf(op: OperationSpec, field: string): WireBinding | undefined {
  return op.bindings.find((b) => b.field === field);
}

/** The part of the request that carries `field`, as text. */
function sentText(op: OperationSpec, field: string, url: string, headers: ReadonlyMap<string, string>, body: unknown): string {
  const binding = bindingOf(op, field);
  const parsed = new URL(url);
  switch (binding?.in) {
    case "header":
      return `${binding.name}: ${headers.get(binding.name.toLowerCase()) ?? ""}`;
    case "cookie":
      return `Cookie: ${headers.get("cookie") ?? ""}`;
    case "path":
      return parsed.pathname;
    case "query":
      return parsed.search.slice(1) || "(nothing)";
    default:
      return parsed.search !== "" ? parsed.search.slice(1) : typeof body === "string" ? body : "(the body)";
  }
}

/** The binding's serialization in words, for messages (`query tags, form without explode`). */
export function serializationOf(op: OperationSpec, field: string): string {
  const binding = bindingOf(op, field);
  if (!binding) return `body member ${field}`;
  if (binding.in === "body") return `body member ${binding.name}`;
  const { style, explode } = effectiveStyle(binding);
  return `${binding.in} ${binding.in === "header" ? "" : "parameter "}${binding.name}, ${style}${explode ? " with explode" : " without explode"}`;
}

/**
 * Why a value meant to break `field`'s schema is no fault once on the wire, or null when it still is:
 * the server reads no value of the field from it (not that parameter's serialization), or reads one
 * the schema allows.
 */
export function validOnTheWire(op: OperationSpec, field: string, value: unknown): string | null {
  // A JSON body member arrives as it was sent; a multipart part is the SDK's own encoding of one
  // value (parsing it back needs the platform's multipart parser): both are judged as they are.
  const binding = bindingOf(op, field);
  const media = (op.contentType ?? "application/json").split(";")[0]!.trim().toLowerCase();
  if (!binding || (binding.in === "body" && media !== "application/x-www-form-urlencoded")) return null;
  const received = asReceived(op, field, value);
  if (!received.present) {
    return `${clip(received.sent)} is not how ${serializationOf(op, field)} is written: a server reads no ${field} from it`;
  }
  if (fieldAllows(op, field, received.value)) {
    return `${clip(received.sent)} reads back as ${clip(JSON.stringify(received.value) ?? "")} (${serializationOf(op, field)}), which the schema of ${field} allows`;
  }
  return null;
}

/** At most 200 characters of `text` (a skip reason stays one readable line). */
function clip(text: string): string {
  return text.length <= 200 ? text : `${text.slice(0, 200)}… (${text.length - 200} more characters)`;
}

// --- values the field's schema allows --------------------------------------------------------------

/** Characters a one-character change may use, tried in order, by the class of the character replaced. */
const DIGITS = "0123456789";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const UPPER = LOWER.toUpperCase();

function classOf(c: string): string | null {
  if (DIGITS.includes(c)) return DIGITS;
  if (LOWER.includes(c)) return LOWER;
  if (UPPER.includes(c)) return UPPER;
  return null;
}

/** `text` with one character (from the last one back) replaced by another of its class, each candidate in turn. */
function* oneCharacterOff(text: string): Generator<string> {
  for (let i = text.length - 1; i >= 0 && i >= text.length - 64; i--) {
    const cls = classOf(text[i]!);
    if (cls === null) continue;
    const at = cls.indexOf(text[i]!);
    for (let step = 1; step < cls.length; step++) yield `${text.slice(0, i)}${cls[(at + step) % cls.length]}${text.slice(i + 1)}`;
  }
}

/** A value another than `current` that the field's own schema allows, with what it is; what `kind` asks for. */
export interface OtherValue {
  readonly label: string;
  readonly value: unknown;
}

/**
 * Values of `field` other than `current` that its schema allows (pattern, format, enum, length,
 * bounds), the nearest first: for `near`, a case variant and a one-character change of a string or
 * an integer one off; for `stale`, a value clearly another (`<current>-stale`, 1000 more) before the
 * nearer ones. At most `limit` values; none when the schema allows no other.
 */
export function otherAllowedValues(op: OperationSpec, field: string, current: unknown, kind: "near" | "stale", limit = 2): OtherValue[] {
  const candidates: OtherValue[] = [];
  const property = propertyOf(op.input, field);
  const enumValues = isObject(property) && Array.isArray(property.enum) ? (property.enum as unknown[]) : null;
  if (typeof current === "string") {
    const cased: OtherValue[] = [];
    if (current.toUpperCase() !== current) cased.push({ label: "upper-cased", value: current.toUpperCase() });
    if (current.toLowerCase() !== current) cased.push({ label: "lower-cased", value: current.toLowerCase() });
    const changed: OtherValue[] = [];
    for (const value of oneCharacterOff(current)) {
      changed.push({ label: "one character changed", value });
      if (changed.length >= 200) break;
    }
    // A stale value is another value, not a case variant (which only an exact comparison tells apart).
    if (kind === "stale") candidates.push({ label: "another value", value: `${current}-stale` }, ...changed, ...cased);
    else candidates.push(...cased, ...changed);
  } else if (typeof current === "number" && Number.isFinite(current)) {
    if (kind === "stale") candidates.push({ label: "1000 more", value: current + 1000 });
    if (Number.isInteger(current)) candidates.push({ label: "one more", value: current + 1 }, { label: "one less", value: current - 1 });
    else candidates.push({ label: "a little more", value: current * 1.5 + 1 });
    if (kind === "stale") candidates.push({ label: "1000 less", value: current - 1000 });
  }
  if (enumValues) for (const v of enumValues) candidates.push({ label: "another declared value", value: v });
  const out: OtherValue[] = [];
  // Case variants are near values of their own: one of them is enough, and each label once.
  const labels = new Set<string>();
  for (const c of candidates) {
    if (out.length >= limit) break;
    if (JSON.stringify(c.value) === JSON.stringify(current) || out.some((o) => JSON.stringify(o.value) === JSON.stringify(c.value))) continue;
    const family = c.label.endsWith("-cased") ? "case" : c.label;
    if (labels.has(family)) continue;
    if (!fieldAllows(op, field, c.value)) continue;
    labels.add(family);
    out.push(c);
  }
  return out;
}

/** Why the schema of `field` leaves no value other than `current`, for a skip reason. */
export function noOtherValue(op: OperationSpec, field: string, current: unknown): string {
  const property = propertyOf(op.input, field);
  const said = isObject(property) ? Object.entries(property).filter(([k]) => ["type", "pattern", "format", "enum", "const", "minLength", "maxLength", "minimum", "maximum"].includes(k)).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(", ") : "";
  return `no value of ${field} other than ${JSON.stringify(current)} found that its schema allows${said !== "" ? ` (${said})` : ""}: one that broke it would be refused as invalid input, not compared`;
}
