/**
 * The wire judge: an independent check that adapters generated from a real OpenAPI document speak
 * that API's wire format. The document is served by Prism (`mock --errors --dynamic`), an OpenAPI mock that
 * validates every request against the document and answers with the document's own responses. Each
 * operation (sampled evenly) is called through the generated SDK with an input its contract accepts;
 * then each error status the operation declares is provoked (`Prefer: code=N`) and must arrive as the
 * contract code bound to it. A recording proxy between the adapters and Prism keeps every request, so
 * a sample of operations is also called through the generated CLI and MCP server and their requests
 * are compared with the SDK's.
 *
 * Used by bench/wire.mjs (every document, a table per document) and test/wire/judge.test.ts (CI).
 */
import { spawn, execFileSync } from "node:child_process";
import { createServer, request as httpRequest } from "node:http";
import { createServer as createNetServer } from "node:net";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync, copyFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { corpusPackage } from "../../scripts/corpora.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CONTRACTGEN = join(ROOT, "bin", "contractgen.js");
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
/** Prism's CLI, from the on-demand set bench/corpora/prism (installed on first use). */
const prismCli = () => join(corpusPackage("prism", "@stoplight/prism-cli"), "dist", "index.js");
/** Data files a generated package's build script copies beside tsc's output. */
const PACKAGE_DATA = ["sdk/contract.json", "sdk/operations.json", "sdk/schemas.json"];
/** Dummy credential: long enough for the SDK's minimum, never a real secret. */
const CREDENTIAL = "judge-credential-0123456789";

/** A port nobody listens on now (the OS picks; closed before Prism takes it). */
function freePort() {
  return new Promise((done, failed) => {
    const server = createNetServer();
    server.on("error", failed);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

function run(args, options = {}) {
  return execFileSync(process.execPath, args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 256 * 1024 * 1024, ...options });
}

/** Import, generate and build one document's package; returns its folder and the contract file. */
export function buildPackage(document, name, workDir) {
  mkdirSync(workDir, { recursive: true });
  const contract = join(workDir, `${name}.contract.yaml`);
  const pkg = join(workDir, "pkg");
  rmSync(pkg, { recursive: true, force: true });
  rmSync(contract, { force: true });
  run([CONTRACTGEN, "import-openapi", document, "-o", contract, "--name", name, "--no-progress"]);
  run([CONTRACTGEN, "generate", contract, "-o", pkg, "--no-progress"]);
  symlinkSync(join(ROOT, "node_modules"), join(pkg, "node_modules"), "dir");
  run([TSC, "-p", join(pkg, "tsconfig.json")]);
  for (const file of PACKAGE_DATA) if (existsSync(join(pkg, file))) copyFileSync(join(pkg, file), join(pkg, "dist", file));
  return { pkg, contract };
}

/** Start Prism on `document`; resolves once it listens. */
export async function startPrism(document) {
  const port = await freePort();
  const child = spawn(process.execPath, [prismCli(), "mock", "--errors", "--dynamic", "--seed", "contractgen", "--json-schema-faker-fillProperties", "false", "-h", "127.0.0.1", "-p", String(port), document], { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  const failed = (e) => {
    child.kill("SIGKILL");
    throw e;
  };
  await new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`Prism did not start within 180 s:\n${log.slice(-2000)}`)), 180_000);
    let listening = false;
    const onData = (chunk) => {
      // Prism logs every request: keep only what it said while starting.
      if (listening) return;
      log += chunk.toString();
      if (/Prism is listening/.test(log)) {
        listening = true;
        clearTimeout(timer);
        done();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`Prism exited (${code}):\n${log.slice(-2000)}`));
    });
  }).catch(failed);
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill("SIGKILL") };
}

/**
 * A proxy in front of Prism that records each request (method, path and query, the headers a wire
 * format decides, body) and Prism's verdict on it (status, `sl-violations`), in order.
 */
