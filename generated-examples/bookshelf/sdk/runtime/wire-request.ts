/**
 * The one request encoder of contractgen: an operation's input as the HTTP request its contract
 * binds it to, by OpenAPI 3.1's serialization rules ("Style Values", "Encoding Object"). The SDK
 * runtime (client.ts) and the contract tests' harness both call it, so what the suite sends is what
 * the SDK sends.
 *
 * Defaults follow OpenAPI: query and cookie fields form + explode; path and header fields simple,
 * explode false; form-urlencoded body fields form + explode; JSON bodies unless the operation
 * declares another content type. Percent-encoding follows RFC 3986 (unreserved characters kept;
 * `allowReserved` also keeps the reserved ones in query values).
 */
import { randomUUID } from "node:crypto";

export type ParamStyle = "form" | "spaceDelimited" | "pipeDelimited" | "deepObject" | "simple" | "label" | "matrix";
export type WireLocation = "path" | "query" | "header" | "cookie" | "body";

/** Where one input field goes, and how it is serialized there. */
export interface WireBinding {
  readonly field: string;
  readonly in: WireLocation;
  /** Path segment name, query key, header or cookie name (a body field: its property name). */
  readonly name: string;
  /** Absent: the location's default (query, cookie, form body: form; path, header: simple). */
  readonly style?: ParamStyle;
  /** Absent: true for form, false for every other style. */
  readonly explode?: boolean;
  /** Query values keep RFC 3986 reserved characters unencoded. */
  readonly allowReserved?: boolean;
  /** A multipart part's media type. */
  readonly contentType?: string;
  /** A multipart field whose value is base64 text, sent as the bytes of a file part. */
  readonly file?: boolean;
}

/** The facts of an operation the encoder reads (a subset of both the SDK's and the suite's descriptors). */
export interface WireOperation {
  readonly id?: string;
  readonly method: string;
  readonly path: string;
  readonly bindings: readonly WireBinding[];
  /** The input field whose value is the whole body (`http.body`), or null/absent. */
  readonly bodyField?: string | null;
  /** Absent: application/json. */
  readonly contentType?: string;
  /** Send a body ({} or an empty form) when no body field is given. */
  readonly bodyRequired?: boolean;
  /** The media type asked for; absent or null: application/json. */
  readonly accept?: string | null;
}

export interface WireRequest {
  readonly method: string;
  readonly url: string;
  /** Header names in lower case; a null-prototype record (names come from contracts). */
  readonly headers: Record<string, string>;
  /** The encoded body: JSON or form text, or multipart bytes; undefined when no body is sent. */
  readonly body: string | ArrayBuffer | undefined;
  /** The body before encoding (the JSON value, or the form fields as an object), for reports; undefined without a body. */
  readonly sent: unknown;
}

export interface EncodeOptions {
  /**
   * Input fields no binding names (the contract suite's "extra property" cases): sent in the body,
   * or in the query of a GET or DELETE or of an operation whose body is one field. Default: dropped.
   */
  readonly unbound?: "send";
  /** The multipart boundary (tests pin it); default a random one. */
  readonly boundary?: string;
}

/** Nesting followed when serializing deepObject values; deeper values are sent as JSON text. */
export const MAX_DEEP_OBJECT_DEPTH = 32;

const JSON_MEDIA = "application/json";
const FORM_MEDIA = "application/x-www-form-urlencoded";
const MULTIPART_MEDIA = "multipart/form-data";

type Input = Readonly<Record<string, unknown>>;

/** An input field's own value: a field named like an Object.prototype member is absent unless set. */
function own(input: Input, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(input, name) ? input[name] : undefined;
}

