/**
 * Hostile programs against code mode (issue 43): programs an agent might write, by mistake or on
 * purpose, run through `execute` (src/code-runtime/execute.ts) over the built billing and incidents
 * SDKs and their reference platforms. Each case is stopped with its own error code, or, for an
 * escape, gets nothing of the host; after every case the host still runs a benign program, its own
 * prototypes are untouched, and the platform token appears nowhere in what the run returned. A
 * preview and its confirm in one program are refused however the token is laundered, and the
 * invoice is not refunded.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBillingServer } from "../../examples/billing/server.js";
import { startIncidentsServer } from "../../examples/incidents/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { CONFIRM_SAME_PROGRAM, createExecutor, type ExecuteResult } from "../../src/code-runtime/execute.js";
import type { SandboxLimits } from "../../src/code-runtime/sandbox.js";
import { parseContract } from "../../src/contract/parse.js";
import { codeMethods } from "../../src/emit/code/methods.js";

type BillingSdk = typeof import("../../generated-examples/billing.v2/sdk/index.js");
type IncidentsSdk = typeof import("../../generated-examples/incidents/sdk/index.js");
type Executor = ReturnType<typeof createExecutor>;

/** The platforms' token, and a wrong one a client presents to provoke auth errors: neither may come back. */
const TOKEN = "cm-hostile-token-7d41c9e2a0";
const WRONG_TOKEN = "cm-wrong-token-b83f06d5e1";
/** Small bounds keep the corpus fast; each is still hit by its own case. */
const LIMITS: SandboxLimits = { timeMs: 2000, memoryBytes: 16 * 1024 * 1024, stackBytes: 256 * 1024, calls: 20, resultChars: 10_000, logChars: 2_000 };

const dir = mkdtempSync(join(tmpdir(), "contractgen-code-hostile-"));
let billing: RunningPlatform;
let incidents: RunningPlatform;
let billingSdk: BillingSdk;
let incidents_: Executor;
let billing_: Executor;
let wrongToken: Executor;
/** A billing client outside any program: the platform's state as the host reads it. */
let direct: InstanceType<BillingSdk["BillingClient"]>;

beforeAll(async () => {
  [billing, incidents] = await Promise.all([startBillingServer({ token: TOKEN }), startIncidentsServer({ token: TOKEN })]);
  billingSdk = (await import(resolve("test-results/sdk/billing.v2/sdk/index.js"))) as BillingSdk;
  const incidentsSdk = (await import(resolve("test-results/sdk/incidents/sdk/index.js"))) as IncidentsSdk;
  const billingMethods = codeMethods(parseContract("specs/billing.v2.yaml").model!);
  // The billing client keeps a journal file, as a generated server's does: a program must not reach it.
  const billingClient = new billingSdk.BillingClient({ baseUrl: billing.url, token: TOKEN, journal: join(dir, "journal.sqlite") });
  billing_ = createExecutor(billingClient, billingMethods, { limits: LIMITS });
  wrongToken = createExecutor(new billingSdk.BillingClient({ baseUrl: billing.url, token: WRONG_TOKEN, journal: false }), billingMethods, { limits: LIMITS });
  const incidentsClient = new incidentsSdk.IncidentsClient({ baseUrl: incidents.url, token: TOKEN, journal: false });
  incidents_ = createExecutor(incidentsClient, codeMethods(parseContract("specs/incidents.yaml").model!), { limits: LIMITS });
  direct = new billingSdk.BillingClient({ baseUrl: billing.url, token: TOKEN, journal: false });
});
afterAll(async () => {
  direct?.close();
  await Promise.all([billing?.close(), incidents?.close()]);
});

/** A hostile program and what must come of it. */
interface Case {
  readonly name: string;
  readonly program: string;
  readonly expect: (run: ExecuteResult) => void;
}

