/**
 * How a generated HTTP server stops without resetting a request it has received: the one drain of
 * the MCP server's Streamable HTTP front end (http.ts) and the contract host's (host-runtime/http.ts).
 *
 * A request has reached the server once the kernel has accepted its connection, whether or not the
 * process has taken that connection from the listening socket's backlog yet; closing the listening
 * socket resets every connection still in the backlog. A keep-alive connection closed while idle
 * loses the request its client is sending on it, and a connection closed on request bytes not yet
 * read is reset, which can take the answer already sent with it (RFC 9112 §9.6). So, when asked to stop:
 *   1. keep listening; a request that arrives from now on is answered 503 with `Retry-After` and
 *      `Connection: close`, after its body has been read;
 *   2. answers still being worked on say `Connection: close`, so no client reuses their connection;
 *   3. wait until nothing is in flight and every new connection has sent its request (or stayed
 *      silent past a grace), let the event loop take what the backlog holds, and wait again if that
 *      brought anything;
 *   4. only then stop listening and close the idle connections.
 * The deadline bounds all of it: what is still running then is cut short (and counted).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** Seconds a refused client is told to wait (`Retry-After`): another instance can usually answer at once. */
export const DRAIN_RETRY_AFTER_SECONDS = 1;

/**
 * How long a new connection may stay silent before the drain stops waiting for its request. A client
 * that connects sends its request straight away; one that has sent nothing for this long is probably
 * a preconnect that may never send one (Go's http.Server.Shutdown draws the same line at 5 s).
 */
export const FIRST_REQUEST_GRACE_MS = 5000;

export interface DrainableServer {
  /** The HTTP server; its owner listens on it. */
  readonly server: Server;
  /** Requests being answered now. */
  inFlight(): number;
  /**
   * Stop as the header describes, within `drainMs`. Resolves once the server has stopped listening and
   * every connection is closed, with how many requests were still being answered at the deadline.
   */
  drain(drainMs: number): Promise<number>;
}

/**
 * A node:http server that answers with `serve` until drain(), and with `refuse` once draining.
 * A request runs until its response has closed and the promise `serve` returned has settled: a call
 * whose client has gone still finishes, so that its outcome is recorded. `refuse` writes the
 * server's own 503 (status and body in its error format); the response already carries
 * `Retry-After` and `Connection: close`.
 */
export function drainableServer(serve: (req: IncomingMessage, res: ServerResponse) => Promise<void>, refuse: (req: IncomingMessage, res: ServerResponse) => void): DrainableServer {
  // Requests being answered, by their response.
  const running = new Set<ServerResponse>();
  // Connections accepted that have not delivered a request yet, with when each was accepted.
  const awaitingFirstRequest = new Map<Socket, number>();
  let accepted = 0;
  let stopping: Promise<number> | null = null;
  // Wakes the drain when something it waits for may have changed.
  let wake: (() => void) | null = null;
  const changed = () => wake?.();

  const server = createServer((req, res) => {
    awaitingFirstRequest.delete(req.socket);
    running.add(res);
    const closed = new Promise<void>((resolve) => res.once("close", resolve));
    void Promise.all([closed, stopping === null ? serve(req, res).catch(() => undefined) : refuseAfterBody(req, res)]).then(() => {
      running.delete(res);
      changed();
    });
  });
  const refuseAfterBody = (req: IncomingMessage, res: ServerResponse): void => {
    res.setHeader("Retry-After", String(DRAIN_RETRY_AFTER_SECONDS));
    res.setHeader("Connection", "close");
    // The body is read to its end before the answer (see the header); the deadline bounds one that never ends.
    req.once("end", () => refuse(req, res));
    req.once("error", () => res.destroy());
    req.resume();
  };
  server.on("connection", (socket: Socket) => {
    accepted++;
    awaitingFirstRequest.set(socket, Date.now());
    socket.once("close", () => {
      awaitingFirstRequest.delete(socket);
      changed();
    });
  });

  /** What the drain still waits for: nothing, running requests (until one ends), or silent new connections (until the first grace ends). */
  const awaited = (): "nothing" | "requests" | { readonly graceEndsAt: number } => {
    if (running.size > 0) return "requests";
    const now = Date.now();
    const graceEnds = [...awaitingFirstRequest.values()].map((at) => at + FIRST_REQUEST_GRACE_MS).filter((end) => end > now);
    return graceEnds.length > 0 ? { graceEndsAt: Math.min(...graceEnds) } : "nothing";
  };

  async function drainWithin(drainMs: number): Promise<number> {
    for (const res of running) if (!res.headersSent) res.setHeader("Connection", "close");
    let deadlinePassed = false;
    let deadlineTimer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      deadlineTimer = setTimeout(() => {
        deadlinePassed = true;
        resolve();
      }, drainMs);
    });
    try {
      while (!deadlinePassed) {
        const waitingFor = awaited();
        if (waitingFor === "nothing") {
          // Two turns of the event loop include a poll, which accepts whatever the backlog holds.
          const before = accepted;
          await nextTurn();
          await nextTurn();
          if (accepted === before && awaited() === "nothing") break;
          continue;
        }
        let graceTimer: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise<void>((resolve) => {
            wake = resolve;
            if (waitingFor !== "requests") graceTimer = setTimeout(resolve, waitingFor.graceEndsAt - Date.now());
          }),
          deadline,
        ]);
        wake = null;
        clearTimeout(graceTimer);
      }
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Left now: idle keep-alive connections and ones silent past their grace; closing them resets no
      // request. (node counts a connection that has sent nothing as active, so it is closed here.)
      server.closeIdleConnections();
      for (const silent of awaitingFirstRequest.keys()) silent.destroy();
      // A connection answered `Connection: close` ends by itself; the deadline bounds the wait.
      await Promise.race([closed, deadline]);
      const cut = running.size;
      server.closeAllConnections();
      await closed;
      return cut;
    } finally {
      clearTimeout(deadlineTimer);
    }
  }

  return {
    server,
    inFlight: () => running.size,
    drain: (drainMs) => (stopping ??= drainWithin(drainMs)),
  };
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
