// A generated MCP server's bin as a child process, with a client on its stdio and every JSON-RPC line
// recorded both ways, so a benchmark counts exactly what crossed the wire (bench/mcp.mjs, code-mode.mjs).
import { spawn } from "node:child_process";
import { Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

/**
 * Start `main` with `flags` and `env`, connect `client` over the child's pipes (newline-delimited
 * JSON-RPC both ways) and list its tools. `close()` ends the session and resolves to its lines, in
 * order per direction: `{ dir, line, msg }`.
 */
export async function recordedStdio({ main, flags = [], env, client }) {
  const child = spawn(process.execPath, [main, ...flags], { env, stdio: ["pipe", "pipe", "inherit"] });
  const wire = { out: [], in: [] };
  child.stdout.on("data", (c) => wire.in.push(c));
  const tap = new Writable({
    write(chunk, _encoding, done) {
      wire.out.push(Buffer.from(chunk));
      child.stdin.write(chunk, done);
    },
  });
  // The server transport class gives a client the stdio framing over any pair of streams.
  await client.connect(new StdioServerTransport(child.stdout, tap));
  await client.listTools();
  return {
    client,
    async close() {
      await client.close();
      child.stdin.end();
      await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
      const split = (chunks, dir) =>
        Buffer.concat(chunks)
          .toString("utf8")
          .split("\n")
          .filter((l) => l.length > 0)
          .map((l) => ({ dir, line: `${l}\n`, msg: JSON.parse(l) }));
      return [...split(wire.out, "client→server"), ...split(wire.in, "server→client")];
    },
  };
}
