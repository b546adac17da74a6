// Loads one built generated package the way its users would, in its own process: imports every
// module, prints the CLI's help for the program and each command, runs each command with its input
// flags (cli-flags.mjs: the client must get exactly the fields given), and calls every SDK method with
// a stubbed fetch. Contract text must stay data: if any of it runs, it writes the canary marker
// (CANARY-EXECUTED, assembled at run time so help text that quotes it does not count) or a file.
// The MCP server is built in process (never on stdio) and listed and called through an in-memory client.
// A second server in discovery mode must find and describe every tool.
// Prints one JSON line, last: { modules, commands, methods, tools, described, catalogue, errors }
// (catalogue: the listed tools as key-sorted JSON, for comparison with the contract's).
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { exerciseFlags } from "./cli-flags.mjs";

const dir = process.argv[2];
const errors = [];
const report = { modules: 0, commands: 0, methods: 0, tools: 0, described: 0, catalogue: null, errors };
const note = (where, e) => errors.push(`${where}: ${e && e.message ? e.message : String(e)}`.slice(0, 500));

// No network, whatever the contract's base URL says.
globalThis.fetch = async () => {
  throw new Error("network disabled in hostile tests");
};

/** JSON with object keys sorted (the client's parse of tools/list may reorder them). */
function canonical(value) {
  return JSON.stringify(value, (_k, v) => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v));
}

/**
 * The results the server sent, as a stdio client would read them (JSON text parsed), kept before the
 * MCP Client's own parsing, which rebuilds objects and so drops an own `__proto__` key.
 */
function recordWire(transport) {
  const results = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (message && "result" in message) results.push(JSON.parse(JSON.stringify(message.result)));
    deliver?.(message, extra);
  };
  return () => results[results.length - 1];
}

function jsFiles(d) {
  const out = [];
  for (const name of readdirSync(d).sort()) {
    const p = join(d, name);
    if (statSync(p).isDirectory()) out.push(...jsFiles(p));
    else if (name.endsWith(".js")) out.push(p);
  }
  return out;
}

const files = jsFiles(dir);
// Entry points run on import (bins, and the contract suite which only vitest runs); everything else is a library module.
const entryPoint = (f) => f.endsWith("/main.js") || f.endsWith("/tests/contract.test.js") || f.endsWith("/tests/vitest.config.js");
for (const f of files.filter((f) => !entryPoint(f))) {
  try {
    await import(pathToFileURL(f).href);
    report.modules++;
  } catch (e) {
    note(f.slice(dir.length + 1), e);
  }
}

const cliMain = join(dir, "cli/main.js");
if (files.includes(cliMain)) {
  const argv = process.argv;
  process.argv = [argv[0], cliMain, "--help"];
  try {
    await import(pathToFileURL(cliMain).href);
    report.modules++;
    if (process.exitCode !== 0 && process.exitCode !== undefined) note("cli --help", `exit ${process.exitCode}`);
  } catch (e) {
    note("cli/main.js --help", e);
  }
  process.argv = argv;
  process.exitCode = 0;
  try {
    const { COMMANDS } = await import(pathToFileURL(join(dir, "cli/commands.js")).href);
    const { runCli } = await import(pathToFileURL(join(dir, "cli/runtime/program.js")).href);
    const io = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t), stdin: () => "{}" };
    const def = { name: "hostile", version: "0.0.0", description: "", tokenEnv: null, commands: COMMANDS, createClient: () => ({ close() {} }) };
    for (const c of COMMANDS) {
      const code = await runCli(def, [c.name, "--help"], io);
      report.commands++;
      if (code !== 0) note(`cli ${c.name} --help`, `exit ${code}`);
    }
    // Every input flag reaches the client as given, and an omitted one not at all.
    for (const problem of await exerciseFlags(runCli, COMMANDS)) note("cli flags", problem);
  } catch (e) {
    note("cli commands --help", e);
  }
}

const sdkIndex = join(dir, "sdk/index.js");
if (files.includes(sdkIndex)) {
  try {
    await import(pathToFileURL(sdkIndex).href);
    // The generated client class is what sdk/client.js exports (it wraps the runtime's ContractClient
    // rather than extending it, so it is found by module, not by prototype).
    const generated = await import(pathToFileURL(join(dir, "sdk/client.js")).href);
    for (const value of Object.values(generated)) {
      if (typeof value !== "function" || !/^class\b/.test(Function.prototype.toString.call(value))) continue;
      const stub = async () => new Response(JSON.stringify({}), { status: 500, headers: { "content-type": "application/json" } });
      const client = new value({ journal: false, baseUrl: "http://127.0.0.1:9", fetch: stub, retry: { maxAttempts: 1 }, token: "hostile-token" });
      for (const m of Object.getOwnPropertyNames(Object.getPrototypeOf(client))) {
        if (m === "constructor" || typeof client[m] !== "function" || m === "close") continue;
        report.methods++;
        try {
          // Traversals (…All) take their bounds as a second argument.
          const r = m.endsWith("All") ? client[m]({}, { maxPages: 1, maxItems: 10 }) : client[m]({});
          // An async iterator (…All traversals) runs only when pulled.
          if (r && typeof r[Symbol.asyncIterator] === "function") await r[Symbol.asyncIterator]().next();
          else await r;
        } catch (e) {
          // Failing as the contract says is expected (invalid input, or the stub's 500); anything
          // else (a validator that does not compile from schemas.json, a TypeError) is a defect.
          if (!(e && typeof e === "object" && typeof e.errorClass === "string")) note(`sdk ${m}`, e);
        }
      }
      client.close?.();
    }
  } catch (e) {
    note("sdk client", e);
  }
}

