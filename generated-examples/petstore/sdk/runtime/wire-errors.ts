/**
 * The error binding: how a platform reports errors on the wire (`transport.http.errorFormat`), read by
 * the SDK (recognizeError) and written by the reference host (encodeError). One module for both sides,
 * copied verbatim into generated packages like the rest of the runtime.
 *
 * Styles:
 * - `envelope`: contractgen's `{"error": {"code", "message", "field", "details", "operationId", "outcome"}}`;
 * - `problem`: RFC 9457 problem details (code at `/type`, message at `/detail`, else `/title`);
 * - `body`: the API's own body, the code at a JSON pointer;
 * - `status`: the HTTP status alone.
 * A code read from the body selects the taxonomy entry whose `wire` (or, without one, whose code)
 * equals it. Otherwise, and always for `status`, the HTTP status selects the operation's declared
 * error with that status when exactly one has it (else the taxonomy's, when exactly one has it).
 * The envelope is read as it always was: its code or nothing.
 *
 * The field an error names is read as an input field (inputFieldOf): a platform may name the field
 * it refused as the wire does (the header `If-Match`, a query or cookie name, the body property's
 * own name, a JSON pointer into the body) where the contract says `if_match`.
 */
import type { Outcome, TaxonomyEntry } from "./errors.js";
import type { WireBinding } from "./wire-request.js";

export type ErrorStyle = "envelope" | "problem" | "body" | "status";

/** `transport.http.errorFormat`, defaults applied (the contract model's and the generated SDK's). */
export interface ErrorFormat {
  readonly style: ErrorStyle;
  /** JSON pointer to the code in the error body; null for envelope (fixed) and status (none). */
  readonly code: string | null;
  /** JSON pointer to the message; null: envelope's own, or none. */
  readonly message: string | null;
  /** JSON pointer to the input field concerned; null: envelope's own, or none. */
  readonly field: string | null;
}

/** contractgen's own envelope: the format of a contract that declares none. */
export const ENVELOPE_FORMAT: ErrorFormat = { style: "envelope", code: null, message: null, field: null };

/** Default pointers of the problem style (RFC 9457 §3.1). */
export const PROBLEM_DEFAULTS = { code: "/type", message: "/detail", fallbackMessage: "/title" } as const;

/** A format as written (`errorFormat:` keys), defaults applied. */
export function errorFormatOf(written: { readonly style: ErrorStyle; readonly code?: string; readonly message?: string; readonly field?: string } | undefined): ErrorFormat {
  if (written === undefined || written.style === "envelope") return ENVELOPE_FORMAT;
  const problem = written.style === "problem";
  return {
    style: written.style,
    code: written.style === "status" ? null : (written.code ?? (problem ? PROBLEM_DEFAULTS.code : null)),
    message: written.message ?? (problem ? PROBLEM_DEFAULTS.message : null),
    field: written.field ?? null,
  };
}

/** Whether `pointer` is a JSON pointer (RFC 6901): empty, or `/`-separated tokens whose `~` escapes are `~0` or `~1`. */
export function isJsonPointer(pointer: string): boolean {
  return pointer === "" || (pointer.startsWith("/") && !/~(?![01])/.test(pointer));
}

