// The MCP conformance suite (@modelcontextprotocol/conformance) against the generated incidents MCP
// server over Streamable HTTP. Usage: npm run bench:conformance (part of npm run bench);
// `node bench/mcp-conformance.mjs --no-build` reuses test-results/sdk as it is.
//
// The suite is installed on demand outside the project's dependencies (test-results/bench-conformance),
// the generated packages are built as the tests build them, the reference incidents platform is
// started in this process and the generated bin (`main.js --http`) in a child, and every server
// scenario of the suite is run against it. Each scenario is classified: does it apply to a
// contract-generated server (one that serves tools only, stateless, JSON responses)? Scenarios that
// need the suite's own fixture tools, prompts, resources, completions, sampling, elicitation or
// sessions do not. Next to the suite, a few protocol checks of our own cover what the suite only
// tests with its fixture tools (error codes for unknown tools and bad arguments, pagination, parse
// errors), with a baseline of known failures, each naming the change it waits for.
//
// Writes bench/results/mcp-conformance.json and .md. Exits 1 when a scenario that applies does not
// pass, a protocol check fails outside the baseline or passes inside it (update the baseline), or the
// suite has a scenario this script does not classify.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startIncidentsServer } from "../dist/examples/incidents/server.js";
import { BUILT, buildExamples } from "./built-examples.mjs";

// 0.1.14 and later import `globSync` from node:fs (Node 22): 0.1.13 is the newest that runs on Node 20.
const SUITE = { name: "@modelcontextprotocol/conformance", version: "0.1.13" };
const TOKEN = "bench-conformance-token-7e2a";
const dirs = [];
const tempDir = (prefix) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};

// Why each server scenario of the suite does or does not apply to a contract-generated server.
const TOOLS_ONLY = "the server serves the contract's tools only";
const FIXTURE = (tool) => `calls the suite's fixture tool ${tool}; a generated server serves the contract's operations, not the suite's fixtures`;
const SCENARIOS = {
  "server-initialize": { applies: true, why: "every MCP server answers initialize" },
  "logging-set-level": { applies: true, why: "the server declares the logging capability" },
  ping: { applies: true, why: "every MCP server answers ping" },
  "tools-list": { applies: true, why: "the server's catalogue is tools/list" },
  "dns-rebinding-protection": { applies: true, why: "the server binds loopback and refuses a foreign Host (DNS rebinding)" },
  "completion-complete": { applies: false, why: `completion/complete completes prompt and resource-template arguments: no completions capability (${TOOLS_ONLY})` },
  "tools-call-simple-text": { applies: false, why: FIXTURE("test_simple_text") },
  "tools-call-image": { applies: false, why: `${FIXTURE("test_image_content")}; results are JSON text + structured content` },
  "tools-call-audio": { applies: false, why: `${FIXTURE("test_audio_content")}; results are JSON text + structured content` },
  "tools-call-embedded-resource": { applies: false, why: `${FIXTURE("test_embedded_resource")}; no resources` },
  "tools-call-mixed-content": { applies: false, why: FIXTURE("test_multiple_content_types") },
  "tools-call-with-logging": { applies: false, why: `${FIXTURE("test_tool_with_logging")} (logs during a call; ours logs failed calls only)` },
  "tools-call-error": { applies: false, why: `${FIXTURE("test_error_handling")}; the protocol checks below cover our error codes` },
  "tools-call-with-progress": { applies: false, why: `${FIXTURE("test_tool_with_progress")}; the tools send no progress notifications` },
  "tools-call-sampling": { applies: false, why: `${FIXTURE("test_sampling")}; the tools make no server-to-client requests (sampling)` },
  "tools-call-elicitation": { applies: false, why: `${FIXTURE("test_elicitation")}; the tools make no server-to-client requests (elicitation)` },
  "json-schema-2020-12": { applies: false, why: `${FIXTURE("json_schema_2020_12_tool")}; the contract's own schemas are 2020-12 and tested in test/mcp` },
  "elicitation-sep1034-defaults": { applies: false, why: "elicitation (server-to-client requests): none in a generated server" },
  "elicitation-sep1330-enums": { applies: false, why: "elicitation (server-to-client requests): none in a generated server" },
  "server-sse-polling": { applies: false, why: "SSE streams and sessions: the HTTP transport is stateless with JSON responses, by design (no session to steal or expire)" },
  "server-sse-multiple-streams": { applies: false, why: "SSE streams and sessions: the HTTP transport is stateless with JSON responses, by design" },
  "resources-list": { applies: false, why: `resources: none (${TOOLS_ONLY})` },
  "resources-read-text": { applies: false, why: `resources: none (${TOOLS_ONLY})` },
  "resources-read-binary": { applies: false, why: `resources: none (${TOOLS_ONLY})` },
  "resources-templates-read": { applies: false, why: `resource templates: none (${TOOLS_ONLY})` },
  "resources-subscribe": { applies: false, why: `resources: none (${TOOLS_ONLY})` },
  "resources-unsubscribe": { applies: false, why: `resources: none (${TOOLS_ONLY})` },
  "prompts-list": { applies: false, why: `prompts: none (${TOOLS_ONLY})` },
  "prompts-get-simple": { applies: false, why: `prompts: none (${TOOLS_ONLY})` },
  "prompts-get-with-args": { applies: false, why: `prompts: none (${TOOLS_ONLY})` },
  "prompts-get-embedded-resource": { applies: false, why: `prompts: none (${TOOLS_ONLY})` },
  "prompts-get-with-image": { applies: false, why: `prompts: none (${TOOLS_ONLY})` },
};

