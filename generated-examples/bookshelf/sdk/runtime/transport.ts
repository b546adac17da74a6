/**
 * One HTTP exchange under limits, shared by the SDK and the contract test suite. fetch's own
 * redirect handling is not used: it re-sends a POST's body on 307/308 whatever the operation is, and
 * carries every header but Authorization to another origin (an API key included). Here redirects are
 * followed by hand:
 *
 * - at most `maxRedirects` hops, never the same request twice (a loop), only to http(s) URLs;
 * - a hop to another origin (scheme, host or port) carries no credential of any kind: only the
 *   headers in CROSS_ORIGIN_HEADERS travel, and only a GET without a body is sent there;
 * - 303 is followed with a GET (the result lives there); 301, 302, 307 and 308 keep the method and
 *   body, so a request that is not safe to repeat (`resendable` false) is never sent again;
 * - once a server has answered (even with a redirect), every later failure says the request was sent.
 *
 * Response bodies are read with a bound on their decoded size, so a compressed or endless body stops
 * at the bound instead of filling memory; the caller's signal (its timeout) covers the body as well.
 * Failures are TransportFailure, with the cause named instead of fetch's "fetch failed".
 */

/** Limits of one exchange. */
export interface TransportLimits {
  /** Redirects followed before giving up (0: none). */
  readonly maxRedirects: number;
  /** Largest response body read, in bytes after decompression. */
  readonly maxResponseBytes: number;
}

export const DEFAULT_TRANSPORT_LIMITS: TransportLimits = { maxRedirects: 5, maxResponseBytes: 64 * 1024 * 1024 };

export interface OutgoingRequest {
  readonly url: string;
  readonly method: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** JSON or form text, or multipart bytes. */
  readonly body?: string | ArrayBuffer;
  readonly signal?: AbortSignal;
}

export interface ExchangeOptions {
  readonly limits: TransportLimits;
  /** May a redirect that keeps the method (301, 302, 307, 308) send this request again, body and all? */
  readonly resendable: boolean;
  /** Refuse every redirect to another origin, even a GET without credentials (the contract suite: it reports what it reads). */
  readonly sameOriginOnly?: boolean;
}

/** The final response (its body not read yet; see readBody) and the URL it came from. */
export interface Exchanged {
  readonly response: Response;
  readonly url: string;
  /** Redirects followed to get there. */
  readonly redirects: number;
}

export type TransportFailureKind =
  | "timeout"
  | "aborted"
  | "refused"
  | "dns"
  | "unreachable"
  | "connect-timeout"
  | "reset"
  | "closed"
  | "headers-too-large"
  | "tls"
  | "protocol"
  | "body-too-large"
  | "redirect-limit"
  | "redirect-loop"
  | "redirect-scheme"
  | "redirect-invalid"
  | "redirect-unsafe"
  | "redirect-cross-origin"
  | "network";

/** Failures on the way to the first server that prove no byte of the request reached it. */
const NOT_SENT: ReadonlySet<TransportFailureKind> = new Set(["refused", "dns", "unreachable", "connect-timeout"]);

/** Headers that may travel to another origin: nothing that can carry a credential. */
const CROSS_ORIGIN_HEADERS: ReadonlySet<string> = new Set(["accept", "accept-language", "user-agent", "x-request-id"]);

export class TransportFailure extends Error {
  override name = "TransportFailure";
  /** Whether bytes of the request may have reached a server (false only when it provably never left). */
  readonly sent: boolean;

  constructor(
    readonly kind: TransportFailureKind,
    message: string,
    options: { readonly sent: boolean; readonly cause?: unknown },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.sent = options.sent;
  }
}

/** Codes of Node's network stack and undici, by what they mean for the caller. */
const CAUSES: ReadonlyArray<[TransportFailureKind, RegExp, string]> = [
  ["refused", /^ECONNREFUSED$/, "connection refused"],
  ["dns", /^(ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NONAME)$/, "host name not found"],
  ["unreachable", /^(EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL)$/, "host unreachable"],
  ["connect-timeout", /^UND_ERR_CONNECT_TIMEOUT$/, "connecting timed out"],
  ["reset", /^(ECONNRESET|EPIPE)$/, "connection reset by the server"],
  ["closed", /^(UND_ERR_SOCKET|UND_ERR_CLOSED|ECONNABORTED)$/, "connection closed by the server before the response was complete"],
  ["headers-too-large", /^UND_ERR_HEADERS_OVERFLOW$/, "response headers too large (more than Node's --max-http-header-size, 16 KiB by default)"],
  ["timeout", /^(UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT|ETIMEDOUT)$/, "the server stopped sending"],
  ["tls", /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_)/, "TLS failed"],
  ["protocol", /^(HPE_|UND_ERR_INVALID_ARG|UND_ERR_RES_CONTENT_LENGTH_MISMATCH|Z_|ERR_INVALID_CHAR|UND_ERR_NOT_SUPPORTED)/, "the response is not valid HTTP"],
];