export async function startRecorder(upstream) {
  const target = new URL(upstream);
  const exchanges = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const headers = { ...req.headers, host: target.host };
      const forward = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
        const parts = [];
        answer.on("data", (c) => parts.push(c));
        answer.on("end", () => {
          const answerBody = Buffer.concat(parts);
          const violations = [...parseViolations(answer.headers["sl-violations"], "request"), ...prismRefusal(answer.statusCode, answerBody)];
          const responseViolations = parseViolations(answer.headers["sl-violations"], "response");
          exchanges.push({
            // What Prism answered, to say why a call failed (its own errors are problem details).
            answer: answerBody.subarray(0, 2000).toString("utf8"),
            method: req.method,
            url: req.url,
            headers: wireHeaders(req.headers),
            body: body.toString("utf8"),
            status: answer.statusCode,
            violations,
            responseViolations,
          });
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(answerBody);
        });
      });
      forward.on("error", (e) => {
        res.writeHead(502);
        res.end(String(e));
      });
      forward.end(body);
    });
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  return { url: `http://127.0.0.1:${server.address().port}`, exchanges, stop: () => new Promise((done) => server.close(done)) };
}

/**
 * The validation errors of a request Prism refused with its own problem details (a 422 it makes up
 * when the document declares no error response for an invalid request), as request violations.
 */
function prismRefusal(status, body) {
  if (status !== 422) return [];
  try {
    const problem = JSON.parse(body.toString("utf8"));
    if (typeof problem?.type !== "string" || !problem.type.startsWith("https://stoplight.io/prism/errors#")) return [];
    const list = Array.isArray(problem.validation) ? problem.validation : [];
    return list.filter((v) => v && v.severity === "Error").map((v) => `request.${(v.location ?? []).join(".")}: ${v.message}`);
  } catch {
    return [];
  }
}

/**
 * Whether every violation is Prism reading a form or multipart body's repeated field as one value:
 * OpenAPI's default for an array there is one pair per item (style form, explode true), which Prism
 * does not map back to an array (stoplightio/prism#2473). Counted apart, as the mock's limitation.
 */
function repeatedFieldMisread(violations, request) {
  const type = request?.headers["content-type"] ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)/.test(type)) return false;
  return violations.length > 0 && violations.every((v) => /^request\.body\.[^:]+: Request body property \S+ must be array$/.test(v));
}

/**
 * Prism's own failure to build an answer (a 5xx with its own problem type: no serializer for a media
 * type, no schema to generate from), as its title; null for any other answer.
 */
function prismOwnFailure(exchange) {
  if (!exchange || exchange.status < 500) return null;
  try {
    const problem = JSON.parse(exchange.answer);
    return typeof problem?.type === "string" && problem.type.startsWith("https://stoplight.io/prism/errors#") ? String(problem.title ?? problem.type) : null;
  } catch {
    return null;
  }
}

/** Prism's errors about the request, or (`response`) about the answer it built from the document. */
function parseViolations(raw, side) {
  if (typeof raw !== "string") return [];
  try {
    const list = JSON.parse(raw);
    return Array.isArray(list) ? list.filter((v) => v && v.severity === "Error" && (v.location ?? [])[0] === side).map((v) => `${(v.location ?? []).join(".")}: ${v.message}`) : [];
  } catch {
    return [`unreadable sl-violations header: ${raw.slice(0, 200)}`];
  }
}

/** Headers whose encoding the contract decides (not the per-attempt ones: request id, key, agent). */
function wireHeaders(headers) {
  const skip = new Set(["host", "connection", "content-length", "user-agent", "accept-encoding", "accept-language", "sec-fetch-mode", "x-request-id", "idempotency-key", "prefer"]);
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !skip.has(k)).sort(([a], [b]) => a.localeCompare(b)));
}

/** `n` items of `list`, spread evenly. */
export function sampleEvenly(list, n) {
  if (list.length <= n) return [...list];
  return Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]);
}

/** A deterministic pseudo-random source (mulberry32). */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Inputs the contract accepts for one operation: candidates from json-schema-faker (examples and
 * defaults first), kept only when the generated SDK's own input validator accepts them.
 */