// Protocol checks that fail today, each with the change it waits for (none since issue 27).
const BASELINE = {};

// -- install the suite on demand, outside the project's dependencies ----------------------------------
const suiteDir = resolve("test-results/bench-conformance");
const suiteEntry = join(suiteDir, "node_modules", SUITE.name, "dist/index.js");
const installed = () => {
  try {
    return JSON.parse(readFileSync(join(suiteDir, "node_modules", SUITE.name, "package.json"), "utf8")).version;
  } catch {
    return null;
  }
};
if (installed() !== SUITE.version) {
  console.error(`installing ${SUITE.name}@${SUITE.version} into ${suiteDir} …`);
  mkdirSync(suiteDir, { recursive: true });
  if (!existsSync(join(suiteDir, "package.json"))) writeFileSync(join(suiteDir, "package.json"), '{ "private": true }\n');
  const r = spawnSync("npm", ["install", "--prefix", suiteDir, "--no-audit", "--no-fund", "--ignore-scripts", `${SUITE.name}@${SUITE.version}`], { encoding: "utf8", timeout: 300_000 });
  if (r.status !== 0 || installed() !== SUITE.version) {
    console.error(`could not install ${SUITE.name}@${SUITE.version}: ${(r.stderr || r.error?.message || "").trim().split("\n").slice(-3).join(" ")}`);
    process.exit(1);
  }
}
const conformance = (args, options = {}) => spawnSync(process.execPath, [suiteEntry, ...args], { encoding: "utf8", timeout: 600_000, ...options });

// -- build: the generated packages exactly as the tests build them --------------------------------------
buildExamples({ build: !process.argv.includes("--no-build") });

// -- the server under test: the generated bin over Streamable HTTP, against the reference platform ----
const platform = await startIncidentsServer({ token: TOKEN });
const child = spawn(process.execPath, [join(BUILT, "incidents/mcp/main.js"), "--http"], {
  env: { PATH: process.env.PATH ?? "", INCIDENTS_TOKEN: TOKEN, INCIDENTS_BASE_URL: platform.url, INCIDENTS_JOURNAL: join(tempDir("contractgen-conformance-"), "journal.sqlite") },
  stdio: ["ignore", "ignore", "pipe"],
});
let serverErr = "";
const url = await new Promise((res, rej) => {
  child.stderr.on("data", (d) => {
    serverErr += String(d);
    const m = /serving MCP over Streamable HTTP at (\S+)/.exec(serverErr);
    if (m) res(m[1]);
  });
  child.once("exit", (code) => rej(new Error(`the MCP server exited ${code}: ${serverErr.trim().split("\n").slice(-3).join(" ")}`)));
});
console.error(`MCP server at ${url}`);

