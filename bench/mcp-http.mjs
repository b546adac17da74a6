// The generated MCP server over Streamable HTTP under concurrent load, against the same calls made
// straight through the generated SDK. Usage: npm run bench:mcp-http (part of npm run bench).
// The reference incidents platform runs in a process of its own, the MCP server (the generated bin,
// --http) in another; the driver runs CLIENTS clients, each with PER_CLIENT calls of get_incident in
// flight at once, and records each call's latency. Rounds alternate MCP and SDK, so load on this
// shared machine hits both alike; the figures are the p50 and p99 over all rounds, and their ratios.
// A bare relay (the same extra process and hop, no MCP: bench/relay-server.mjs) runs in the same
// rounds, so the report separates what any server in between costs from what MCP adds.
// `--profile` also writes a CPU profile of the MCP server (test-results/mcp-http.cpuprofile).
// Writes bench/results/mcp-http.json and mcp-http.md.
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { BUILT, buildExamples } from "./built-examples.mjs";

const TOKEN = "bench-token-http-7e21";
const CLIENTS = 20;
const PER_CLIENT = 10;
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const PROFILE = process.argv.includes("--profile");
const READ = { incident_id: "INC-017" };
const work = mkdtempSync(join(tmpdir(), "contractgen-bench-http-"));

buildExamples({ build: !process.argv.includes("--no-build") });

/** A child process that prints `pattern` on a line once it serves; resolves with the match. */
function startChild(args, pattern, env = {}) {
  const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let seen = "";
  const url = new Promise((res, rej) => {
    const look = (c) => {
      seen += c;
      const m = pattern.exec(seen);
      if (m) res(m[1]);
    };
    child.stdout.on("data", look);
    child.stderr.on("data", look);
    child.once("exit", () => rej(new Error(`${args[args.length - 1]} exited: ${seen}`)));
  });
  const stop = () => {
    child.kill("SIGTERM");
    return new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once("exit", r)));
  };
  return { child, url, stop };
}

const platform = startChild(["dist/examples/incidents/main.js", "--port", "0", "--token", TOKEN], /listening on (http:\/\/\S+)/);
const platformUrl = await platform.url;
const server = startChild([...(PROFILE ? ["--cpu-prof", "--cpu-prof-dir", work] : []), join(BUILT, "incidents/mcp/main.js"), "--http", "--port", "0"], /serving MCP over Streamable HTTP at (\S+)/, {
  INCIDENTS_TOKEN: TOKEN,
  INCIDENTS_BASE_URL: platformUrl,
  INCIDENTS_JOURNAL: join(work, "journal.sqlite"),
});
const mcpUrl = await server.url;
// The floor: the same hop with no MCP in it (bench/relay-server.mjs).
const relay = startChild(["bench/relay-server.mjs", join(BUILT, "incidents/sdk/index.js")], /relay at (\S+)/, { INCIDENTS_TOKEN: TOKEN, INCIDENTS_BASE_URL: platformUrl });
const relayUrl = await relay.url;

const sdkModule = await import(join(BUILT, "incidents/sdk/index.js"));
const mcpClients = await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    // The default client (what a host uses): it validates each result against the tool's output schema.
    const client = new Client({ name: "bench-http", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
    await client.listTools();
    return client;
  }),
);
const sdkClients = Array.from({ length: CLIENTS }, (_, i) => new sdkModule.IncidentsClient({ baseUrl: platformUrl, token: TOKEN, journal: join(work, `sdk-${i}.sqlite`) }));

/** One round: every client starts PER_CLIENT calls at once; the latency of each call, in ms. */
async function round(call) {
  const started = performance.now();
  const latencies = await Promise.all(
    Array.from({ length: CLIENTS * PER_CLIENT }, async (_, i) => {
      const t = performance.now();
      const r = await call(i % CLIENTS);
      if (r?.isError) throw new Error(`call failed: ${r.content?.[0]?.text}`);
      return performance.now() - t;
    }),
  );
  return { latencies, wallMs: performance.now() - started };
}
const viaMcp = (c) => mcpClients[c].callTool({ name: "get_incident", arguments: READ });
const viaSdk = (c) => sdkClients[c].getIncident(READ);
const viaRelay = async () => {
  const response = await fetch(relayUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(READ) });
  if (!response.ok) throw new Error(`relay: ${response.status} ${await response.text()}`);
  return response.json();
};
const PATHS = [["mcp", viaMcp], ["relay", viaRelay], ["sdk", viaSdk]];