const stopped = (code: string, more: Partial<ExecuteResult> = {}) => (r: ExecuteResult) => expect(r).toMatchObject({ ok: false, error: { code }, ...more });
const answers = (value: unknown, more: Partial<ExecuteResult> = {}) => (r: ExecuteResult) => {
  expect(r).toMatchObject({ ok: true, ...more });
  expect(r.value).toEqual(value);
};

/** Names a host would put on a global object; none may be visible to a program. */
const HOST_GLOBALS = [
  "process", "require", "module", "exports", "Buffer", "fetch", "setTimeout", "setInterval", "setImmediate", "queueMicrotask", "structuredClone",
  "postMessage", "WebAssembly", "Atomics", "__contractgen_call", "__contractgen_print", "std", "os", "navigator", "performance", "crypto", "global",
];

/** After each case: the host is alive and unpolluted, and neither token is anywhere in the run. */
async function hostSurvives(executor: Executor, run: ExecuteResult): Promise<void> {
  const text = JSON.stringify(run);
  expect(text).not.toContain(TOKEN);
  expect(text).not.toContain(WRONG_TOKEN);
  expect(Object.getOwnPropertyNames(Object.prototype).filter((n) => !["constructor", "__defineGetter__", "__defineSetter__", "hasOwnProperty", "__lookupGetter__", "__lookupSetter__", "isPrototypeOf", "propertyIsEnumerable", "toString", "valueOf", "__proto__", "toLocaleString"].includes(n))).toEqual([]);
  expect((([] as unknown) as Record<string, unknown>).polluted).toBeUndefined();
  expect(JSON.parse('{"a":[1]}')).toEqual({ a: [1] });
  expect(await executor.execute(`return [1, 2, 3].map((n) => n * 2);`)).toMatchObject({ ok: true, value: [2, 4, 6] });
}