async function stop() {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
  await platform.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

// -- the suite: every server scenario --------------------------------------------------------------------
const listed = conformance(["list", "--server"]);
const suiteScenarios = [];
let inServer = false;
for (const line of listed.stdout.split("\n")) {
  if (/^Server scenarios/.test(line)) inServer = true;
  else if (/^\S/.test(line)) inServer = false;
  else if (inServer) {
    const m = /^\s+-\s+(\S+)/.exec(line);
    if (m) suiteScenarios.push(m[1]);
  }
}
if (suiteScenarios.length === 0) {
  console.error(`the suite listed no server scenarios: ${listed.stderr || listed.stdout}`);
  await stop();
  process.exit(1);
}

const outDir = tempDir("contractgen-conformance-out-");
console.error(`running ${suiteScenarios.length} server scenarios of ${SUITE.name}@${SUITE.version} …`);
const run = conformance(["server", "--url", url, "--suite", "all", "--output-dir", outDir]);
const runs = readdirSync(outDir);
const scenarios = suiteScenarios.map((name) => {
  // Results land in server-<scenario>-<timestamp>/checks.json.
  const folder = runs.find((d) => d.startsWith(`server-${name}-`) && /^\d{4}-/.test(d.slice(`server-${name}-`.length)));
  let checks = null;
  try {
    checks = folder ? JSON.parse(readFileSync(join(outDir, folder, "checks.json"), "utf8")) : null;
  } catch {
    checks = null;
  }
  const count = (status) => (checks ?? []).filter((c) => c.status === status).length;
  const failed = count("FAILURE");
  const result = checks === null ? "no result" : failed > 0 ? "fail" : "pass";
  const known = SCENARIOS[name];
  const applies = known ? known.applies : null;
  return {
    name,
    result,
    checks: { success: count("SUCCESS"), failure: failed, warning: count("WARNING") },
    failures: (checks ?? []).filter((c) => c.status === "FAILURE").map((c) => `${c.id}: ${(c.errorMessage ?? c.description ?? "").slice(0, 300)}`),
    warnings: (checks ?? []).filter((c) => c.status === "WARNING").map((c) => `${c.id}: ${(c.errorMessage ?? c.details?.message ?? c.description ?? "").slice(0, 300)}`),
    applies,
    why: known ? known.why : "not classified by bench/mcp-conformance.mjs: classify it",
    expected: applies === null ? "?" : applies ? "pass" : "n/a",
  };
});

// -- protocol checks of our own: raw JSON-RPC over the same endpoint ------------------------------------
async function post(body) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, json };
}
const call = (id, params) => ({ jsonrpc: "2.0", id, method: "tools/call", params });
const errorCode = (code) => (r) => ({ ok: r.json?.error?.code === code, got: r.json?.error ? `error ${r.json.error.code}` : r.json?.result ? `a result${r.json.result.isError ? " (isError)" : ""}` : `HTTP ${r.status}` });
const PROTOCOL = [
  { name: "unknown tool", spec: "tools: unknown tool ⇒ -32602", send: call(1, { name: "no_such_tool", arguments: {} }), check: errorCode(-32602) },
  {
    name: "arguments that break the tool's input schema",
    spec: "tools: input validation is a tool execution error (isError, the model can correct it); nothing reaches the platform",
    send: call(2, { name: "get_incident", arguments: { incident_id: 17 } }),
    check: (r) => {
      const sc = r.json?.result?.structuredContent ?? (() => {
        try {
          return JSON.parse(r.json?.result?.content?.[0]?.text ?? "null");
        } catch {
          return null;
        }
      })();
      const ok = r.json?.result?.isError === true && sc?.error?.class === "invalid_input";
      return { ok, got: r.json?.result ? `a result (isError: ${r.json.result.isError === true}, class ${sc?.error?.class ?? "?"})` : `error ${r.json?.error?.code}` };
    },
  },
  { name: "tools/call with non-object arguments", spec: "JSON-RPC: invalid params ⇒ -32602", send: call(3, { name: "get_incident", arguments: "INC-017" }), check: errorCode(-32602) },
  { name: "tools/call without a tool name", spec: "JSON-RPC: invalid params ⇒ -32602", send: call(4, {}), check: errorCode(-32602) },
  { name: "logging/setLevel with an unknown level", spec: "JSON-RPC: invalid params ⇒ -32602", send: { jsonrpc: "2.0", id: 5, method: "logging/setLevel", params: { level: "loudest" } }, check: errorCode(-32602) },
  { name: "logging/setLevel debug", spec: "logging: setLevel answers an empty result", send: { jsonrpc: "2.0", id: 6, method: "logging/setLevel", params: { level: "debug" } }, check: (r) => ({ ok: r.json?.result !== undefined && Object.keys(r.json.result).length === 0, got: r.json?.result ? "a result" : `error ${r.json?.error?.code}` }) },
  {
    name: "tools/list without a cursor",
    spec: "pagination: the whole catalogue in one page, no nextCursor",
    send: { jsonrpc: "2.0", id: 7, method: "tools/list" },
    check: (r) => ({ ok: Array.isArray(r.json?.result?.tools) && r.json.result.tools.length === 4 && r.json.result.nextCursor === undefined, got: r.json?.result ? `${r.json.result.tools?.length} tools, nextCursor ${r.json.result.nextCursor ?? "none"}` : `error ${r.json?.error?.code}` }),
  },
  { name: "tools/list with an unknown cursor", spec: "pagination: an invalid cursor SHOULD be -32602", send: { jsonrpc: "2.0", id: 8, method: "tools/list", params: { cursor: "no-such-cursor" } }, check: errorCode(-32602) },
  { name: "unknown method", spec: "JSON-RPC: method not found ⇒ -32601", send: { jsonrpc: "2.0", id: 9, method: "no/such_method" }, check: errorCode(-32601) },
  { name: "malformed JSON", spec: "JSON-RPC: parse error ⇒ -32700", send: "{not json", check: errorCode(-32700) },
  { name: "JSON that is not a JSON-RPC message", spec: "JSON-RPC: invalid request ⇒ -32600", send: { hello: "world" }, check: errorCode(-32600) },
];
const protocol = [];
for (const p of PROTOCOL) {
  const r = await post(p.send);
  const { ok, got } = p.check(r);
  const known = BASELINE[p.name] ?? null;
  protocol.push({ name: p.name, spec: p.spec, result: ok ? "pass" : "fail", got, knownFailure: known });
}
await stop();