// Warm-up: one round each, not counted.
for (const [, call] of PATHS) await round(call);
const samples = { mcp: [], sdk: [], relay: [], mcpWall: [], sdkWall: [], relayWall: [] };
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, call] of r % 2 === 0 ? PATHS : [...PATHS].reverse()) {
    const { latencies, wallMs } = await round(call);
    samples[name].push(...latencies);
    samples[`${name}Wall`].push(wallMs);
  }
}
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const median = (xs) => pct(xs, 50);
const figures = {
  mcp: { p50: pct(samples.mcp, 50), p99: pct(samples.mcp, 99), roundMs: median(samples.mcpWall) },
  sdk: { p50: pct(samples.sdk, 50), p99: pct(samples.sdk, 99), roundMs: median(samples.sdkWall) },
  relay: { p50: pct(samples.relay, 50), p99: pct(samples.relay, 99), roundMs: median(samples.relayWall) },
};
figures.ratio = { p50: figures.mcp.p50 / figures.sdk.p50, p99: figures.mcp.p99 / figures.sdk.p99 };
figures.relayRatio = { p50: figures.relay.p50 / figures.sdk.p50, p99: figures.relay.p99 / figures.sdk.p99 };
figures.mcpOverRelay = { p50: figures.mcp.p50 / figures.relay.p50, p99: figures.mcp.p99 / figures.relay.p99 };

for (const c of mcpClients) await c.close();
for (const c of sdkClients) c.close();
await server.stop();
await relay.stop();
await platform.stop();
let profile = null;
if (PROFILE) {
  const file = readdirSync(work).find((f) => f.endsWith(".cpuprofile"));
  if (file) {
    mkdirSync("test-results", { recursive: true });
    copyFileSync(join(work, file), "test-results/mcp-http.cpuprofile");
    profile = "test-results/mcp-http.cpuprofile";
  }
}
rmSync(work, { recursive: true, force: true });

const f0 = (x) => x.toFixed(0);
const f2 = (x) => x.toFixed(2);
const report = { date: new Date().toISOString(), node: process.version, clients: CLIENTS, perClient: PER_CLIENT, rounds: ROUNDS, figures, loadAverage: loadavg(), profile };
writeFileSync("bench/results/mcp-http.json", `${JSON.stringify(report, null, 2)}\n`);
const md = [
  "# MCP over Streamable HTTP under concurrent load",
  "",
  `Node ${process.version}. ${CLIENTS} clients × ${PER_CLIENT} calls of get_incident in flight at once (${CLIENTS * PER_CLIENT} per round), ${ROUNDS} rounds after one warm-up, MCP and SDK rounds alternating. The platform and the MCP server (the generated bin, \`--http\`, SQLite journal) each run in a process of their own; the MCP clients are the SDK's default \`Client\` (results validated against the output schema). Latency of each call from its start to its result.`,
  "",
  "| path | p50 (ms) | p99 (ms) | round wall time, median (ms) |",
  "|---|---:|---:|---:|",
  `| MCP tools/call over Streamable HTTP | ${f0(figures.mcp.p50)} | ${f0(figures.mcp.p99)} | ${f0(figures.mcp.roundMs)} |`,
  `| direct SDK call | ${f0(figures.sdk.p50)} | ${f0(figures.sdk.p99)} | ${f0(figures.sdk.roundMs)} |`,
  `| bare relay: the same hop without MCP (bench/relay-server.mjs) | ${f0(figures.relay.p50)} | ${f0(figures.relay.p99)} | ${f0(figures.relay.roundMs)} |`,
  `| MCP / SDK (goal ≤ 1.5) | ${f2(figures.ratio.p50)} | ${f2(figures.ratio.p99)} | ${f2(figures.mcp.roundMs / figures.sdk.roundMs)} |`,
  `| bare relay / SDK: the floor of any server in between | ${f2(figures.relayRatio.p50)} | ${f2(figures.relayRatio.p99)} | ${f2(figures.relay.roundMs / figures.sdk.roundMs)} |`,
  `| MCP / bare relay: what MCP itself adds | ${f2(figures.mcpOverRelay.p50)} | ${f2(figures.mcpOverRelay.p99)} | ${f2(figures.mcp.roundMs / figures.relay.roundMs)} |`,
  "",
  `Load average while measuring: ${loadavg().map((x) => x.toFixed(1)).join(", ")} (shared 2-core machine); the ratios move with it.`,
  "",
];
writeFileSync("bench/results/mcp-http.md", md.join("\n"));
console.log(md.join("\n"));