const ESCAPES: Case[] = [
  {
    name: "client.constructor.constructor('return process')()",
    program: `try { return client.constructor.constructor("return process")(); } catch (e) { return e instanceof TypeError ? "TypeError" : String(e); }`,
    expect: answers("TypeError"),
  },
  {
    name: "a bridged method's Function constructor looks for the host",
    program: `return client.getIncident.constructor("return [typeof process, typeof require, typeof globalThis.__contractgen_call, typeof globalThis.__contractgen_print]")();`,
    expect: answers(["undefined", "undefined", "undefined", "undefined"]),
  },
  {
    name: "(() => {}).constructor('return this')() is the engine's own global",
    program: `const g = (() => {}).constructor("return this")(); return [g === globalThis, typeof g.process, typeof g.require, typeof g.module, typeof g.Buffer];`,
    expect: answers([true, "undefined", "undefined", "undefined", "undefined"]),
  },
  {
    name: "Function('return this')() searched for host names",
    program: `const g = Function("return this")(); return Object.getOwnPropertyNames(g).filter((n) => /^(process|require|module|Buffer)$|contractgen_(call|print)/.test(n));`,
    expect: answers([]),
  },
  {
    name: "the async function constructor and indirect eval",
    program: `return [await (async () => {}).constructor("return typeof process")(), (0, eval)("typeof require")];`,
    expect: answers(["undefined", "undefined"]),
  },
  { name: "dynamic import('fs') uncaught", program: `const fs = await import("fs"); return fs.readFileSync("/etc/passwd", "utf8");`, expect: stopped("CODE_THREW", { calls: 0 }) },
  {
    name: "dynamic import('node:child_process') caught",
    program: `try { const cp = await import("node:child_process"); return typeof cp.execSync; } catch (e) { return "refused"; }`,
    expect: answers("refused"),
  },
  { name: "a static import", program: `import { readFileSync } from "node:fs";\nreturn readFileSync("/etc/passwd", "utf8");`, expect: stopped("CODE_SYNTAX_ERROR") },
  { name: "require('fs')", program: `return require("fs").readFileSync("/etc/passwd", "utf8");`, expect: stopped("CODE_THREW", { calls: 0 }) },
  {
    name: "Object.prototype polluted, then a host call",
    program: `Object.prototype.polluted = "yes"; Array.prototype.polluted = "yes"; String.prototype.polluted = "yes";
      const inc = await client.getIncident({ incident_id: "INC-017" });
      return { id: inc.id, own: Object.keys(inc).includes("polluted") };`,
    expect: answers({ id: "INC-017", own: false }),
  },
  {
    name: "Object.prototype.toJSON forging every argument list",
    program: `Object.prototype.toJSON = function () { return "forged"; };
      try { await client.getIncident({ incident_id: "INC-017" }); return "sent"; } catch (e) { return e.code; }`,
    expect: answers("CODE_INPUT_NOT_JSON"),
  },
  {
    name: "client.__proto__ and setPrototypeOf(client)",
    program: `const r = { proto: client.__proto__ === undefined, frozen: Object.isFrozen(client) };
      try { Object.setPrototypeOf(client, { getIncident: async () => "forged" }); r.set = "changed"; } catch (e) { r.set = "refused"; }
      return r;`,
    expect: answers({ proto: true, frozen: true, set: "refused" }),
  },
  {
    name: "client.getIncident reassigned, redefined and deleted",
    program: `const before = client.getIncident;
      client.getIncident = async () => ({ id: "forged" });
      try { Object.defineProperty(client, "getIncident", { value: async () => ({ id: "forged" }) }); } catch {}
      delete client.getIncident;
      const inc = await client.getIncident({ incident_id: "INC-017" });
      return { same: client.getIncident === before, id: inc.id };`,
    expect: answers({ same: true, id: "INC-017" }),
  },
  {
    name: "JSON.parse and JSON.stringify replaced before a call",
    program: `JSON.parse = () => ({ ok: true, value: { id: "forged" } }); JSON.stringify = () => '[{"incident_id":"INC-088"}]';
      return (await client.getIncident({ incident_id: "INC-017" })).id;`,
    expect: answers("INC-017"),
  },
  {
    name: "an argument whose getter throws runs in the engine; nothing is sent",
    program: `try { await client.getIncident({ get incident_id() { throw new Error("getter ran in the engine"); } }); } catch (e) { return e.message; }`,
    expect: answers("getter ran in the engine", { calls: 0 }),
  },
  { name: "an argument whose toJSON never returns", program: `await client.getIncident({ toJSON() { for (;;) {} } }); return 1;`, expect: stopped("CODE_TIME_LIMIT", { calls: 0 }) },
  {
    name: "an argument's toJSON decides the JSON the host gets, nothing more",
    program: `return (await client.getIncident({ toJSON() { return { incident_id: "INC-088" }; } })).id;`,
    expect: answers("INC-088"),
  },
  { name: "a returned value whose toJSON throws", program: `return { toJSON() { throw new Error("no"); } };`, expect: stopped("CODE_RESULT_NOT_JSON") },
  {
    name: "Symbol-keyed functions on arguments and on the result are dropped",
    program: `const inc = await client.getIncident({ incident_id: "INC-017", [Symbol("x")]: () => 1 });
      return { id: inc.id, [Symbol.for("nodejs.util.inspect.custom")]: () => "x", [Symbol.toPrimitive]: () => 1 };`,
    expect: answers({ id: "INC-017" }),
  },
  {
    name: "SdkError's Symbol.hasInstance forged, thrown object with a throwing getter",
    program: `Object.defineProperty(SdkError, Symbol.hasInstance, { value: () => true }); throw { get code() { throw new Error("getter"); } };`,
    expect: stopped("CODE_THREW"),
  },
  {
    // The program is compiled alone by the engine (the async-function constructor): no text of the host's surrounds it.
    name: "a program written to close a wrapper's text and end with text that is not JSON is only a syntax error",
    program: `})(); } catch (e) {} })(); (async () => { const __contractgen_result = () => "J{not json"; let value; try { value = await (async () => {`,
    expect: stopped("CODE_SYNTAX_ERROR"),
  },
  {
    name: "a program written to close a wrapper's text and forge a thrown error is only a syntax error",
    program: `})(); } catch (e) {} })(); (async () => { const __contractgen_result = () => "T[1"; let value; try { value = await (async () => {`,
    expect: stopped("CODE_SYNTAX_ERROR"),
  },
  {
    name: "SharedArrayBuffer, Atomics, WebAssembly",
    // SharedArrayBuffer is the engine's own memory: with no Atomics and no postMessage nothing shares it.
    program: `return [typeof Atomics, typeof WebAssembly, typeof postMessage, new SharedArrayBuffer(8).byteLength];`,
    expect: answers(["undefined", "undefined", "undefined", 8]),
  },
  {
    name: "the global object enumerated: no host names, no timers, no network",
    program: `return Object.getOwnPropertyNames(globalThis).filter((n) => ${JSON.stringify(HOST_GLOBALS)}.includes(n));`,
    expect: answers([]),
  },
  {
    name: "error stacks name no host file",
    program: `try { await client.getIncident({ incident_id: "INC-000" }); } catch (e) { return [e.stack, new Error("x").stack, Object.getOwnPropertyNames(e)].join("|"); }`,
    expect: (r) => {
      expect(r.ok).toBe(true);
      expect(r.value).not.toMatch(/node_modules|node:|\/work\/|\.ts\b/);
    },
  },
];