export async function inputFor(schemas, validatorName, validate, seed, pathFields) {
  // From the same on-demand set as Prism; its ES module build, as `import("json-schema-faker")` would load.
  const { JSONSchemaFaker } = await import(pathToFileURL(join(corpusPackage("prism", "json-schema-faker"), "dist", "main.mjs")).href);
  const schema = schemas.schemas[schemas.validators?.[validatorName] ?? validatorName];
  if (schema === undefined) return undefined;
  const refs = Object.values(schemas.types ?? {});
  for (let attempt = 0; attempt < 24; attempt++) {
    JSONSchemaFaker.option({
      random: seeded(seed + attempt),
      useExamplesValue: attempt < 4,
      useDefaultValue: attempt < 8,
      alwaysFakeOptionals: attempt % 2 === 0,
      requiredOnly: attempt % 2 === 1,
      fillProperties: false,
      failOnInvalidTypes: false,
      failOnInvalidFormat: false,
      // Two items where allowed: one repeated multipart part cannot be told from a single value.
      minItems: attempt < 12 ? 2 : 0,
      maxItems: 2,
      ignoreMissingRefs: true,
      refDepthMax: 3,
    });
    let candidate;
    try {
      candidate = JSONSchemaFaker.generate(structuredClone(schema), structuredClone(refs));
    } catch {
      continue;
    }
    // A path parameter must name something: "" (or a dot segment) is refused by the SDK before sending.
    const emptyPath = (pathFields ?? []).some((f) => ["", ".", ".."].includes(candidate?.[f]));
    if (!emptyPath && validate(candidate)) return candidate;
  }
  return undefined;
}

/** The credential environment a generated package reads, every variable set to the dummy credential. */
function credentialEnv(contractInfo) {
  const env = {};
  const visit = (value) => {
    if (value === null || typeof value !== "object") return;
    for (const [key, inner] of Object.entries(value)) {
      if (/Env$/.test(key) && key !== "baseUrlEnv" && typeof inner === "string") env[inner] = key === "usernameEnv" ? "judge-user-0123" : CREDENTIAL;
      else visit(inner);
    }
  };
  visit(contractInfo.auth);
  return env;
}

/** What the SDK raised, reduced to what the report needs. */
function failureOf(e) {
  return { code: typeof e?.code === "string" ? e.code : "THROWN", message: String(e?.message ?? e).slice(0, 300) };
}

/**
 * Judge one document. Returns counts and the list of problems; never throws on a finding (only on a
 * document that cannot be imported, generated or built, which is itself reported by the caller).
 */