// -- verdict ----------------------------------------------------------------------------------------------
const problems = [];
for (const s of scenarios) {
  if (s.applies === null) problems.push(`${s.name}: not classified (add it to SCENARIOS)`);
  else if (s.applies && s.result !== "pass") problems.push(`${s.name}: applies and did not pass (${s.result}${s.failures.length ? `: ${s.failures.join("; ")}` : ""})`);
}
for (const name of Object.keys(SCENARIOS)) if (!suiteScenarios.includes(name)) console.error(`note: ${name} is classified but the suite no longer lists it`);
for (const p of protocol) {
  if (p.result === "fail" && !p.knownFailure) problems.push(`protocol check "${p.name}" failed (${p.spec}; got ${p.got})`);
  if (p.result === "pass" && p.knownFailure) problems.push(`protocol check "${p.name}" passes now: drop it from BASELINE`);
}

const report = {
  suite: { ...SUITE, node: process.version, exitCode: run.status, scenarios: suiteScenarios.length },
  server: "generated-examples/incidents (test-results/sdk/incidents/mcp/main.js --http: stateless, JSON responses, loopback, no bearer) against the reference incidents platform",
  summary: {
    applying: scenarios.filter((s) => s.applies).length,
    applyingPassed: scenarios.filter((s) => s.applies && s.result === "pass").length,
    notApplying: scenarios.filter((s) => s.applies === false).length,
    protocolChecks: protocol.length,
    protocolPassed: protocol.filter((p) => p.result === "pass").length,
    knownFailures: protocol.filter((p) => p.result === "fail" && p.knownFailure).length,
  },
  ok: problems.length === 0,
  problems,
  scenarios,
  protocol,
};
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/mcp-conformance.json", `${JSON.stringify(report, null, 2)}\n`);

const cell = (s) => String(s).replace(/\|/g, "\\|").replace(/\n/g, " ");
const md = [
  "# MCP conformance suite against a generated server",
  "",
  `\`node bench/mcp-conformance.mjs\` (npm run bench:conformance): every server scenario of ${SUITE.name}@${SUITE.version} (the newest that runs on Node 20: later versions import \`globSync\` from node:fs, Node 22) on Node ${process.version}, against ${report.server}.`,
  "",
  `Scenarios that apply: ${report.summary.applyingPassed} of ${report.summary.applying} pass; ${report.summary.notApplying} do not apply. Protocol checks of our own: ${report.summary.protocolPassed} of ${report.summary.protocolChecks} pass${report.summary.knownFailures ? ` (${report.summary.knownFailures} known failures, each waiting for the change named)` : ""}. Verdict: ${report.ok ? "ok" : `**failed**: ${problems.map(cell).join("; ")}`}.`,
  "",
  "A scenario passes when none of its checks fails (warnings are listed). \"Expected\" is pass for every scenario that applies; one that does not apply is run and reported, and its result says nothing about the generated server.",
  "",
  "| Scenario | Result | Checks (ok / failed / warning) | Applies to a generated server | Why | Expected |",
  "| --- | --- | --- | --- | --- | --- |",
  ...scenarios.map((s) => `| ${s.name} | ${s.result} | ${s.checks.success} / ${s.checks.failure} / ${s.checks.warning} | ${s.applies === null ? "?" : s.applies ? "yes" : "no"} | ${cell(s.why)} | ${s.expected} |`),
  "",
  "What the scenarios that do not apply failed on, or warned about (the suite's fixtures are absent, or the method is not served):",
  "",
  ...scenarios.filter((s) => !s.applies && (s.failures.length || s.warnings.length)).map((s) => `- ${s.name}: ${cell([...s.failures, ...s.warnings].join("; "))}`),
  "",
  "## Protocol checks of our own",
  "",
  "Raw JSON-RPC POSTs to the same endpoint, for what the suite tests only through its fixture tools.",
  "",
  "| Check | Expected | Got | Result | Known failure: waits for |",
  "| --- | --- | --- | --- | --- |",
  ...protocol.map((p) => `| ${p.name} | ${cell(p.spec)} | ${cell(p.got)} | ${p.result} | ${p.knownFailure ? cell(p.knownFailure) : ""} |`),
  "",
];
writeFileSync("bench/results/mcp-conformance.md", md.join("\n"));
console.log(md.slice(0, 8).join("\n"));
if (!report.ok) {
  console.error(`conformance: ${problems.join("\n  ")}`);
  process.exit(1);
}
