/**
 * The drain both generated HTTP servers stop with (src/mcp-runtime/drain.ts), one connection at a
 * time, in process and over raw sockets so that what the client sees is exact. The load tests with
 * the built bins and a real SIGTERM are test/server/drain.test.ts.
 *
 * Against the stop both servers had before (stop listening and close idle connections at once, 503
 * without reading the body, answers in flight kept alive), the same sequences gave: the reused
 * keep-alive connection "closed, no answer"; the 4 MiB refusal answered halfway, then EPIPE while the
 * rest of the body was being sent (RFC 9112 §9.6: over a network the reset can destroy the 503 too);
 * the running answer `Connection: keep-alive`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type DrainableServer, drainableServer, DRAIN_RETRY_AFTER_SECONDS } from "../../src/mcp-runtime/drain.js";

/** A server whose /slow requests wait for release(); anything else is answered at once. */
async function start() {
  const held: Array<() => void> = [];
  const drainable = drainableServer(
    async (req: IncomingMessage, res: ServerResponse) => {
      for await (const _ of req); // the body
      if (req.url === "/slow") await new Promise<void>((resolve) => held.push(resolve));
      const body = `answered ${req.url}`;
      res.writeHead(200, { "content-type": "text/plain", "content-length": body.length });
      res.end(body);
    },
    (_req, res) => {
      res.writeHead(503, { "content-type": "text/plain", "content-length": 8 });
      res.end("stopping");
    },
  );
  await new Promise<void>((resolve) => drainable.server.listen(0, "127.0.0.1", resolve));
  servers.push(drainable);
  const port = (drainable.server.address() as { port: number }).port;
  return {
    drainable,
    held: () => held.length,
    release: () => held.splice(0).forEach((go) => go()),
    open: () => new Promise<Socket>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => resolve(socket));
    }),
  };
}

const servers: DrainableServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) if (s.server.listening) await s.drain(0);
});

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Send one request on `socket`; resolves with the answer, or with what happened to the connection instead. */
function exchange(socket: Socket, request: string): Promise<Answer | string> {
  return new Promise((resolve) => {
    let received = "";
    const answer = (): Answer | null => {
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return null;
      const [statusLine = "", ...lines] = received.slice(0, end).split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      const body = received.slice(end + 4);
      return body.length >= Number(headers["content-length"] ?? Infinity) ? { status: Number(statusLine.split(" ")[1]), headers, body } : null;
    };
    const onData = (chunk: Buffer) => {
      received += chunk.toString("latin1");
      const done = answer();
      if (done) {
        cleanup();
        resolve(done);
      }
    };
    const onError = (e: NodeJS.ErrnoException) => {
      cleanup();
      resolve(`connection failed: ${e.code ?? e.message}`);
    };
    const onClose = () => {
      cleanup();
      resolve(answer() ?? "closed, no answer");
    };
    const cleanup = () => {
      socket.off("data", onData);
      socket.off("error", onError);
      socket.off("close", onClose);
    };
    socket.on("data", onData);
    socket.on("error", onError);
    socket.on("close", onClose);
    socket.write(request);
  });
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`;
const closedBy = (socket: Socket) => new Promise<void>((resolve) => (socket.closed ? resolve() : socket.once("close", () => resolve())));

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

describe("drainableServer", () => {
  it("a keep-alive connection reused while the drain waits for a running call gets 503 with Retry-After and Connection: close", async () => {
    const server = await start();
    const idle = await server.open();
    expect(await exchange(idle, get("/fast"))).toMatchObject({ status: 200, headers: { connection: "keep-alive" } });
    const busy = await server.open();
    const running = exchange(busy, get("/slow"));
    await until(() => server.held() === 1);
    const stopped = server.drainable.drain(30_000);
    expect(await exchange(idle, get("/fast"))).toEqual({ status: 503, headers: expect.objectContaining({ "retry-after": String(DRAIN_RETRY_AFTER_SECONDS), connection: "close" }), body: "stopping" });
    await closedBy(idle);
    server.release();
    expect(await running).toMatchObject({ status: 200, body: "answered /slow" });
    expect(await stopped).toBe(0);
  });

  it("an answer running when the drain starts says Connection: close, and the connection is closed after it", async () => {
    const server = await start();
    const busy = await server.open();
    const running = exchange(busy, get("/slow"));
    await until(() => server.held() === 1);
    const stopped = server.drainable.drain(30_000);
    server.release();
    expect(await running).toMatchObject({ status: 200, headers: { connection: "close" }, body: "answered /slow" });
    await closedBy(busy);
    expect(await stopped).toBe(0);
    expect(server.drainable.server.listening).toBe(false);
  });

  it("a refused request's body is read before the 503: the client sends it all and the connection ends cleanly, not reset", async () => {
    const server = await start();
    const busy = await server.open();
    const running = exchange(busy, get("/slow"));
    await until(() => server.held() === 1);
    const late = await server.open();
    const failures: string[] = [];
    late.on("error", (e: NodeJS.ErrnoException) => failures.push(e.code ?? e.message));
    const stopped = server.drainable.drain(30_000);
    const body = "x".repeat(4 * 1024 * 1024);
    expect(await exchange(late, `POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`)).toMatchObject({ status: 503, headers: { connection: "close" } });
    await closedBy(late);
    expect(failures).toEqual([]);
    server.release();
    await running;
    expect(await stopped).toBe(0);
  });

  it("a call still running at the deadline is cut short and counted; the server stops listening", async () => {
    const server = await start();
    const busy = await server.open();
    const running = exchange(busy, get("/slow"));
    await until(() => server.held() === 1);
    expect(await server.drainable.drain(50)).toBe(1);
    expect(await running).toBe("closed, no answer");
    expect(server.drainable.server.listening).toBe(false);
    server.release();
  });
});