const mcpServer = join(dir, "mcp/server.js");
if (files.includes(mcpServer)) {
  try {
    const { createServer } = await import(pathToFileURL(mcpServer).href);
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
    const stub = async () => new Response(JSON.stringify({}), { status: 500, headers: { "content-type": "application/json" } });
    const server = createServer({ journal: false, baseUrl: "http://127.0.0.1:9", fetch: stub, retry: { maxAttempts: 1 }, token: "hostile-token" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    // No output-schema checks here (the default client validator is draft-07): this is about loading and running.
    const client = new Client({ name: "hostile", version: "0.0.0" }, { jsonSchemaValidator: { getValidator: () => () => ({ valid: true, data: null, errorMessage: undefined }) } });
    await client.connect(clientSide);
    const lastResult = recordWire(clientSide);
    await client.listTools();
    const { tools } = lastResult();
    report.catalogue = canonical(tools);
    for (const tool of tools) {
      report.tools++;
      try {
        await client.callTool({ name: tool.name, arguments: {} });
      } catch (e) {
        note(`mcp tools/call ${tool.name}`, e);
      }
    }
    await client.close();
    await server.close();
    // Discovery mode over the same tools: every hostile name is found by an empty search (paged),
    // comes back as it was listed, and can be described; the output is JSON that parses.
    const discovery = createServer({ journal: false, baseUrl: "http://127.0.0.1:9", fetch: stub, retry: { maxAttempts: 1 }, token: "hostile-token" }, { discovery: true });
    const [dClient, dServer] = InMemoryTransport.createLinkedPair();
    await discovery.connect(dServer);
    const meta = new Client({ name: "hostile", version: "0.0.0" }, { jsonSchemaValidator: { getValidator: () => () => ({ valid: true, data: null, errorMessage: undefined }) } });
    await meta.connect(dClient);
    const lastMeta = recordWire(dClient);
    const found = [];
    for (let offset = 0, pages = 0; offset !== null && pages < 1000; pages++) {
      const r = await meta.callTool({ name: "search_tools", arguments: { limit: 50, offset } });
      const page = JSON.parse(r.content[0].text);
      // Said once, as text: no structured copy.
      if (r.isError || r.structuredContent !== undefined || !Array.isArray(page.tools)) throw new Error(`search_tools page at ${offset} is not a text-only page of tools`);
      found.push(...page.tools.map((t) => t.name));
      offset = page.next_offset;
    }
    if (JSON.stringify(found) !== JSON.stringify(tools.map((t) => t.name))) note("mcp discovery", "search_tools does not list exactly the served tools");
    for (const tool of tools) {
      await meta.callTool({ name: "describe_tool", arguments: { name: tool.name } });
      const r = lastMeta();
      const { outputSchema: _output, ...entry } = tool;
      if (r.isError || canonical(JSON.parse(r.content[0].text).tool) !== canonical(entry)) note("mcp discovery", `describe_tool ${JSON.stringify(tool.name)} differs from tools/list`);
      report.described++;
    }
    await meta.close();
    await discovery.close();
  } catch (e) {
    note("mcp server", e);
  }
}

// The HTTP server skeleton: started in process on loopback; every route answers with JSON (stubs say
// NOT_IMPLEMENTED, or the host refuses the input first), never a crash or a non-JSON body.
const httpServer = join(dir, "server/server.js");
if (files.includes(httpServer)) {
  try {
    const { request } = await import("node:http");
    const { startServer } = await import(pathToFileURL(httpServer).href);
    const { CONTRACT } = await import(pathToFileURL(join(dir, "mcp/contract.js")).href);
    const running = await startServer({ port: 0, database: ":memory:", token: "hostile-token", log: () => undefined });
    const ask = (method, path) =>
      new Promise((resolve, reject) => {
        const req = request(`${running.url}${path}`, { method, headers: { authorization: "Bearer hostile-token", "content-type": "application/json" } }, (res) => {
          let body = "";
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve({ status: res.statusCode, body }));
        });
        req.on("error", reject);
        req.end(method === "GET" || method === "DELETE" ? undefined : "{}");
      });
    report.routes = 0;
    for (const op of CONTRACT.operations) {
      const path = op.http.path.replace(/\{[^}]+\}/g, "x");
      const { status, body } = await ask(op.http.method, path);
      if (body !== "" && !(JSON.parse(body) && typeof JSON.parse(body) === "object")) note(`server ${op.names.id}`, "the answer is not a JSON object");
      if (status >= 500 && status !== 501 && status !== 503) note(`server ${op.names.id}`, `answered ${status}: ${body.slice(0, 200)}`);
      report.routes++;
    }
    await running.close();
  } catch (e) {
    note("http server", e);
  }
}

process.stdout.write(`\n${JSON.stringify(report)}\n`);
process.exitCode = 0;
