/**
 * Adapter parity: one case through the generated SDK (../sdk), CLI (../cli, its program run in this
 * process with stdout captured) and MCP server (../mcp, in memory through a real MCP Client), each
 * against a fresh implementation (fixture.reset), must give the same result — volatile values
 * (generated ids, instants, tokens, cursors) normalised — or the same error: code, class, action,
 * field, outcome and details. Cases come from the contract and the fixture's samples: the sample
 * call (preview then confirm where the operation asks for it), an identifier the fixture did not
 * seed, and one input the schema forbids.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { type CheckResult, negativeCases, noSample } from "./checks.js";
import { derivationOf, type Harness, type Input, type OperationSpec, violation } from "./harness.js";

const addFormats = addFormatsModule.default;

// --- what the generated package provides (tests/adapters.ts) ------------------------------------------

/** What parity needs of a generated CLI command (a subset of cli/runtime's CommandSpec). */
export interface ParityCommand {
  readonly operation: string;
  readonly name: string;
  readonly sdkMethod: string;
  readonly previewMethod: string | null;
  readonly flags: ReadonlyArray<{ readonly field: string; readonly flag: string; readonly type: string }>;
  readonly keyField: string | null;
  readonly dryRunField: string | null;
  readonly confirmTokenField: string | null;
  readonly fieldsField: string | null;
}

/** Where an adapter sends its calls, with which credential and operation journal. */
export interface AdapterOptions {
  readonly baseUrl: string;
  readonly token?: string;
  readonly journal: string;
  /** The suite's limits (harness.ts SuiteLimits), so an adapter waits no longer than the suite's own requests. */
  readonly timeoutMs?: number;
  readonly maxResponseBytes?: number;
  readonly maxRedirects?: number;
}