const EXHAUSTION: Case[] = [
  { name: "an endless loop", program: `for (;;) {}`, expect: stopped("CODE_TIME_LIMIT") },
  { name: "an endless loop that catches the interrupt", program: `for (;;) { try { for (;;) {} } catch {} }`, expect: stopped("CODE_TIME_LIMIT") },
  { name: "allocation without end", program: `const keep = []; for (;;) keep.push(new Uint8Array(1 << 20));`, expect: stopped("CODE_MEMORY_LIMIT") },
  {
    // The engine's heap accounting misses large buffers; the WebAssembly memory's own cap holds them.
    name: "1 MiB typed arrays past the heap limit, the out-of-memory caught",
    program: `const keep = []; try { for (;;) keep.push(new Uint8Array(1 << 20)); } catch (e) { return { error: String(e), mib: keep.length }; }`,
    expect: (r) => {
      expect(r).toMatchObject({ ok: true, value: { error: "InternalError: out of memory" } });
      expect((r.value as { mib: number }).mib).toBeLessThanOrEqual((16 * (1 << 20) + 2 * LIMITS.memoryBytes) / (1 << 20));
    },
  },
  { name: "one enormous string", program: `return "x".repeat(1e9).length;`, expect: stopped("CODE_MEMORY_LIMIT") },
  { name: "a million nested arrays", program: `let x = []; for (let i = 0; i < 1e6; i++) x = [x]; return 1;`, expect: stopped("CODE_MEMORY_LIMIT") },
  { name: "deep recursion", program: `const down = (n) => down(n + 1) + 1; return down(0);`, expect: stopped("CODE_STACK_LIMIT") },
  { name: "recursion through a getter", program: `const o = { get x() { return o.x; } }; return o.x;`, expect: stopped("CODE_STACK_LIMIT") },
  { name: "a huge result", program: `return Array.from({ length: 5000 }, (_, i) => ({ i }));`, expect: stopped("CODE_RESULT_TOO_LARGE") },
  { name: "a huge uncaught SdkError", program: `throw new SdkError({ code: "X", message: "y".repeat(200000) });`, expect: stopped("CODE_RESULT_TOO_LARGE") },
  { name: "a huge uncaught string", program: `throw "y".repeat(200000);`, expect: stopped("CODE_RESULT_TOO_LARGE") },
  {
    name: "huge console output",
    program: `for (let i = 0; i < 10000; i++) console.log("line " + i + " " + "z".repeat(50)); return "printed";`,
    expect: (r) => {
      expect(r).toMatchObject({ ok: true, value: "printed", logsTruncated: true });
      expect(r.logs.join("").length).toBeLessThanOrEqual(LIMITS.logChars);
    },
  },
  { name: "one enormous console line", program: `console.log("z".repeat(1e6)); return 1;`, expect: answers(1, { logs: [], logsTruncated: true }) },
  { name: "printing forever", program: `for (;;) console.log("again");`, expect: stopped("CODE_TIME_LIMIT", { logsTruncated: true }) },
  { name: "millions of pending promises", program: `const ps = []; for (let i = 0; i < 5e6; i++) ps.push(new Promise(() => {})); return 1;`, expect: stopped("CODE_MEMORY_LIMIT") },
  { name: "a wait for nothing", program: `await new Promise(() => {}); return 1;`, expect: stopped("CODE_NEVER_SETTLED") },
  { name: "a wait for nothing after a host call", program: `await client.getIncident({ incident_id: "INC-017" }); await new Promise(() => {}); return 1;`, expect: stopped("CODE_NEVER_SETTLED", { calls: 1 }) },
  {
    name: "a promise chain that renews itself",
    program: `const spin = () => Promise.resolve().then(spin); spin(); await new Promise(() => {});`,
    // Whichever bound it reaches first; never a crash or an ordinary throw.
    expect: (r) => {
      expect(r.ok).toBe(false);
      expect(["CODE_MEMORY_LIMIT", "CODE_TIME_LIMIT", "CODE_NEVER_SETTLED"]).toContain(r.error!.code);
    },
  },
  { name: "a call storm, awaited", program: `for (let i = 0; i < 100; i++) await client.countIncidents({}); return 1;`, expect: stopped("CODE_CALL_LIMIT") },
  {
    name: "a call storm, all at once",
    program: `await Promise.allSettled(Array.from({ length: 1000 }, () => client.countIncidents({}))); return 1;`,
    expect: stopped("CODE_CALL_LIMIT", { calls: 1000 }),
  },
  { name: "a call storm that swallows refusals and never stops", program: `for (;;) { try { await client.countIncidents({}); } catch {} }`, expect: stopped("CODE_CALL_LIMIT") },
  { name: "a cyclic result", program: `const a = { b: {} }; a.b.a = a; return a;`, expect: stopped("CODE_RESULT_NOT_JSON") },
  { name: "a BigInt result", program: `return { total: 10n ** 30n };`, expect: stopped("CODE_RESULT_NOT_JSON") },
  { name: "a syntax error", program: `return { ;`, expect: stopped("CODE_SYNTAX_ERROR", { calls: 0 }) },
  { name: "a stray closing brace", program: `return 1; }`, expect: stopped("CODE_SYNTAX_ERROR") },
  { name: "an Error saying 'out of memory' is the program's own throw", program: `throw new Error("out of memory");`, expect: stopped("CODE_THREW") },
  { name: "an Error saying 'interrupted' is the program's own throw", program: `throw new Error("download interrupted");`, expect: stopped("CODE_THREW") },
  {
    name: "a deeply nested result within the size bound",
    program: `let x = 0; for (let i = 0; i < 4000; i++) x = [x]; return x;`,
    expect: (r) => {
      expect(r.ok).toBe(true);
      expect(JSON.stringify(r.value).length).toBe(8001);
    },
  },
];