export async function judgeDocument({ document, name, workDir, maxOperations = 150, adapterSample = 3 }) {
  const started = Date.now();
  const trace = process.env.JUDGE_TRACE ? (m) => process.stderr.write(`[judge ${name}] ${m}\n`) : () => {};
  const { pkg } = buildPackage(document, name, workDir);
  const dist = join(pkg, "dist");
  const runtime = await import(pathToFileURL(join(dist, "sdk", "runtime", "index.js")).href);
  const { CONTRACT } = await import(pathToFileURL(join(dist, "sdk", "contract.js")).href);
  const ops = await import(pathToFileURL(join(dist, "sdk", "operations.js")).href);
  const schemas = JSON.parse(readFileSync(join(pkg, "sdk", "schemas.json"), "utf8"));
  const adapterData = JSON.parse(readFileSync(join(pkg, "sdk", "contract.json"), "utf8"));
  const env = credentialEnv(CONTRACT);
  const savedEnv = new Map(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);

  trace("built");
  const prism = await startPrism(document);
  trace("prism up");
  const recorder = await startRecorder(prism.url);
  const result = {
    document: name,
    operations: 0,
    called: 0,
    fine: 0,
    rejected: 0,
    responseRefused: 0,
    documentUnsound: 0,
    mockLimitation: 0,
    otherFailure: 0,
    noInput: 0,
    errorsProvoked: 0,
    errorsRecognised: 0,
    errorsUnrecognised: 0,
    errorsNotServed: 0,
    adapterCalls: 0,
    adapterMismatches: 0,
    problems: [],
    seconds: 0,
  };
  const client = (headers) => new runtime.ContractClient(CONTRACT, { baseUrl: recorder.url, journal: false, retry: { maxAttempts: 1 }, ...(headers ? { headers } : {}) });
  try {
    // Each export is an operation's descriptor under its SDK method name; its validators are named after it.
    const specs = Object.entries(ops)
      .filter(([, v]) => v && typeof v === "object" && typeof v.id === "string" && typeof v.validateInput === "function")
      .map(([method, v]) => Object.assign(Object.create(v), { pascal: method[0].toUpperCase() + method.slice(1) }));
    result.operations = specs.length;
    const chosen = sampleEvenly(specs, maxOperations);
    const sdkRequests = new Map();
    for (const [index, op] of chosen.entries()) {
      const input = await inputFor(schemas, `validate${op.pascal}Input`, op.validateInput, 1000 + index * 97, op.bindings.filter((b) => b.in === "path").map((b) => b.field));
      if (input === undefined) {
        result.noInput++;
        result.problems.push({ operation: op.id, kind: "no-input", detail: "no generated input passed the contract's own input schema" });
        continue;
      }
      result.called++;
      trace(`call ${op.id}`);
      // Each declared error status; it must arrive as a code the contract binds to that status.
      const statuses = new Map();
      for (const code of op.errors ?? []) {
        const entry = CONTRACT.taxonomy[code];
        if (!entry) continue;
        if (!statuses.has(entry.http)) statuses.set(entry.http, []);
        statuses.get(entry.http).push(code);
      }
      const before = recorder.exchanges.length;
      try {
        trace(`plain ${JSON.stringify(input).slice(0, 200)}`);
        await client().call(op, input);
        result.fine++;
      } catch (e) {
        const seen = recorder.exchanges.slice(before);
        const violations = seen.flatMap((x) => x.violations);
        const failure = failureOf(e);
        const answered = seen.at(-1)?.status;
        const unsound = seen.flatMap((x) => x.responseViolations);
        if (violations.length === 0 && unsound.length > 0) {
          // The request was accepted, but Prism could not answer from the document: its own
          // examples break its schemas. Not the adapter's doing; counted apart.
          result.documentUnsound++;
          result.problems.push({ operation: op.id, kind: "document-unsound", detail: unsound.slice(0, 2).join("; ") });
        } else if (violations.length === 0 && answered !== undefined && statuses.has(answered)) {
          // The document declares no success Prism can serve, so it answers with a declared error:
          // the request was accepted; the error must still arrive as its code.
          result.fine++;
        } else if (violations.length === 0 && prismOwnFailure(seen.at(-1))) {
          result.mockLimitation++;
          result.problems.push({ operation: op.id, kind: "mock-limitation", detail: `Prism could not answer: ${prismOwnFailure(seen.at(-1))}` });
        } else if (repeatedFieldMisread(violations, seen.at(-1))) {
          result.mockLimitation++;
          result.problems.push({ operation: op.id, kind: "mock-limitation", detail: `Prism reads repeated form fields as one value (stoplightio/prism#2473): ${violations.slice(0, 2).join("; ")}` });
        } else if (violations.length > 0) {
          result.rejected++;
          result.problems.push({ operation: op.id, kind: "request-rejected", detail: violations.slice(0, 3).join("; "), request: seen[0] && `${seen[0].method} ${seen[0].url} ${JSON.stringify(seen[0].headers).slice(0, 300)} ${seen[0].body.slice(0, 300)}` });
        } else if (failure.code === "CLIENT_BAD_RESPONSE") {
          result.responseRefused++;
          result.problems.push({ operation: op.id, kind: "response-refused", detail: failure.message });
        } else {
          result.otherFailure++;
          const last = seen.at(-1);
          result.problems.push({ operation: op.id, kind: "failure", detail: `${failure.code}: ${failure.message}${last ? ` (answer: ${last.answer.replace(/\s+/g, " ").slice(0, 600)})` : ""}`, request: last && `${last.method} ${last.url} ${last.body.slice(0, 300)}` });
        }
      }
      const request = recorder.exchanges[before];
      if (request) sdkRequests.set(op.id, { input, request });
      for (const [status, codes] of [...statuses].sort(([a], [b]) => a - b)) {
        trace(`provoke ${status}`);
        const start = recorder.exchanges.length;
        try {
          await client({ prefer: `code=${status}` }).call(op, input);
          result.errorsNotServed++;
        } catch (e) {
          const answered = recorder.exchanges.slice(start).at(-1);
          if (!answered || answered.status !== status) {
            // Prism could not serve that status for this request (a violation, no such response).
            result.errorsNotServed++;
            continue;
          }
          result.errorsProvoked++;
          if (codes.includes(e?.code)) result.errorsRecognised++;
          else {
            result.errorsUnrecognised++;
            result.problems.push({ operation: op.id, kind: "error-unrecognised", detail: `HTTP ${status} (declared ${codes.join(", ")}) arrived as ${failureOf(e).code}` });
          }
        }
      }
    }

    // The same requests through the CLI and the MCP server, for a sample of the operations called.
    const adapterOps = sampleEvenly([...sdkRequests.keys()], adapterSample);
    trace("adapters");
    for (const id of adapterOps) {
      const { input, request } = sdkRequests.get(id);
      for (const adapter of ["cli", "mcp"]) {
        const start = recorder.exchanges.length;
        let error = null;
        try {
          if (adapter === "cli") await callCli(pkg, adapterData, id, input, recorder.url, workDir);
          else await callMcp(pkg, adapterData, id, input, recorder.url);
        } catch (e) {
          error = String(e?.message ?? e).slice(0, 300);
        }
        result.adapterCalls++;
        const sent = recorder.exchanges[start];
        const differs = !sent ? `sent nothing${error ? ` (${error})` : ""}` : requestDifference(request, sent);
        if (differs) {
          result.adapterMismatches++;
          result.problems.push({ operation: id, kind: `${adapter}-request-differs`, detail: differs });
        }
      }
    }
  } finally {
    await recorder.stop();
    prism.stop();
    for (const [k, v] of savedEnv) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  result.seconds = Math.round((Date.now() - started) / 100) / 10;
  return result;
}

/** A request with its multipart boundary (random per request) replaced by a fixed word. */
function withoutBoundary(request) {
  const boundary = /boundary=("?)([^";]+)\1/.exec(request.headers["content-type"] ?? "")?.[2];
  if (!boundary) return request;
  return {
    ...request,
    headers: { ...request.headers, "content-type": request.headers["content-type"].split(boundary).join("BOUNDARY") },
    body: request.body.split(boundary).join("BOUNDARY"),
  };
}