export interface McpServerLike {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/** The generated adapters, wired by tests/adapters.ts. */
export interface ParityAdapters {
  readonly commands: readonly ParityCommand[];
  readonly tools: ReadonlyArray<{ readonly operation: string; readonly name: string }>;
  /** A new generated SDK client. */
  sdk(options: AdapterOptions): { close(): void };
  /** Run the generated CLI's program in this process: its exit code and what it printed on stdout. */
  /** Runs the CLI in this process: a result is on stdout, an error's JSON is the first line of stderr. */
  cli(argv: readonly string[], options: { readonly token?: string; readonly stdin: string }): Promise<{ exitCode: number; stdout: string; stderr?: string }>;
  /** The generated MCP server over the SDK; null where it does not call the implementation (skeleton mode). */
  readonly mcp: ((options: AdapterOptions) => McpServerLike) | null;
}

// --- cases ----------------------------------------------------------------------------------------------

/** What one call gave, in the terms all adapters share. */
export type Outcome = { readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly error: Record<string, unknown> };

interface Step {
  readonly preview: boolean;
  /** The input (the contract's fields, behaviour fields included); reads earlier steps' outcomes. */
  readonly args: (earlier: readonly Outcome[]) => Input;
}

/** One case: steps run in order through one client (or server), stopping at the first failure. */
interface ParityCase {
  readonly name: string;
  readonly steps: readonly Step[];
  /** The CLI gets every non-behaviour field as JSON on stdin (`--input -`) instead of as flags. */
  readonly cliInputOnly: boolean;
}

/** An identifier the fixture did not seed: the sample's path identifier changed, still valid input. */
function unknownIdentifier(h: Harness, op: OperationSpec, params: Input): Input | undefined {
  const valid = h.validator(op.input);
  for (const b of op.bindings) {
    if (b.in !== "path") continue;
    const v = params[b.field];
    const candidates: unknown[] =
      typeof v === "string" ? [`${v}9`, `${v.slice(0, -1)}${v.endsWith("9") ? "8" : "9"}`, `${v}z`] : typeof v === "number" ? [v + 1_000_000, v + 1000, v + 17] : [];
    for (const c of candidates) {
      const input = { ...params, [b.field]: c };
      if (valid(input)) return input;
    }
  }
  return undefined;
}

function withKey(op: OperationSpec, input: Input, key: string): Input {
  return op.idempotency ? { ...input, [op.idempotency.keyField]: key } : input;
}

function resultField(o: Outcome | undefined, field: string): unknown {
  return o?.ok && o.result !== null && typeof o.result === "object" ? (o.result as Record<string, unknown>)[field] : undefined;
}

/**
 * The cases of `op`, run one after another on one implementation per adapter: the sample call first
 * (its effect cannot change how an unknown identifier or a forbidden input is answered). Each case
 * has its own operation key, the same for every adapter (each runs on its own fresh implementation).
 */
function parityCases(h: Harness, op: OperationSpec, params: Input): ParityCase[] {
  const p = op.preview;
  const single = (input: Input, key: string): Step[] => (p ? [{ preview: true, args: () => ({ ...input, [p.dryRunField]: true }) }] : [{ preview: false, args: () => withKey(op, input, key) }]);
  const sampleKey = randomUUID();
  const cases: ParityCase[] = [
    {
      name: p ? "the sample call, previewed then confirmed" : "the sample call",
      cliInputOnly: false,
      steps: p
        ? [
            { preview: true, args: () => ({ ...params, [p.dryRunField]: true }) },
            { preview: false, args: (o) => ({ ...withKey(op, params, sampleKey), [p.dryRunField]: false, [p.confirmTokenField]: resultField(o[0], p.confirmTokenField) }) },
          ]
        : single(params, sampleKey),
    },
  ];
  const unknown = unknownIdentifier(h, op, params);
  if (unknown) cases.push({ name: "an identifier the fixture did not seed", cliInputOnly: false, steps: single(unknown, randomUUID()) });
  // What each adapter promises for a forbidden input differs in two places, so those are left out:
  // - a missing required field: the CLI refuses it itself as a usage error, before the SDK;
  // - a behaviour field (operation key, dry-run flag, confirm token): each adapter has its own surface
  //   for it (the SDK's preview method takes none of them and drops what it is given, the CLI takes
  //   flags and refuses a malformed one as a usage error, the MCP tool takes the field), so the same
  //   bad value is legitimately dropped by one and refused by another.
  const behaviour = new Set([op.idempotency?.keyField, p?.dryRunField, p?.confirmTokenField]);
  const negative = negativeCases(op).find((c) => !c.name.startsWith("missing required") && !behaviour.has(c.field));
  if (negative) cases.push({ name: `a forbidden input (${negative.name})`, cliInputOnly: true, steps: single(negative.apply(params), randomUUID()) });
  return cases;
}

// --- the adapters ---------------------------------------------------------------------------------------

function contractErrorJson(e: unknown): Record<string, unknown> {
  const json = (e as { toJSON?: () => unknown } | null)?.toJSON?.();
  return json && typeof json === "object" ? (json as Record<string, unknown>) : { code: "NOT_A_CONTRACT_ERROR", message: String((e as Error)?.message ?? e) };
}

function without(input: Input, fields: ReadonlyArray<string | null>): Input {
  const out: Input = {};
  for (const [k, v] of Object.entries(input)) if (!fields.includes(k)) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

/** An adapter runs every case in order: per case, its steps' outcomes. */
type Runner = (cmd: ParityCommand, options: AdapterOptions, cases: readonly ParityCase[]) => Promise<Outcome[][]>;

/** Run each case's steps in order, stopping a case after its first failure (a later step depends on it). */
async function steps(cases: readonly ParityCase[], call: (c: ParityCase, step: Step, input: Input) => Promise<Outcome>): Promise<Outcome[][]> {
  const all: Outcome[][] = [];
  for (const c of cases) {
    const outcomes: Outcome[] = [];
    for (const step of c.steps) {
      const outcome = await call(c, step, step.args(outcomes));
      outcomes.push(outcome);
      if (!outcome.ok) break;
    }
    all.push(outcomes);
  }
  return all;
}

function sdkRunner(adapters: ParityAdapters): Runner {
  return async (cmd, options, cases) => {
    const client = adapters.sdk(options);
    const methods = client as unknown as Record<string, (input: unknown) => Promise<unknown>>;
    try {
      return await steps(cases, async (_c, step, input) => {
        // A preview is its own method, without the behaviour fields.
        const method = step.preview ? cmd.previewMethod : cmd.sdkMethod;
        const args = step.preview ? without(input, [cmd.dryRunField, cmd.confirmTokenField, cmd.keyField]) : input;
        try {
          return { ok: true, result: await methods[method!]!.call(client, args) };
        } catch (e) {
          return { ok: false, error: contractErrorJson(e) };
        }
      });
    } finally {
      client.close();
    }
  };
}

/** The command line of a step: the standard behaviour flags, typed flags where there are flags, the rest on stdin. */
function commandLine(cmd: ParityCommand, input: Input, inputOnly: boolean): { argv: string[]; stdin: string } {
  const argv = [cmd.name];
  const rest: Input = {};
  for (const [field, value] of Object.entries(input)) {
    const flag = inputOnly ? undefined : cmd.flags.find((f) => f.field === field);
    if (field === cmd.keyField) argv.push("--operation-key", String(value));
    else if (field === cmd.dryRunField) argv.push(...(value === true ? ["--dry-run"] : []));
    else if (field === cmd.confirmTokenField) argv.push("--confirm", String(value));
    else if (field === cmd.fieldsField && !inputOnly && Array.isArray(value)) argv.push("--fields", value.join(","));
    else if (flag?.type === "array" && Array.isArray(value)) for (const item of value) argv.push(`--${flag.flag}`, String(item));
    else if (flag && flag.type !== "array" && (value === null || typeof value !== "object")) argv.push(`--${flag.flag}`, String(value));
    else Object.defineProperty(rest, field, { value, enumerable: true, writable: true, configurable: true });
  }
  if (Object.keys(rest).length > 0) argv.push("--input", "-");
  return { argv, stdin: JSON.stringify(rest) };
}

function cliRunner(adapters: ParityAdapters): Runner {
  return (cmd, options, cases) =>
    steps(cases, async (c, _step, input) => {
      const { argv, stdin } = commandLine(cmd, input, c.cliInputOnly);
      const globals = ["--output", "json", "--base-url", options.baseUrl, "--journal", options.journal, ...(options.timeoutMs !== undefined ? ["--timeout", String(options.timeoutMs)] : [])];
      const { exitCode, stdout, stderr = "" } = await adapters.cli([...globals, ...argv], { ...(options.token !== undefined ? { token: options.token } : {}), stdin });
      // A success is the result alone on stdout (even one with an `error` property); an error prints
      // nothing on stdout and its JSON as the first line of stderr.
      const text = exitCode === 0 ? stdout : stderr.split("\n", 1)[0]!;
      if (exitCode !== 0 && stdout !== "") return { ok: false, error: { code: "CLI_ERROR_ON_STDOUT", message: stdout.slice(0, 500) } };
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return { ok: false, error: { code: "CLI_OUTPUT_NOT_JSON", message: text.slice(0, 500) } };
      }
      if (exitCode === 0) return { ok: true, result: json };
      const error = (json as { error?: unknown } | null)?.error;
      return { ok: false, error: error && typeof error === "object" ? (error as Record<string, unknown>) : { code: "CLI_ERROR_WITHOUT_ENVELOPE", exitCode } };
    });
}

function mcpClient(): Client {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  return new Client({ name: "contract-suite-parity", version: "1.0.0" }, { jsonSchemaValidator: new AjvJsonSchemaValidator(ajv as never) });
}

function toolText(r: CallToolResult): unknown {
  const first = r.content[0];
  if (!first || first.type !== "text") return undefined;
  try {
    return JSON.parse(first.text);
  } catch {
    return first.text;
  }
}

function mcpRunner(adapters: ParityAdapters, createServer: (options: AdapterOptions) => McpServerLike): Runner {
  return async (cmd, options, cases) => {
    const tool = adapters.tools.find((t) => t.operation === cmd.operation)?.name ?? cmd.operation;
    const server = createServer(options);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = mcpClient();
    try {
      await client.connect(clientSide);
      // Listing first makes the client validate every structured result against the tool's output schema.
      await client.listTools();
      return await steps(cases, async (_c, _step, input) => {
        let r: CallToolResult;
        try {
          r = (await client.callTool({ name: tool, arguments: input })) as CallToolResult;
        } catch (e) {
          return { ok: false, error: { code: "MCP_CLIENT_REFUSED", message: String((e as Error)?.message ?? e) } };
        }
        const text = toolText(r) as { error?: unknown; result?: unknown; completeness?: unknown } | undefined;
        if (r.isError) return { ok: false, error: text?.error && typeof text.error === "object" ? (text.error as Record<string, unknown>) : { code: "MCP_ERROR_WITHOUT_ENVELOPE" } };
        // Pages and tasks come back as { result, completeness } in text; structuredContent is the result.
        return { ok: true, result: r.structuredContent ?? (text && typeof text === "object" && "completeness" in text ? text.result : text) };
      });
    } finally {
      await client.close();
      await server.close();
    }
  };
}

// --- comparison -----------------------------------------------------------------------------------------

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;
const MAX_DEPTH = 64;

/** Leaf paths whose values differ between two runs of the same case: what the implementation generates anew each time. */
export function varyingPaths(a: unknown, b: unknown, path = "", out = new Set<string>(), depth = 0): Set<string> {
  const bothObjects = a !== null && b !== null && typeof a === "object" && typeof b === "object" && Array.isArray(a) === Array.isArray(b);
  if (!bothObjects || depth >= MAX_DEPTH) {
    if (JSON.stringify(a) !== JSON.stringify(b)) out.add(path);
    return out;
  }
  const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
  for (const k of keys) varyingPaths((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}/${k}`, out, depth + 1);
  return out;
}

/**
 * An outcome as adapters must agree on it: a result, keys sorted, with varying paths, instants and the
 * `masked` fields (tokens, cursors) replaced; or an error's recovery information.
 */
export function comparable(o: Outcome | undefined, varying: ReadonlySet<string>, masked: ReadonlySet<string>, prefix = ""): unknown {
  if (o === undefined) return { missing: "no outcome (an earlier step failed)" };
  const walk = (v: unknown, path: string, key: string, depth: number): unknown => {
    if (varying.has(path)) return "<varies>";
    if (Array.isArray(v)) return depth >= MAX_DEPTH ? "<deep>" : v.map((x, i) => walk(x, `${path}/${i}`, "", depth + 1));
    if (v !== null && typeof v === "object") {
      if (depth >= MAX_DEPTH) return "<deep>";
      const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const k of Object.keys(v).sort()) out[k] = walk((v as Record<string, unknown>)[k], `${path}/${k}`, k, depth + 1);
      return out;
    }
    if (typeof v === "string" && (masked.has(key) || DATE_TIME.test(v))) return "<volatile>";
    return v;
  };
  if (!o.ok) {
    const e = o.error;
    return { error: { code: e.code ?? null, class: e.class ?? null, action: e.action ?? null, field: e.field ?? null, outcome: e.outcome ?? null, details: walk(e.details ?? null, `${prefix}/error/details`, "", 0) } };
  }
  return { result: walk(o.result, `${prefix}/result`, "", 0) };
}

function shown(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 1500 ? `${text.slice(0, 1500)}…` : text;
}

/** The first step where `other` disagrees with the SDK's outcomes, or null. */
export function disagreement(sdk: readonly unknown[], other: readonly unknown[]): { step: number; sdk: unknown; other: unknown } | null {
  for (let i = 0; i < Math.max(sdk.length, other.length); i++) {
    if (JSON.stringify(sdk[i]) !== JSON.stringify(other[i])) return { step: i, sdk: sdk[i], other: other[i] };
  }
  return null;
}

/**
 * The parity cases of `op` through every adapter, each adapter on a fresh implementation: the SDK
 * twice (what differs between its two runs is volatile: generated ids, tokens), then the CLI and the
 * MCP server, which must agree with it case by case, step by step.
 */
export async function adapterParity(h: Harness, adapters: ParityAdapters, op: OperationSpec): Promise<CheckResult> {
  const cmd = adapters.commands.find((c) => c.operation === op.id);
  if (!cmd) return { skip: "the generated CLI has no command for this operation" };
  const sampled = h.fixture.sampleInput(op.id, 0);
  if (!sampled) return noSample(op);
  // Plain fields only: a derived sample's mark (a symbol key) is no argument an MCP client accepts.
  const plain = (input: Input): Input => Object.fromEntries(Object.entries(input));
  const cases = parityCases(h, op, plain(sampled));
  const runners: Array<[string, Runner]> = [
    ["SDK", sdkRunner(adapters)],
    ["SDK", sdkRunner(adapters)],
    ["CLI", cliRunner(adapters)],
    ...(adapters.mcp ? [["MCP server", mcpRunner(adapters, adapters.mcp)] as [string, Runner]] : []),
  ];
  // An operation that stopped answering fails here at once, not after a timeout per adapter call.
  h.expectAnswering(op, "the parity calls");
  const limits = { timeoutMs: h.limits.requestTimeoutMs, maxResponseBytes: h.limits.maxResponseBytes, maxRedirects: h.limits.maxRedirects };
  const dir = mkdtempSync(join(tmpdir(), "contract-parity-"));
  const runs: Array<[string, Outcome[][]]> = [];
  try {
    for (const [i, [name, runner]] of runners.entries()) {
      await h.fixture.reset();
      const options: AdapterOptions = { baseUrl: h.fixture.baseUrl, journal: join(dir, `journal-${i}.sqlite`), ...limits, ...(h.fixture.token !== undefined ? { token: h.fixture.token } : {}) };
      // A derived sample is derived again after each reset (a fresh object of its own, its current revision):
      // without a reset that restores the data, the first adapter's call would leave the next a stale one.
      const again = derivationOf(sampled) !== undefined ? h.fixture.sampleInput(op.id, 0) : undefined;
      runs.push([name, await runner(cmd, options, again !== undefined ? parityCases(h, op, plain(again)) : cases)]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const first = runs[0]![1];
  const second = runs[1]![1];
  const masked = new Set([op.preview?.confirmTokenField, op.pagination?.nextCursorField].filter((f): f is string => typeof f === "string"));
  cases.forEach((c, ci) => {
    const varying = new Set<string>();
    const raw = (o: Outcome | undefined) => (o === undefined ? undefined : o.ok ? o.result : o.error);
    first[ci]!.forEach((o, i) => varyingPaths(raw(o), raw(second[ci]?.[i]), o.ok ? `/${i}/result` : `/${i}/error`, varying));
    const norm = (outcomes: readonly Outcome[] | undefined) => (outcomes ?? []).map((o, i) => comparable(o, varying, masked, `/${i}`));
    const sdk = norm(first[ci]);
    for (const [name, outcomes] of runs.slice(2)) {
      const d = disagreement(sdk, norm(outcomes[ci]));
      if (d) {
        throw violation(`${op.id}: adapter parity, ${c.name}: the ${name} disagrees with the SDK at step ${d.step + 1} of ${c.steps.length}\n  SDK: ${shown(d.sdk)}\n  ${name}: ${shown(d.other)}`);
      }
    }
  });
}