/** A program that provokes an error and hands back everything it can find on it. */
const everythingOn = (call: string) =>
  `try { await ${call}; return "no error"; } catch (e) {
     const props = {}; for (const k of Object.getOwnPropertyNames(e)) props[k] = String(e[k]);
     return { code: e.code, json: JSON.stringify(e), text: String(e), stack: e.stack, props, details: JSON.stringify(e.details) };
   }`;

const EXFILTRATION: Array<Case & { readonly executor: "billing" | "wrongToken" }> = [
  { executor: "wrongToken", name: "an auth error, stringified and enumerated", program: everythingOn(`client.getInvoice({ invoice_id: "inv_1001" })`), expect: (r) => expect(r).toMatchObject({ ok: true, value: { code: "TOKEN_INVALID" } }) },
  {
    executor: "wrongToken",
    name: "an auth error left uncaught",
    program: `return await client.listCustomers({});`,
    expect: (r) => expect(r).toMatchObject({ ok: false, error: { code: "CODE_THREW", thrown: { code: "TOKEN_INVALID" } } }),
  },
  { executor: "wrongToken", name: "an auth error on a keyed mutation", program: everythingOn(`client.createCustomer({ email: "x@example.com", name: "X" })`), expect: (r) => expect(r).toMatchObject({ ok: true, value: { code: "TOKEN_INVALID" } }) },
  { executor: "billing", name: "a not-found error, stringified and enumerated", program: everythingOn(`client.getInvoice({ invoice_id: "inv_9999" })`), expect: (r) => expect(r).toMatchObject({ ok: true, value: { code: "INVOICE_NOT_FOUND" } }) },
  { executor: "billing", name: "input the SDK refuses, stringified", program: everythingOn(`client.getInvoice({ invoice_id: "inv_1001", token: "?" })`), expect: (r) => expect(r).toMatchObject({ ok: true, value: { code: expect.any(String) } }) },
  {
    executor: "billing",
    name: "client.core, client.options, client.close and the client's own keys",
    program: `return { core: typeof client.core, options: typeof client.options, close: typeof client.close, token: typeof client.token, journal: typeof client.journal, keys: Object.getOwnPropertyNames(client).sort() };`,
    expect: (r) => {
      expect(r).toMatchObject({ ok: true, value: { core: "undefined", options: "undefined", close: "undefined", token: "undefined", journal: "undefined" } });
      expect((r.value as { keys: string[] }).keys).toEqual(codeMethods(parseContract("specs/billing.v2.yaml").model!).map((m) => m.name).sort());
    },
  },
  { executor: "billing", name: "calling client.close()", program: `client.close(); return "closed";`, expect: stopped("CODE_THREW", { calls: 0 }) },
  { executor: "billing", name: "reading the journal through an un-bridged method", program: `return await client.journal.read();`, expect: stopped("CODE_THREW", { calls: 0 }) },
  { executor: "billing", name: "reading the journal file", program: `const fs = await import("node:fs"); return fs.readFileSync(${JSON.stringify(join(dir, "journal.sqlite"))}, "latin1");`, expect: stopped("CODE_THREW", { calls: 0 }) },
  {
    executor: "billing",
    name: "every successful answer and every global, stringified",
    program: `const answers = [await client.getInvoice({ invoice_id: "inv_1001" }), await client.listCustomers({}), await client.listCustomersAll({}, { maxPages: 2 }).collect()];
      const globals = Object.getOwnPropertyNames(globalThis).map((n) => { try { return n + "=" + String(globalThis[n]); } catch { return n; } });
      console.log(JSON.stringify(answers)); return { answers, globals };`,
    expect: (r) => expect(r.ok).toBe(true),
  },
];

