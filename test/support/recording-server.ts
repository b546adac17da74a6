/** An in-process JSON platform for tests: it records each request and answers with `reply`. */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";

export interface SeenRequest {
  readonly path: string;
  readonly query: URLSearchParams;
  readonly authorization: string | undefined;
}

/** `reply` gets the request URL and the server's own base URL (for links back to it). */
export function recordingServer(reply: (url: URL, base: string) => { body: unknown; headers?: Record<string, string> }) {
  const seen: SeenRequest[] = [];
  let base = "";
  const srv: Server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? "/", base);
    seen.push({ path: url.pathname, query: url.searchParams, authorization: req.headers.authorization });
    const { body, headers } = reply(url, base);
    res.writeHead(200, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  });
  return {
    seen,
    get base() {
      return base;
    },
    start: () =>
      new Promise<void>((resolve) =>
        srv.listen(0, "127.0.0.1", () => {
          base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
          resolve();
        }),
      ),
    stop: () => new Promise<void>((resolve) => srv.close(() => resolve())),
  };
}

/**
 * The platform under test and a foreign host that must never see a request, both started for the
 * test file and cleared of recorded requests before each test (`reset` clears the file's own state).
 */
export function platformAndForeignHost(reply: Parameters<typeof recordingServer>[0], reset: () => void = () => {}) {
  const platform = recordingServer(reply);
  const foreign = recordingServer(() => ({ body: [{ id: "evil" }] }));
  beforeAll(async () => {
    await platform.start();
    await foreign.start();
  });
  afterAll(async () => {
    await platform.stop();
    await foreign.stop();
  });
  beforeEach(() => {
    platform.seen.length = 0;
    foreign.seen.length = 0;
    reset();
  });
  return { platform, foreign };
}