/** The tokens of a JSON pointer, unescaped. */
function tokens(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The value at `pointer` in `value` (own members only), or undefined. */
export function valueAt(value: unknown, pointer: string): unknown {
  let node = value;
  for (const token of tokens(pointer)) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (node !== null && typeof node === "object" && Object.prototype.hasOwnProperty.call(node, token)) {
      node = (node as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return node;
}

/** The text at `pointer`: a non-empty string, or a number (an API's numeric code) as text; else null. */
function textAt(value: unknown, pointer: string | null): string | null {
  if (pointer === null) return null;
  const found = valueAt(value, pointer);
  if (typeof found === "string") return found === "" ? null : found;
  if (typeof found === "number" && Number.isFinite(found)) return String(found);
  return null;
}

/** What an error response says, read with the contract's error format. */
export interface WireError {
  /** The contract code it is, or null when neither its body nor its status names a declared one. */
  readonly code: string | null;
  readonly entry: TaxonomyEntry | null;
  /** The value the body carries at the code pointer (envelope: `error.code`), or null. */
  readonly wireCode: string | null;
  /** The message the body carries, or null (the caller writes a sentence). */
  readonly message: string | null;
  /** The input field the error names (a wire name read through the operation's bindings), or null. */
  readonly field: string | null;
  /** The field as the platform named it, when that differs from `field` (a header's name); else null. */
  readonly wireField: string | null;
  /** Envelope: its `details`; other styles: the whole body as sent (null when there is none). */
  readonly details: unknown;
  /** Envelope only: the operation instance it names. */
  readonly operationId: string | null;
  /** Envelope only: whether the operation took effect. */
  readonly outcome: Outcome | null;
}

const OUTCOMES: readonly string[] = ["completed", "pending", "rejected", "unknown"];

/** The code a taxonomy entry has on the wire: its `wire`, or the code itself. */
export function wireCodeOf(code: string, entry: TaxonomyEntry): string {
  return entry.wire ?? code;
}

/** The taxonomy code whose wire value is `value`, or null. */
function codeForWire(taxonomy: Readonly<Record<string, TaxonomyEntry>>, value: string): string | null {
  for (const code of Object.keys(taxonomy)) if (wireCodeOf(code, taxonomy[code]!) === value) return code;
  return null;
}

/** The one code with `status`: among the operation's declared errors, else in the whole taxonomy; null when none or several. */
export function codeForStatus(taxonomy: Readonly<Record<string, TaxonomyEntry>>, status: number, operationErrors: readonly string[]): string | null {
  const declared = (codes: readonly string[]) => [...new Set(codes)].filter((c) => Object.hasOwn(taxonomy, c) && taxonomy[c]!.http === status);
  const listed = declared(operationErrors);
  if (listed.length > 0) return listed.length === 1 ? listed[0]! : null;
  const all = declared(Object.keys(taxonomy));
  return all.length === 1 ? all[0]! : null;
}

/** `reported` starts with `name` as a whole member: equal, or followed by `.` or `[` (a nested member). */
function underName(reported: string, name: string, ignoreCase: boolean): string | null {
  const head = reported.slice(0, name.length);
  if (ignoreCase ? head.toLowerCase() !== name.toLowerCase() : head !== name) return null;
  const rest = reported.slice(name.length);
  return rest === "" || rest.startsWith(".") || rest.startsWith("[") ? rest : null;
}

/**
 * The input field a platform's error names. `reported` is kept when it already names an input field
 * (or a member of one); otherwise a binding's wire name selects its field: a header's name ignoring
 * case (`if-match` is `If-Match`), a path, query or cookie name, a body property's own name, or a JSON
 * pointer into the body (`/quantity`, `#/quantity`). A nested member keeps its tail (`occurred[from]`
 * of the deepObject `occurred` stays `occurred[from]`). A name no binding has is returned as it is.
 */
export function inputFieldOf(bindings: readonly Pick<WireBinding, "field" | "in" | "name">[], reported: string): string {
  if (bindings.some((b) => underName(reported, b.field, false) !== null)) return reported;
  for (const b of bindings) {
    const rest = underName(reported, b.name, b.in === "header");
    if (rest !== null) return `${b.field}${rest}`;
  }
  const pointer = /^#?\//.test(reported) ? reported.slice(reported.indexOf("/") + 1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~")) : null;
  if (pointer !== null && pointer[0] !== undefined) {
    const body = bindings.find((b) => b.in === "body" && b.name === pointer[0]);
    if (body !== undefined) return [body.field, ...pointer.slice(1)].join(".");
  }
  return reported;
}

/**
 * Recognize an error response: the contract code (with its taxonomy entry), message, field and details,
 * read as `format` says. `body` is the parsed JSON body, or null when there is none or it is not JSON.
 * With the operation's `bindings`, the field is read as the input field it names (inputFieldOf).
 */
export function recognizeError(
  format: ErrorFormat,
  status: number,
  body: unknown,
  operationErrors: readonly string[],
  taxonomy: Readonly<Record<string, TaxonomyEntry>>,
  bindings: readonly Pick<WireBinding, "field" | "in" | "name">[] = [],
): WireError {
  const named = (reported: string | null) => {
    const field = reported === null ? null : inputFieldOf(bindings, reported);
    return { field, wireField: reported !== null && field !== reported ? reported : null };
  };
  if (format.style === "envelope") {
    const envelope = body !== null && typeof body === "object" && Object.prototype.hasOwnProperty.call(body, "error") ? (body as { error?: unknown }).error : undefined;
    const e = envelope !== null && typeof envelope === "object" ? (envelope as Record<string, unknown>) : undefined;
    const wireCode = typeof e?.code === "string" ? e.code : null;
    const known = wireCode !== null && Object.hasOwn(taxonomy, wireCode);
    return {
      code: known ? wireCode : null,
      entry: known ? taxonomy[wireCode]! : null,
      wireCode,
      message: typeof e?.message === "string" ? e.message : null,
      ...named(typeof e?.field === "string" ? e.field : null),
      details: e?.details ?? null,
      operationId: typeof e?.operationId === "string" ? e.operationId : null,
      outcome: typeof e?.outcome === "string" && OUTCOMES.includes(e.outcome) ? (e.outcome as Outcome) : null,
    };
  }
  const wireCode = textAt(body, format.code);
  const code = (wireCode !== null ? codeForWire(taxonomy, wireCode) : null) ?? codeForStatus(taxonomy, status, operationErrors);
  const message = textAt(body, format.message) ?? (format.style === "problem" ? textAt(body, PROBLEM_DEFAULTS.fallbackMessage) : null);
  return {
    code,
    entry: code !== null ? taxonomy[code]! : null,
    wireCode,
    message,
    ...named(textAt(body, format.field)),
    details: body ?? null,
    operationId: null,
    outcome: null,
  };
}

/**
 * The code a generated skeleton's host answers (with status 501) for an operation whose handler is
 * still the generated stub (host-runtime/errors.ts NotImplementedError).
 */
export const STUB_ERROR_CODE = "NOT_IMPLEMENTED";

/** The status of a stub's answer. */
export const STUB_ERROR_STATUS = 501;

/**
 * Whether an error answer is a skeleton's stub (the operation is not implemented yet): status 501
 * with the stub's code where the format carries a code (for `status`, the 501 alone), unless the
 * contract itself declares the code it reads as (then it is that declared error).
 */
export function isStubAnswer(format: ErrorFormat, status: number, wire: Pick<WireError, "code" | "wireCode">): boolean {
  if (status !== STUB_ERROR_STATUS || wire.code !== null) return false;
  return format.style === "status" || wire.wireCode === STUB_ERROR_CODE;
}

/** What a stub's answer means, for the SDK's error and the contract tests' report. */
export function notImplementedMessage(operation: string, handlerFile: string | null | undefined): string {
  return `the server does not implement ${operation} yet (its handler is a generated stub: fill it in ${handlerFile ?? "the skeleton's mcp/handlers/"})`;
}

/** An error to put on the wire (encodeError). */
export interface OutgoingError {
  readonly code: string;
  /** The code's taxonomy entry (its `wire` and status); null for a code outside the taxonomy (a host fallback). */
  readonly entry: { readonly wire?: string | null } | null;
  readonly status: number;
  readonly message: string;
  readonly field: string | null;
  readonly details: unknown;
  readonly operationId: string;
  readonly outcome: Outcome;
}

/** Media type of an RFC 9457 problem. */
export const PROBLEM_MEDIA_TYPE = "application/problem+json";

/**
 * An error response body in `format`, and its media type. Pointers are set on objects without a
 * prototype (a token `__proto__` is an ordinary member); numeric tokens under a new node make an array.
 */
export function encodeError(format: ErrorFormat, error: OutgoingError): { readonly body: unknown; readonly contentType: string } {
  if (format.style === "envelope") {
    return {
      contentType: "application/json",
      body: { error: { code: error.code, message: error.message, field: error.field, details: error.details, operationId: error.operationId, outcome: error.outcome } },
    };
  }
  const wire = error.entry?.wire ?? error.code;
  const body = Object.create(null) as Record<string, unknown>;
  if (format.style === "problem") {
    body.type = wire;
    body.title = error.code;
    body.status = error.status;
  }
  let root: unknown = body;
  const set = (pointer: string | null, value: unknown) => {
    // The empty pointer makes the body the value itself (a bare code): nothing more can be put in it.
    if (pointer !== null && (pointer === "" || (root !== null && typeof root === "object"))) root = setAt(root, pointer, value);
  };
  set(format.code, wire);
  set(format.message, error.message);
  if (error.field !== null) set(format.field, error.field);
  return { contentType: format.style === "problem" ? PROBLEM_MEDIA_TYPE : "application/json", body: root };
}

/** `root` with `value` at `pointer` (the root itself replaced for the empty pointer). */
function setAt(root: unknown, pointer: string, value: unknown): unknown {
  const path = tokens(pointer);
  if (path.length === 0) return value;
  let node = root as Record<string, unknown> | unknown[];
  path.forEach((token, i) => {
    const last = i === path.length - 1;
    const index = Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : null;
    const existing = index !== null ? (node as unknown[])[index] : Object.prototype.hasOwnProperty.call(node, token) ? (node as Record<string, unknown>)[token] : undefined;
    const next = last ? value : existing !== null && typeof existing === "object" ? existing : /^(0|[1-9][0-9]*)$/.test(path[i + 1]!) ? [] : (Object.create(null) as Record<string, unknown>);
    if (index !== null) (node as unknown[])[index] = next;
    else Object.defineProperty(node, token, { value: next, enumerable: true, writable: true, configurable: true });
    node = next as Record<string, unknown> | unknown[];
  });
  return root;
}