/** A program that previews a refund of inv_1006 and tries to confirm it in the same run, the token laundered by `launder`. */
const confirmInOne = (launder: string, input = `{ invoice_id: "inv_1006", amount: 700 }`) =>
  `const preview = await client.previewRefundInvoice(${input});
   const token = preview.confirm_token;
   ${launder}
   try { await client.refundInvoice({ ...${input}, dry_run: false, confirm_token: laundered }); return "refunded"; } catch (e) { return e.code; }`;

/** Each is refused with CODE_CONFIRM_SAME_PROGRAM unless it says what else it gets (never a refund). */
const CONFIRMS: Array<{ readonly name: string; readonly program: string; readonly value?: string }> = [
  { name: "token.split('').join('')", program: confirmInOne(`const laundered = token.split("").join("");`) },
  { name: "a template literal", program: confirmInOne("const laundered = `${token}`;") },
  { name: "character codes", program: confirmInOne(`const laundered = String.fromCharCode(...[...token].map((c) => c.charCodeAt(0)));`) },
  { name: "a JSON round trip", program: confirmInOne(`const laundered = JSON.parse(JSON.stringify({ t: token })).t;`) },
  { name: "stored in a global", program: confirmInOne(`globalThis.stash = token; const laundered = globalThis.stash;`) },
  {
    name: "a second preview in between (the first token)",
    program: confirmInOne(`await client.previewRefundInvoice({ invoice_id: "inv_1006", amount: 800 }); const laundered = token;`),
  },
  {
    name: "a second preview's own token",
    program: confirmInOne(`const laundered = (await client.previewRefundInvoice({ invoice_id: "inv_1006", amount: 700 })).confirm_token;`),
  },
  {
    name: "the preview method asked to execute with the token stays a preview",
    program: `const { confirm_token } = await client.previewRefundInvoice({ invoice_id: "inv_1006", amount: 700 });
      try { await client.previewRefundInvoice({ invoice_id: "inv_1006", amount: 700, dry_run: false, confirm_token }); return "previewed"; } catch (e) { return e.code; }`,
    value: "previewed",
  },
  {
    name: "stored on the platform and read back through a traversal's input and output",
    program: confirmInOne(`
      const email = "launder." + Date.now() + "@example.com";
      await client.createCustomer({ email, name: token });
      const found = await client.listCustomersAll({ email }, { maxPages: 1 }).collect();
      const laundered = found.items[0].name;`),
  },
  {
    name: "Promise.all: preview and confirms concurrently",
    program: `const preview = client.previewRefundInvoice({ invoice_id: "inv_1006", amount: 700 });
      const confirm = () => preview.then((p) => client.refundInvoice({ invoice_id: "inv_1006", amount: 700, dry_run: false, confirm_token: p.confirm_token }));
      const settled = await Promise.allSettled([preview, confirm(), confirm(), confirm()]);
      const codes = settled.slice(1).map((s) => (s.status === "fulfilled" ? "refunded" : s.reason.code));
      return codes.every((c) => c === codes[0]) ? codes[0] : codes.join(",");`,
  },
];