/** Define a property whose name comes from a contract or an input (`__proto__` stays a plain key). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

/** A scalar as text; nested arrays and objects (which no style defines) as JSON text. */
function scalarText(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

const RESERVED = new Set(":/?#[]@!$&'()*+,;=");

/**
 * RFC 3986 percent-encoding of UTF-8 text: unreserved characters (ALPHA DIGIT - . _ ~) are kept;
 * with `allowReserved` the reserved set and existing %XX triplets are kept too.
 */
export function percentEncode(text: string, allowReserved = false): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const code = c.charCodeAt(0);
    if ((code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || c === "-" || c === "." || c === "_" || c === "~") out += c;
    else if (allowReserved && RESERVED.has(c)) out += c;
    else if (allowReserved && c === "%" && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) out += c;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      out += encodeURIComponent(c + text[i + 1]!);
      i++;
    } else {
      // A lone surrogate is sent as U+FFFD rather than failing the whole request.
      out += code >= 0xd800 && code <= 0xdfff ? "%EF%BF%BD" : encodeURIComponent(c).replace(/[!'()*]/g, (r) => `%${r.charCodeAt(0).toString(16).toUpperCase()}`);
    }
  }
  return out;
}

/** The effective style and explode of a binding (OpenAPI defaults per location). */
export function effectiveStyle(binding: WireBinding): { style: ParamStyle; explode: boolean } {
  const style = binding.style ?? (binding.in === "path" || binding.in === "header" ? "simple" : "form");
  return { style, explode: binding.explode ?? style === "form" };
}

/** One `name=value` pair of a query, cookie or form body, already encoded. */
type Pair = readonly [string, string];

/**
 * A query-like value (query parameter, form body field, cookie) as encoded pairs, by style:
 * form (explode: repeated keys / an object's own keys; else comma-joined), spaceDelimited and
 * pipeDelimited (arrays and objects joined; explode: as form), deepObject (`name[key]=v`, nested
 * objects and arrays by index, to MAX_DEEP_OBJECT_DEPTH).
 */
export function queryPairs(name: string, value: unknown, style: ParamStyle, explode: boolean, allowReserved = false): Pair[] {
  const enc = (s: string) => percentEncode(s, allowReserved);
  const key = percentEncode(name);
  if (value === undefined) return [];
  if (style === "deepObject") {
    const out: Pair[] = [];
    deepPairs(name, value, out, enc);
    return out;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return style === "form" && !explode ? [[key, ""]] : [];
    if (explode) return value.map((v) => [key, enc(scalarText(v))] as const);
    const sep = style === "spaceDelimited" ? "%20" : style === "pipeDelimited" ? "|" : ",";
    return [[key, value.map((v) => enc(scalarText(v))).join(sep)]];
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (explode) return entries.map(([k, v]) => [percentEncode(k), enc(scalarText(v))] as const);
    const sep = style === "spaceDelimited" ? "%20" : style === "pipeDelimited" ? "|" : ",";
    return [[key, entries.map(([k, v]) => `${enc(k)}${sep}${enc(scalarText(v))}`).join(sep)]];
  }
  return [[key, enc(scalarText(value))]];
}

/** deepObject pairs: `name[k1][k2]=v`, each segment percent-encoded, brackets literal; arrays by index. */
function deepPairs(name: string, value: unknown, out: Pair[], enc: (s: string) => string): void {
  // An explicit stack, not recursion: the depth is bounded, and the order is the document's.
  const stack: Array<{ path: readonly string[]; value: unknown }> = [{ path: [], value }];
  while (stack.length > 0) {
    const { path, value: v } = stack.pop()!;
    const key = `${percentEncode(name)}${path.map((segment) => `[${percentEncode(segment)}]`).join("")}`;
    if (path.length >= MAX_DEEP_OBJECT_DEPTH && (Array.isArray(v) || isPlainObject(v))) {
      out.push([key, enc(JSON.stringify(v))]);
      continue;
    }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ path: [...path, String(i)], value: v[i] });
      continue;
    }
    if (isPlainObject(v)) {
      const entries = Object.entries(v).filter(([, item]) => item !== undefined);
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ path: [...path, entries[i]![0]], value: entries[i]![1] });
      continue;
    }
    out.push([key, enc(scalarText(v))]);
  }
}

/** A path parameter's value by style (simple, label, matrix), percent-encoded, delimiters literal. */
export function pathValue(name: string, value: unknown, style: ParamStyle, explode: boolean): string {
  const enc = (v: unknown) => percentEncode(scalarText(v));
  const n = percentEncode(name);
  const prefix = style === "label" ? "." : style === "matrix" ? ";" : "";
  if (Array.isArray(value)) {
    if (style === "matrix") return explode ? value.map((v) => `;${n}=${enc(v)}`).join("") : `;${n}=${value.map(enc).join(",")}`;
    if (style === "label") return `.${value.map(enc).join(explode ? "." : ",")}`;
    return value.map(enc).join(",");
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (style === "matrix") return explode ? entries.map(([k, v]) => `;${percentEncode(k)}=${enc(v)}`).join("") : `;${n}=${entries.map(([k, v]) => `${percentEncode(k)},${enc(v)}`).join(",")}`;
    const joined = explode ? entries.map(([k, v]) => `${percentEncode(k)}=${enc(v)}`).join(style === "label" ? "." : ",") : entries.map(([k, v]) => `${percentEncode(k)},${enc(v)}`).join(",");
    return `${prefix}${joined}`;
  }
  if (style === "matrix") return value === "" ? `;${n}` : `;${n}=${enc(value)}`;
  return `${prefix}${enc(value)}`;
}