/** How an adapter's request differs from the SDK's (method, URL, the contract-decided headers, body), or null. */
function requestDifference(sdkRequest, otherRequest) {
  const sdk = withoutBoundary(sdkRequest);
  const other = withoutBoundary(otherRequest);
  if (sdk.method !== other.method) return `method ${other.method}, the SDK sent ${sdk.method}`;
  if (sdk.url !== other.url) return `URL ${other.url}, the SDK sent ${sdk.url}`;
  const a = JSON.stringify(sdk.headers);
  const b = JSON.stringify(other.headers);
  if (a !== b) return `headers ${b.slice(0, 300)}, the SDK sent ${a.slice(0, 300)}`;
  if (sdk.body !== other.body) return `body ${other.body.slice(0, 200)}, the SDK sent ${sdk.body.slice(0, 200)}`;
  return null;
}

function callCli(pkg, adapterData, operation, input, baseUrl, workDir) {
  const command = adapterData.commands.find((c) => c.operation === operation);
  if (!command) return Promise.reject(new Error("no CLI command"));
  const file = join(workDir, "cli-input.json");
  writeFileSync(file, JSON.stringify(input));
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, [join(pkg, "dist", "cli", "main.js"), "--base-url", baseUrl, "--max-attempts", "1", command.name, "--input", file], {
      env: { ...process.env, HOME: workDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (c) => (err += c));
    child.on("error", failed);
    child.on("close", (code) => (code === 0 ? done() : failed(new Error(`exit ${code}: ${err.slice(0, 300)}`))));
  });
}

async function callMcp(pkg, adapterData, operation, input, baseUrl) {
  const tool = adapterData.tools.find((t) => t.operation === operation);
  if (!tool) throw new Error("no MCP tool");
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(pkg, "dist", "mcp", "main.js"), "--base-url", baseUrl], env: { ...process.env }, stderr: "pipe" });
  const client = new Client({ name: "wire-judge", version: "1.0.0" });
  await client.connect(transport);
  try {
    const answer = await client.callTool({ name: tool.name, arguments: input });
    if (answer.isError) throw new Error(JSON.stringify(answer.content).slice(0, 300));
  } finally {
    await client.close();
  }
}

export const JUDGE_ROOT = ROOT;
