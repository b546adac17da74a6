/**
 * Code mode's sandbox (src/code-runtime): an agent's program runs in QuickJS (WebAssembly) in a worker
 * thread, and the hostile-program corpus of issue 43 ends each attempt with its own error: escapes find
 * nothing of the host, exhaustion of time, memory, stack, calls, output or printing is stopped under
 * its own code, and nothing but JSON crosses the bridge. The host survives every case.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { type Bridge, runInSandbox, type SandboxLimits } from "../../src/code-runtime/sandbox.js";

const LIMITS: SandboxLimits = { timeMs: 4000, memoryBytes: 16 * 1024 * 1024, stackBytes: 256 * 1024, calls: 20, resultChars: 10_000, logChars: 200 };
const SECRET = "sk_live_host_secret_5b1f";

/** A bridge that records what reached the host, and answers as a typed SDK would (the secret stays in the host). */
function recordingBridge(): { bridge: Bridge; seen: Array<{ method: string; input: unknown }> } {
  const seen: Array<{ method: string; input: unknown }> = [];
  const bridge: Bridge = async (method, args) => {
    const input = args[0];
    seen.push({ method, input });
    if (method === "getInvoice") {
      const id = (input as { invoice_id?: unknown }).invoice_id;
      if (id === "inv_404") return { ok: false, error: { name: "NotFoundError", code: "INVOICE_NOT_FOUND", class: "not_found", action: "verify_identifier", message: "No invoice inv_404." } };
      return { ok: true, value: { id, amount_cents: 1200 } };
    }
    if (method === "explode") throw new Error("bridge exploded");
    return { ok: true, value: null };
  };
  // The host holds a credential the program must never see.
  void SECRET;
  return { bridge, seen };
}

const run = (program: string, limits: Partial<SandboxLimits> = {}, bridge: Bridge = recordingBridge().bridge) =>
  runInSandbox(program, ["getInvoice", "explode"], bridge, { ...LIMITS, ...limits });

describe("a program in the sandbox", () => {
  it("calls the client, awaits, prints and returns JSON; a typed error is catchable with its code, class and action", async () => {
    const { bridge, seen } = recordingBridge();
    const r = await run(
      `const inv = await client.getInvoice({ invoice_id: "inv_1" });
       console.log("amount", inv.amount_cents);
       try { await client.getInvoice({ invoice_id: "inv_404" }); } catch (e) {
         return { inv, caught: { isSdkError: e instanceof SdkError, code: e.code, cls: e.class, action: e.action, message: e.message } };
       }`,
      {},
      bridge,
    );
    expect(r).toMatchObject({ ok: true, calls: 2, logs: ["amount 1200"] });
    expect(r.value).toEqual({ inv: { id: "inv_1", amount_cents: 1200 }, caught: { isSdkError: true, code: "INVOICE_NOT_FOUND", cls: "not_found", action: "verify_identifier", message: "No invoice inv_404." } });
    // Only JSON crossed: the host saw plain inputs.
    expect(seen).toEqual([
      { method: "getInvoice", input: { invoice_id: "inv_1" } },
      { method: "getInvoice", input: { invoice_id: "inv_404" } },
    ]);
  });

  it("a bridge that throws is a catchable internal error, not a host crash", async () => {
    const r = await run(`try { await client.explode({}); } catch (e) { return [e.code, e.class]; }`);
    expect(r).toMatchObject({ ok: true, value: ["CODE_BRIDGE_FAILED", "internal"] });
  });
});