/** A header value (style simple): arrays comma-joined; objects `k,v,…` or, exploded, `k=v,…`. Not percent-encoded. */
export function headerValue(value: unknown, explode: boolean): string {
  if (Array.isArray(value)) return value.map(scalarText).join(",");
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return entries.map(([k, v]) => (explode ? `${k}=${scalarText(v)}` : `${k},${scalarText(v)}`)).join(",");
  }
  return scalarText(value);
}

/**
 * Why `value` cannot travel in an HTTP header, or null: fetch sends Latin-1 bytes only, and a header
 * value must not hold control characters (CR and LF would split it).
 */
export function headerValueProblem(value: string): string | null {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 0x0d || code === 0x0a) return "contains a line break (CR or LF), which a header value cannot hold";
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return `contains the control character U+${code.toString(16).toUpperCase().padStart(4, "0")}, which a header value cannot hold`;
    if (code > 0xff) return `contains ${JSON.stringify(String.fromCodePoint(value.codePointAt(i)!))}, outside Latin-1, which a header value cannot hold`;
  }
  return null;
}

/**
 * The first input field whose encoded value cannot be sent (a header value outside visible
 * Latin-1 or with CR/LF), with the reason; null when all can. Checked with input validation,
 * before anything is sent.
 */
export function wireInputProblem(op: WireOperation, input: Input): { field: string; problem: string } | null {
  for (const binding of op.bindings) {
    if (binding.in !== "header") continue;
    const value = own(input, binding.field);
    if (value === undefined) continue;
    const problem = headerValueProblem(headerValue(value, effectiveStyle(binding).explode));
    if (problem !== null) return { field: binding.field, problem: `(header ${binding.name}) ${problem}` };
  }
  return null;
}

/** The media type an operation asks for (`Accept`). */
export function acceptOf(op: WireOperation): string {
  return op.accept ?? JSON_MEDIA;
}

/** Whether a media type (a Content-Type header's value) is JSON: application/json or any +json. */
export function isJsonMedia(contentType: string | null): boolean {
  const media = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  return media === JSON_MEDIA || media.endsWith("+json");
}

/**
 * The result of a non-JSON success response of an operation that asks for another media type:
 * text (text/*, or a text media type asked for) as a string, anything else as base64 text. Null
 * when the response is JSON (or the operation asks for JSON): the caller parses it.
 */
