/**
 * A loopback proxy that forwards every request to the platform and, for the requests chosen,
 * waits until the platform has answered (so the effect is committed) and then drops the
 * connection instead of passing the answer back: a lost response after commit.
 */
import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface LossyProxy {
  readonly url: string;
  /** Requests forwarded so far, and how many answers were dropped. */
  readonly stats: { forwarded: number; dropped: number };
  close(): Promise<void>;
}

export async function startLossyProxy(target: string, drop: (req: IncomingMessage) => boolean): Promise<LossyProxy> {
  const upstream = new URL(target);
  const stats = { forwarded: 0, dropped: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      stats.forwarded++;
      const forward = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
        (answer) => {
          const body: Buffer[] = [];
          answer.on("data", (c: Buffer) => body.push(c));
          answer.on("end", () => {
            if (drop(req)) {
              stats.dropped++;
              req.socket.destroy(); // committed upstream, never answered downstream
              return;
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(body));
          });
        },
      );
      forward.on("error", () => req.socket.destroy());
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