describe("escape attempts find nothing of the host", () => {
  it("no process, require, module loading, Function-built access, timers, network or WebAssembly", async () => {
    const r = await run(`
      const probe = (f) => { try { const v = f(); return v === undefined ? "undefined" : typeof v; } catch (e) { return "threw"; } };
      return {
        process: typeof process, require: typeof require, fetch: typeof fetch, setTimeout: typeof setTimeout,
        WebAssembly: typeof WebAssembly, Buffer: typeof Buffer, hostCall: typeof __contractgen_call,
        viaConstructor: probe(() => this.constructor.constructor("return process")()),
        viaFunction: probe(() => Function("return globalThis.process")()),
        viaClient: probe(() => client.getInvoice.constructor("return typeof process")()),
        clientProto: Object.getPrototypeOf(client),
      };`);
    expect(r.ok).toBe(true);
    expect(r.value).toEqual({
      process: "undefined", require: "undefined", fetch: "undefined", setTimeout: "undefined", WebAssembly: "undefined", Buffer: "undefined", hostCall: "undefined",
      viaConstructor: "threw", viaFunction: "undefined", viaClient: "string", clientProto: null,
    });
    const imported = await run(`await import("node:fs"); return 1;`);
    expect(imported).toMatchObject({ ok: false, error: { code: "CODE_THREW" } });
    expect(imported.error!.message).toMatch(/could not load module/);
  });

  it("pollution stays inside: prototypes changed in the engine do not reach the host, and the client cannot be rewired", async () => {
    const r = await run(`
      Object.prototype.polluted = "yes"; Array.prototype.map = null; JSON.parse = () => ({ ok: true, value: "forged" });
      const before = client.getInvoice;
      try { client.getInvoice = () => "forged"; } catch {}
      const rewired = client.getInvoice === before ? "unchanged" : "changed";
      return { rewired, answer: await client.getInvoice({ invoice_id: "inv_2" }) };`);
    expect(r).toMatchObject({ ok: true, value: { rewired: "unchanged", answer: { id: "inv_2", amount_cents: 1200 } } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(typeof [].map).toBe("function");
  });

  it("a getter or toJSON on the returned value runs inside the engine and yields JSON only", async () => {
    const r = await run(`return { get where() { return typeof process; }, nested: { toJSON() { return "plain"; } } };`);
    expect(r).toMatchObject({ ok: true, value: { where: "undefined", nested: "plain" } });
  });

  it("the credential never enters: not in the engine's globals, its environment, or what the bridge returns", async () => {
    const r = await run(`return JSON.stringify(Object.getOwnPropertyNames(globalThis)) + JSON.stringify(await client.getInvoice({ invoice_id: "inv_3" }));`);
    expect(r.ok).toBe(true);
    expect(JSON.stringify(r)).not.toContain(SECRET);
  });
});

describe("exhaustion ends with its own error", () => {
  it.each([
    ["an endless loop", "for (;;) {}", "CODE_TIME_LIMIT"],
    ["a promise storm", "const ps = []; for (let i = 0; i < 1e8; i++) ps.push(Promise.resolve(i)); await Promise.all(ps);", "CODE_MEMORY_LIMIT"],
    ["deep recursion", "function down(n) { return down(n + 1) + 1; } return down(0);", "CODE_STACK_LIMIT"],
    ["a huge result", `return "x".repeat(20000);`, "CODE_RESULT_TOO_LARGE"],
    ["a cyclic result", "const a = {}; a.self = a; return a;", "CODE_RESULT_NOT_JSON"],
    ["a call storm", "for (let i = 0; i < 100; i++) await client.getInvoice({ invoice_id: 'inv_' + i }); return 1;", "CODE_CALL_LIMIT"],
    ["a wait for nothing", "await new Promise(() => {}); return 1;", "CODE_NEVER_SETTLED"],
    ["a syntax error", "return {", "CODE_SYNTAX_ERROR"],
    ["an uncaught throw", "throw new Error('boom');", "CODE_THREW"],
  ])("%s", async (_name, program, code) => {
    const r = await run(program, { timeMs: 1500 });
    expect(r.ok).toBe(false);
    expect(r.error!.code).toBe(code);
  });

  it("allocation past the engine's memory ends as CODE_MEMORY_LIMIT", async () => {
    const r = await run("const keep = []; for (;;) keep.push({ a: 1, b: [1, 2, 3] });", { memoryBytes: 8 * 1024 * 1024, timeMs: 30_000 });
    expect(r).toMatchObject({ ok: false, error: { code: "CODE_MEMORY_LIMIT" } });
  });

  it("a call limit caught by the program still ends the run with it", async () => {
    const r = await run("for (let i = 0; i < 50; i++) { try { await client.getInvoice({ invoice_id: 'x' }); } catch {} } return 'done anyway';");
    expect(r).toMatchObject({ ok: false, error: { code: "CODE_CALL_LIMIT" }, calls: 50 });
  });

  it("printing past its bound is cut, and the run says so", async () => {
    const r = await run("for (let i = 0; i < 100; i++) console.log('line ' + i); return 1;");
    expect(r).toMatchObject({ ok: true, value: 1, logsTruncated: true });
    expect(r.logs.join("").length).toBeLessThanOrEqual(LIMITS.logChars);
  });
});

describe("calls a program leaves running", () => {
  it("the answer waits for a call the program did not await, and says so; the call finished before the answer", async () => {
    let finished = false;
    const bridge: Bridge = async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      finished = true;
      return { ok: true, value: "done" };
    };
    const r = await runInSandbox(`client.refundInvoice({ invoice_id: "inv_1" }); return "returned first";`, ["refundInvoice"], bridge, LIMITS);
    expect(finished).toBe(true);
    expect(r).toMatchObject({ ok: true, value: "returned first", calls: 1, runningAtEnd: { calls: 1, stillRunning: 0 } });
  });

  it("a call still running at the time limit is counted as such (its outcome unknown), and the run's end is aborted for reads", async () => {
    let signal: AbortSignal | undefined;
    const bridge: Bridge = (_method, _args, ended) => {
      signal = ended;
      return new Promise(() => {});
    };
    const r = await runInSandbox(`client.refundInvoice({ invoice_id: "inv_1" }); return 1;`, ["refundInvoice"], bridge, { ...LIMITS, timeMs: 800 });
    expect(r).toMatchObject({ ok: true, value: 1, runningAtEnd: { calls: 1, stillRunning: 1 } });
    expect(signal?.aborted).toBe(true);
  });

  it("a program written to close a wrapper around it is a syntax error: the engine compiles it alone", async () => {
    const r = await run(`})(); (async () => { return "escaped"; })(); (async () => {`);
    expect(r).toMatchObject({ ok: false, error: { code: "CODE_SYNTAX_ERROR" } });
  });
});

describe("the engine thread", () => {
  it("does not take the host's flags: a host started with --input-type still runs programs", () => {
    const script = `const { runInSandbox } = await import(${JSON.stringify(new URL("../../dist/src/code-runtime/sandbox.js", import.meta.url).href)});
const r = await runInSandbox("return 6 * 7;", [], async () => ({ ok: true, value: null }));
process.stdout.write(JSON.stringify(r));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "--eval", script], { encoding: "utf8" });
    expect(JSON.parse(out)).toMatchObject({ ok: true, value: 42 });
  });
});