export function nonJsonResult(op: WireOperation, responseType: string | null, bytes: Uint8Array): { value: string } | null {
  const accept = op.accept ?? null;
  if (accept === null || isJsonMedia(accept)) return null;
  if (isJsonMedia(responseType)) return null;
  const media = (responseType ?? accept).split(";")[0]!.trim().toLowerCase();
  if (media.startsWith("text/")) return { value: new TextDecoder().decode(bytes) };
  return { value: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64") };
}

/** A random multipart boundary (RFC 2046: at most 70 characters, none in the parts). */
function randomBoundary(): string {
  return `----contractgen-${randomUUID()}`;
}

/** Quote a multipart header parameter (a field name): quotes, backslashes and line breaks escaped as browsers do. */
function quoted(text: string): string {
  return `"${text.replace(/\r/g, "%0D").replace(/\n/g, "%0A").replace(/"/g, "%22")}"`;
}

/** A multipart/form-data body (RFC 7578): one part per scalar, array item or object (as JSON); file fields as bytes. */
function multipartBody(fields: ReadonlyArray<readonly [WireBinding | null, string, unknown]>, boundary: string): ArrayBuffer {
  const chunks: Uint8Array[] = [];
  const text = (s: string) => chunks.push(new TextEncoder().encode(s));
  const part = (name: string, contentType: string | null, filename: string | null, data: Uint8Array | string) => {
    text(`--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}${filename !== null ? `; filename=${quoted(filename)}` : ""}\r\n`);
    if (contentType !== null) text(`Content-Type: ${contentType}\r\n`);
    text("\r\n");
    if (typeof data === "string") text(data);
    else chunks.push(data);
    text("\r\n");
  };
  for (const [binding, name, value] of fields) {
    if (value === undefined) continue;
    const declared = binding?.contentType ?? null;
    if (binding?.file === true && typeof value === "string") {
      part(name, declared ?? "application/octet-stream", name, new Uint8Array(Buffer.from(value, "base64")));
    } else if (Array.isArray(value) && value.every((v) => !isPlainObject(v) && !Array.isArray(v))) {
      for (const v of value) part(name, declared, null, scalarText(v));
    } else if (typeof value === "object" && value !== null) {
      part(name, declared ?? JSON_MEDIA, null, JSON.stringify(value));
    } else {
      part(name, declared, null, scalarText(value));
    }
  }
  text(`--${boundary}--\r\n`);
  const total = chunks.reduce((n, c) => n + c.byteLength, 0);
  const all = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return all.buffer as ArrayBuffer;
}

/** Encode an operation's input as an HTTP request, following its field bindings. */
export function encodeRequest(op: WireOperation, input: Input, baseUrl: string, options: EncodeOptions = {}): WireRequest {
  let path = op.path;
  const query: Pair[] = [];
  const cookies: Pair[] = [];
  // Keys come from the contract: no prototype, so a field named `__proto__` is an ordinary key.
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  headers.accept = acceptOf(op);
  const contentType = op.contentType ?? JSON_MEDIA;
  const bodyField = op.bodyField ?? null;
  // Body fields in binding order: [binding, wire name, value]; the whole-body field apart.
  const bodyFields: Array<readonly [WireBinding | null, string, unknown]> = [];
  let whole: { value: unknown } | null = null;
  const bound = new Set<string>();
  for (const binding of op.bindings) {
    bound.add(binding.field);
    let value = own(input, binding.field);
    if (value === undefined) continue;
    const { style, explode } = effectiveStyle(binding);
    // contractgen's own wire protocol (docs/wire-protocol.md) sends an object parameter as JSON text;
    // a declared style (`http.params`) asks for OpenAPI's serialization instead.
    if (binding.in !== "body" && binding.in !== "cookie" && binding.style === undefined && binding.explode === undefined && isPlainObject(value)) value = JSON.stringify(value);
    switch (binding.in) {
      case "path":
        path = path.split(`{${binding.name}}`).join(pathValue(binding.name, value, style, explode));
        break;
      case "query":
        query.push(...queryPairs(binding.name, value, style, explode, binding.allowReserved === true));
        break;
      case "header":
        headers[binding.name.toLowerCase()] = headerValue(value, explode);
        break;
      case "cookie":
        cookies.push(...queryPairs(binding.name, value, "form", explode));
        break;
      case "body":
        if (binding.field === bodyField) whole = { value };
        else bodyFields.push([binding, binding.name, value]);
        break;
    }
  }
  if (options.unbound === "send") {
    for (const [name, value] of Object.entries(input)) {
      if (bound.has(name) || value === undefined) continue;
      // A whole body has no room for another field: it goes to the query, where the server must refuse it.
      if (op.method === "GET" || op.method === "DELETE" || bodyField !== null) query.push(...queryPairs(name, value, "form", true));
      else bodyFields.push([null, name, value]);
    }
  }
  if (cookies.length > 0) headers.cookie = cookies.map(([k, v]) => `${k}=${v}`).join("; ");

  let body: string | ArrayBuffer | undefined;
  let sent: unknown;
  const hasBody = whole !== null || bodyFields.length > 0 || (op.bodyRequired === true && op.method !== "GET");
  if (hasBody) {
    if (contentType === JSON_MEDIA) {
      if (whole !== null) sent = whole.value;
      else {
        const object = Object.create(null) as Record<string, unknown>;
        for (const [, name, value] of bodyFields) setOwn(object, name, value);
        sent = object;
      }
      body = JSON.stringify(sent);
      headers["content-type"] = JSON_MEDIA;
    } else {
      // A whole-body field of a form or multipart body: its properties are the form's fields.
      const fields: Array<readonly [WireBinding | null, string, unknown]> = whole !== null && isPlainObject(whole.value)
        ? Object.entries(whole.value).map(([k, v]) => [null, k, v] as const)
        : bodyFields;
      const object = Object.create(null) as Record<string, unknown>;
      for (const [, name, value] of fields) if (value !== undefined) setOwn(object, name, value);
      sent = object;
      if (contentType === MULTIPART_MEDIA) {
        const boundary = options.boundary ?? randomBoundary();
        body = multipartBody(fields, boundary);
        headers["content-type"] = `${MULTIPART_MEDIA}; boundary=${boundary}`;
      } else {
        const pairs: Pair[] = [];
        for (const [binding, name, value] of fields) {
          const { style, explode } = effectiveStyle(binding ?? { field: name, in: "body", name });
          pairs.push(...queryPairs(name, value, style, explode));
        }
        body = pairs.map(([k, v]) => `${k}=${v}`).join("&");
        headers["content-type"] = FORM_MEDIA;
      }
    }
  }
  const qs = query.map(([k, v]) => `${k}=${v}`).join("&");
  return { method: op.method, url: `${baseUrl}${path}${qs ? `?${qs}` : ""}`, headers, body, sent };
}
