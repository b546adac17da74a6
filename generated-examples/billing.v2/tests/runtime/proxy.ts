/**
 * The suite's own loopback proxy, for "a response lost after commit": it forwards every request to
 * the implementation and, when armed, lets the implementation answer (so the effect is committed)
 * and then destroys the client's connection instead of passing the answer on. It hands over the
 * request and the answer it withheld once the implementation has answered, so a check can retry that
 * exact request from a second process (retry-child.mjs) and compare what comes back with what the
 * implementation committed. The client's call may end before that (its time limit runs from before
 * the proxy forwarded): the exchange, not the client's failure, says when the implementation is done.
 */
import { spawn } from "node:child_process";
import { type IncomingHttpHeaders, type IncomingMessage, type Server, createServer, request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

/** One HTTP request as it reached the proxy (absolute URL at the implementation, raw body). */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Buffer;
}

/** An answer of the implementation: status, headers and body text. */
export interface RecordedAnswer {
  readonly status: number;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: string;
}

export interface DroppedExchange {
  readonly request: RecordedRequest;
  /** What the implementation answered before the connection was dropped; null when it could not be reached. */
  readonly answer: RecordedAnswer | null;
}

export interface DroppingProxy {
  readonly url: string;
  /**
   * Drop the answer to the next request to arrive. Resolves once the implementation has answered it
   * (or failed to, within the limits), or with null when that request could not be read.
   */
  dropNext(): Promise<DroppedExchange | null>;
  /** Stop, once the exchanges under way with the implementation have ended (within the limits). */
  close(): Promise<void>;
}

/** Hop-by-hop and framing headers: never forwarded or replayed as they came. */
const HOP_BY_HOP = new Set(["host", "connection", "keep-alive", "content-length", "transfer-encoding", "upgrade", "proxy-connection", "te", "trailer"]);

function headerPairs(headers: IncomingHttpHeaders): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || HOP_BY_HOP.has(k)) continue;
    for (const one of Array.isArray(v) ? v : [v]) out.push([k, one]);
  }
  return out;
}

/** Limits of the proxy's exchange with the implementation (the suite's own, see harness.ts). */
export interface ProxyLimits {
  readonly requestTimeoutMs: number;
  readonly maxResponseBytes: number;
}

/** The whole stream, or a failure once it passes `maxBytes` (the stream is destroyed there). */
function readAll(stream: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    stream.on("data", (c: Buffer) => {
      total += c.length;
      if (total > maxBytes) {
        stream.destroy();
        reject(new Error(`body larger than the limit of ${maxBytes} bytes`));
      } else chunks.push(c);
    });
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });
}

/** Forward one request to the implementation and read its whole answer (as sent: not decompressed), within the limits. */
function forward(req: RecordedRequest, limits: ProxyLimits): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  const target = new URL(req.url);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  const headers: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const [k, v] of req.headers) (headers[k] ??= []).push(v);
  return new Promise((resolve, reject) => {
    const out = send(target, { method: req.method, headers: { ...headers, "content-length": String(req.body.length) }, signal: AbortSignal.timeout(limits.requestTimeoutMs) }, (answer) => {
      readAll(answer, limits.maxResponseBytes).then((body) => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body }), reject);
    });
    out.on("error", reject);
    out.end(req.body);
  });
}

/** Start a proxy on 127.0.0.1 in front of `target()` (read per request: a reset may move the implementation). */
export async function startDroppingProxy(target: () => string, limits: ProxyLimits): Promise<DroppingProxy> {
  let armed: ((exchange: DroppedExchange | null) => void) | null = null;
  const underWay = new Set<Promise<void>>();
  const server: Server = createServer((req, res) => {
    // The drop is the next request's to arrive (taken before its body is read, not by whichever request's body ends first).
    const drop = armed;
    armed = null;
    const exchange = (async () => {
      let recorded: RecordedRequest;
      try {
        recorded = {
          method: req.method ?? "GET",
          url: `${target().replace(/\/+$/, "")}${req.url ?? "/"}`,
          headers: headerPairs(req.headers),
          body: await readAll(req, limits.maxResponseBytes),
        };
      } catch {
        drop?.(null);
        req.socket.destroy();
        return;
      }
      let answer: RecordedAnswer | null = null;
      let raw: Awaited<ReturnType<typeof forward>> | null = null;
      try {
        raw = await forward(recorded, limits);
        answer = { status: raw.status, headers: headerPairs(raw.headers), body: raw.body.toString("utf8") };
      } catch {
        // Unreachable implementation: the client sees a dropped connection either way.
      }
      if (drop || !raw) {
        drop?.({ request: recorded, answer });
        // Committed upstream (or failed), never answered downstream.
        req.socket.destroy();
        return;
      }
      res.writeHead(raw.status, Object.fromEntries(headerPairs(raw.headers)));
      res.end(raw.body);
    })().catch(() => {
      drop?.(null);
      req.socket.destroy();
    });
    underWay.add(exchange);
    void exchange.then(() => underWay.delete(exchange));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    dropNext: () => new Promise((resolve) => (armed = resolve)),
    close: async () => {
      // A forward still under way would commit after the check has moved on (into the next one's state).
      await Promise.allSettled([...underWay]);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

const CHILD = fileURLToPath(new URL("./retry-child.mjs", import.meta.url));
/** The second process's own start-up, on top of the request's time limit. */
const CHILD_START_MS = 10_000;

/**
 * Send `request` again from a second process (a fresh `node` running retry-child.mjs), directly to
 * the implementation: nothing of this process (connections, caches, an SDK journal) can help it.
 * The request travels on stdin, so its credential never shows in a process list.
 */
export function retryFromSecondProcess(request: RecordedRequest, limits: ProxyLimits): Promise<RecordedAnswer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD], { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill("SIGKILL"), limits.requestTimeoutMs + CHILD_START_MS);
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const text = Buffer.concat(out).toString("utf8");
      if (code !== 0) {
        reject(new Error(`the retrying process failed (${signal ?? `exit ${code}`}): ${Buffer.concat(err).toString("utf8").split("\n")[0]?.slice(0, 500)}`));
        return;
      }
      try {
        resolve(JSON.parse(text) as RecordedAnswer);
      } catch {
        reject(new Error(`the retrying process printed no answer: ${text.slice(0, 200)}`));
      }
    });
    child.stdin.end(JSON.stringify({ method: request.method, url: request.url, headers: request.headers, body: request.body.toString("base64"), limits }));
  });
}
