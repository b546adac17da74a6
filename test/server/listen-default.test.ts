/**
 * Where the generated HTTP server skeleton listens: as generated, on the contract base URL's host and
 * port when that is a loopback http URL (where the package's CLI, SDK and contract tests call), else
 * on the documented 127.0.0.1:8080; and the generated README says the same. When it serves elsewhere
 * (--port), it says how to point the clients at it.
 */
import { describe, expect, it } from "vitest";
import { parseContract } from "../../src/contract/parse.js";
import { emitPackageFiles } from "../../src/emit/package/package.js";
import { emitHttpServerMain, serverListenDefault } from "../../src/emit/server/server.js";
import { runHttpMain } from "../../src/host-runtime/http-main.js";
import type { HttpServerOptions, RunningHttpServer } from "../../src/host-runtime/http.js";
import type { ContractModel } from "../../src/model/types.js";

const incidents = parseContract("specs/incidents.yaml").model!;
const withBaseUrl = (model: ContractModel, baseUrl: string): ContractModel => ({ ...model, transport: { ...model.transport, baseUrl } });

describe("serverListenDefault", () => {
  it("takes a loopback base URL's host and port (the clients' default), keeping its path", () => {
    expect(serverListenDefault(incidents)).toEqual({ host: "127.0.0.1", port: 4020, url: "http://127.0.0.1:4020", fromBaseUrl: true });
    expect(serverListenDefault(withBaseUrl(incidents, "http://localhost:3000/v2/"))).toEqual({ host: "localhost", port: 3000, url: "http://localhost:3000/v2", fromBaseUrl: true });
    expect(serverListenDefault(withBaseUrl(incidents, "http://[::1]:4100"))).toMatchObject({ host: "::1", port: 4100, fromBaseUrl: true });
  });

  it("falls back to 127.0.0.1:8080 for a base URL that is not this machine, not http, or has no port", () => {
    for (const baseUrl of ["https://api.example.com/v1", "https://127.0.0.1:4020", "http://localhost/", "http://10.0.0.5:4020"]) {
      expect(serverListenDefault(withBaseUrl(incidents, baseUrl)), baseUrl).toMatchObject({ host: "127.0.0.1", port: 8080, fromBaseUrl: false });
    }
  });

  it("is what the generated bin passes to runHttpMain", () => {
    const main = emitHttpServerMain(incidents);
    expect(main).toMatch(/"listen": \{\s*"host": "127\.0\.0\.1",\s*"port": 4020\s*\}/);
    expect(main).toMatch(/"clients": \{\s*"baseUrl": "http:\/\/127\.0\.0\.1:4020",\s*"baseUrlEnv": "INCIDENTS_BASE_URL"\s*\}/);
  });
});

describe("the generated README's HTTP server section", () => {
  it("starts the server without --port, on the base URL the clients and tests call", () => {
    const readme = emitPackageFiles(incidents, "skeleton", "skeleton")["README.md"]!;
    expect(readme).toContain("`npm run build && incidents-server` serves the contract's own HTTP API at `http://127.0.0.1:4020`\n(the contract's base URL, which the package's CLI, SDK and contract tests call by default)");
    expect(readme).toContain("The fixture's base URL is the contract's, `http://127.0.0.1:4020`, where `incidents-server` listens.");
    expect(readme).not.toMatch(/8080/);
  });

  it("names the fallback and how to point the clients at it when the base URL is not this machine", () => {
    const readme = emitPackageFiles(withBaseUrl(incidents, "https://api.example.com"), "skeleton", "skeleton")["README.md"]!.replace(/\s+/g, " ");
    expect(readme).toContain("serves the contract's own HTTP API at `http://127.0.0.1:8080` (the contract's base URL is not a loopback `http://` URL with a port, so it listens on 127.0.0.1:8080: point the CLI here with `--base-url` or `INCIDENTS_BASE_URL`, the tests with `CONTRACT_BASE_URL`)");
  });
});

describe("runHttpMain", () => {
  const info = { name: "incidents-server", version: "1.0.0", databaseEnv: "INCIDENTS_SERVER_DATABASE", tokenEnv: null, listen: { host: "127.0.0.1", port: 4020 }, clients: { baseUrl: "http://127.0.0.1:4020", baseUrlEnv: "INCIDENTS_BASE_URL" } };

  async function main(argv: string[], served: (o: HttpServerOptions) => string): Promise<{ options: HttpServerOptions; stderr: string }> {
    let options: HttpServerOptions | undefined;
    let stderr = "";
    const exitCode = process.exitCode;
    const before = { SIGTERM: process.listeners("SIGTERM"), SIGINT: process.listeners("SIGINT") };
    await runHttpMain(
      info,
      async (o) => {
        options = o;
        return { url: served(o), port: o.port ?? 0, close: async () => undefined } as unknown as RunningHttpServer;
      },
      argv,
      { stderr: (t) => void (stderr += t), env: {} },
    );
    // runHttpMain leaves the process serving until a signal: this fake server never needs its handlers.
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      for (const listener of process.listeners(signal)) if (!before[signal].includes(listener)) process.off(signal, listener);
    }
    process.exitCode = exitCode;
    return { options: options!, stderr };
  }

  it("listens where the info says without --host and --port, and says nothing more when that is the clients' URL", async () => {
    const { options, stderr } = await main([], (o) => `http://${o.host}:${o.port}`);
    expect(options).toMatchObject({ host: "127.0.0.1", port: 4020 });
    expect(stderr).toBe("incidents-server: serving at http://127.0.0.1:4020; records in memory (nothing survives a restart)\n");
  });

  it("serving elsewhere (--port), says how to point the clients at it", async () => {
    const { options, stderr } = await main(["--port", "0"], () => "http://127.0.0.1:43123");
    expect(options).toMatchObject({ host: "127.0.0.1", port: 0 });
    expect(stderr).toContain(
      "incidents-server: clients generated from the contract call http://127.0.0.1:4020; point them here with --base-url http://127.0.0.1:43123 or INCIDENTS_BASE_URL=http://127.0.0.1:43123\n",
    );
  });
});