describe("code mode against hostile programs", () => {
  describe(`${ESCAPES.length} escape attempts: 0 escapes`, () => {
    it.each(ESCAPES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
      const run = await incidents_.execute(c.program);
      c.expect(run);
      await hostSurvives(incidents_, run);
    });
  });

  describe(`${EXHAUSTION.length} exhaustion attempts: each stopped under its own code`, () => {
    it.each(EXHAUSTION.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
      const run = await incidents_.execute(c.program);
      c.expect(run);
      await hostSurvives(incidents_, run);
    });
  });

  describe(`${EXFILTRATION.length} exfiltration attempts: the token leaves 0 times`, () => {
    it.each(EXFILTRATION.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
      const executor = c.executor === "billing" ? billing_ : wrongToken;
      const run = await executor.execute(c.program);
      c.expect(run);
      await hostSurvives(executor, run);
    });
  });

  describe(`${CONFIRMS.length} confirm-in-one-program attempts: 0 refunds`, () => {
    it.each(CONFIRMS.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
      const before = await direct.getInvoice({ invoice_id: "inv_1006" });
      const run = await billing_.execute(c.program);
      expect(run).toMatchObject({ ok: true, value: c.value ?? CONFIRM_SAME_PROGRAM });
      expect((await direct.getInvoice({ invoice_id: "inv_1006" })).refunded_cents).toBe(before.refunded_cents);
      await hostSurvives(billing_, run);
    });

    it("and the invoice was never refunded at all", async () => {
      expect((await direct.getInvoice({ invoice_id: "inv_1006" })).refunded_cents).toBe(0);
    });
  });
});