/** What went wrong in `e` (a fetch or body-read failure), as a TransportFailure. `answered`: a server already responded. */
export function transportFailure(e: unknown, answered: boolean, timeoutMs?: number): TransportFailure {
  if (e instanceof TransportFailure) return e;
  const error = e as { name?: unknown; message?: unknown; cause?: unknown } | null;
  if (error?.name === "TimeoutError") {
    return new TransportFailure("timeout", `timed out: no complete response within ${timeoutMs !== undefined ? `${timeoutMs} ms` : "the timeout"}`, { sent: true, cause: e });
  }
  if (error?.name === "AbortError") return new TransportFailure("aborted", "the request was aborted", { sent: true, cause: e });
  // fetch wraps the cause (TypeError "fetch failed" or "terminated"), sometimes twice.
  let cause: unknown = error?.cause ?? e;
  for (let depth = 0; depth < 3; depth++) {
    const code = (cause as { code?: unknown } | null)?.code;
    if (typeof code === "string") {
      for (const [kind, pattern, text] of CAUSES) {
        if (pattern.test(code)) return new TransportFailure(kind, `${text} (${code})`, { sent: answered || !NOT_SENT.has(kind), cause: e });
      }
      return new TransportFailure("network", `network error (${code})`, { sent: true, cause: e });
    }
    const next = (cause as { cause?: unknown } | null)?.cause;
    if (next === undefined) break;
    cause = next;
  }
  const message = typeof (cause as { message?: unknown } | null)?.message === "string" ? ((cause as { message: string }).message) : String(cause);
  return new TransportFailure("network", `network error (${message.slice(0, 200)})`, { sent: true, cause: e });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The request for the next hop, or why there is none. */
function nextHop(current: OutgoingRequest, status: number, location: string, options: ExchangeOptions): OutgoingRequest {
  let target: URL;
  try {
    target = new URL(location, current.url);
  } catch {
    throw new TransportFailure("redirect-invalid", `HTTP ${status} redirect to ${JSON.stringify(location.slice(0, 200))}, which is not a URL`, { sent: true });
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    throw new TransportFailure("redirect-scheme", `HTTP ${status} redirect to a ${target.protocol} URL; only http and https are followed`, { sent: true });
  }
  target.hash = "";
  const keepsMethod = status !== 303 || current.method === "HEAD";
  const method = keepsMethod ? current.method : "GET";
  const body = keepsMethod ? current.body : undefined;
  const sendsAgain = keepsMethod && method !== "GET" && method !== "HEAD";
  if (sendsAgain && !options.resendable) {
    throw new TransportFailure(
      "redirect-unsafe",
      `HTTP ${status} redirect of a ${method} that is not safe to send twice (no operation key, not idempotent); it is not sent again to ${target.origin}`,
      { sent: true },
    );
  }
  const crossOrigin = target.origin !== new URL(current.url).origin;
  if (crossOrigin && options.sameOriginOnly) {
    throw new TransportFailure("redirect-cross-origin", `HTTP ${status} redirect to another origin (${target.origin}), which is not followed`, { sent: true });
  }
  if (crossOrigin && (method !== "GET" && method !== "HEAD")) {
    throw new TransportFailure("redirect-cross-origin", `HTTP ${status} redirect of a ${method} to another origin (${target.origin}); only a GET goes there`, { sent: true });
  }
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(current.headers)) {
    if (crossOrigin && !CROSS_ORIGIN_HEADERS.has(name)) continue;
    if (body === undefined && (name === "content-type" || name === "content-length")) continue;
    headers[name] = value;
  }
  return { url: target.href, method, headers, ...(body !== undefined ? { body } : {}), ...(current.signal ? { signal: current.signal } : {}) };
}

/**
 * Send `request`, following redirects as described above. The returned response's body is unread;
 * read it with readBody. Throws TransportFailure.
 */
export async function exchange(fetchImpl: typeof fetch, request: OutgoingRequest, options: ExchangeOptions, timeoutMs?: number): Promise<Exchanged> {
  // Header names compared in lower case below (which may travel where, which describe the body).
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
  let current: OutgoingRequest = { ...request, headers };
  const seen = new Set<string>();
  for (let redirects = 0; ; redirects++) {
    seen.add(`${current.method} ${current.url}`);
    let response: Response;
    try {
      response = await fetchImpl(current.url, {
        method: current.method,
        headers: current.headers,
        redirect: "manual",
        ...(current.body !== undefined ? { body: current.body } : {}),
        ...(current.signal ? { signal: current.signal } : {}),
      });
    } catch (e) {
      throw transportFailure(e, redirects > 0, timeoutMs);
    }
    const location = response.headers.get("location");
    if (!REDIRECTS.has(response.status) || location === null) return { response, url: current.url, redirects };
    await response.body?.cancel().catch(() => undefined);
    if (redirects >= options.limits.maxRedirects) {
      throw new TransportFailure("redirect-limit", `more than ${options.limits.maxRedirects} redirects (the last: HTTP ${response.status} to ${JSON.stringify(location.slice(0, 200))})`, { sent: true });
    }
    const next = nextHop(current, response.status, location, options);
    if (seen.has(`${next.method} ${next.url}`)) {
      throw new TransportFailure("redirect-loop", `redirect loop: HTTP ${response.status} back to ${next.url.slice(0, 200)}, already requested`, { sent: true });
    }
    current = next;
  }
}

/**
 * The body of `response` as text, reading at most `maxBytes` decoded bytes: a larger body (declared
 * or read) is cancelled and fails with "body-too-large". Other failures while reading (the timeout,
 * a connection closed mid-body, corrupt compression) fail as TransportFailure too.
 */
export async function readBody(response: Response, maxBytes: number, timeoutMs?: number): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(response, maxBytes, timeoutMs));
}

/** readBody's bytes, undecoded (a binary result: a PDF, an image). */
export async function readBodyBytes(response: Response, maxBytes: number, timeoutMs?: number): Promise<Uint8Array> {
  const tooLarge = (what: string) => new TransportFailure("body-too-large", `response body ${what} than the limit of ${maxBytes} bytes`, { sent: true });
  const declared = Number(response.headers.get("content-length") ?? "");
  const encoded = (response.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if ((encoded === "identity" || encoded === "") && Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(`of ${declared} bytes (Content-Length) is larger`);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge("is larger");
      }
      chunks.push(value);
    }
  } catch (e) {
    throw transportFailure(e, true, timeoutMs);
  }
  const all = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}
