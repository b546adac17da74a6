/**
 * Code mode's `execute`, host side (issue 43): an agent's program runs in the sandbox with `client`
 * bridged to the generated SDK's own client, so every call goes through the SDK as a direct call
 * would (validation, credentials, the journal, retries) and a typed error comes back with its code,
 * class and action. What the contract promises holds in code too:
 *
 * - a confirm token is redeemed only in a later `execute` than the one whose preview produced it, so
 *   the preview reaches the model (and the user) before anything runs: a program cannot preview and
 *   confirm in one go;
 * - a traversal (`…All`) is bounded and returns its completeness with its items;
 * - the result is bounded by the sandbox, which says so instead of cutting it.
 */
import { type Bridge, type BridgeAnswer, DEFAULT_SANDBOX_LIMITS, runInSandbox, type SandboxLimits, type SandboxRun } from "./sandbox.js";
import type { TypeCheckError, TypeCheckResult } from "./typecheck.js";

/** One method of the client as code mode offers it. */
export interface CodeMethod {
  /** The client's method name (`refundInvoice`, `previewRefundInvoice`, `listIncidentsAll`). */
  readonly name: string;
  /** `call`: the operation; `preview`: its dry run, which mints a confirm token; `all`: its bounded traversal. */
  readonly kind: "call" | "preview" | "all";
  /** The operation's id. */
  readonly operation: string;
  /** The input field (and preview output field) that carries the confirm token; null without a preview. */
  readonly confirmTokenField: string | null;
}

/** What code mode needs of a tool descriptor: the client methods of its operation, and its worked example. */
export interface CodeTool {
  readonly operation: string;
  readonly sdkMethod: string;
  readonly previewMethod: string | null;
  readonly allMethod?: string | null;
  readonly confirmTokenField: string | null;
  readonly codeExample?: string;
}

/** The client methods code mode bridges: each operation's call, its preview and its traversal. */
export function codeMethodsOf(tools: readonly CodeTool[]): CodeMethod[] {
  return tools.flatMap((t) => [
    { name: t.sdkMethod, kind: "call" as const, operation: t.operation, confirmTokenField: t.confirmTokenField },
    ...(t.previewMethod ? [{ name: t.previewMethod, kind: "preview" as const, operation: t.operation, confirmTokenField: t.confirmTokenField }] : []),
    ...(t.allMethod ? [{ name: t.allMethod, kind: "all" as const, operation: t.operation, confirmTokenField: null }] : []),
  ]);
}

/** The error a program's confirm gets when its token was minted in the same run. */
export const CONFIRM_SAME_PROGRAM = "CODE_CONFIRM_SAME_PROGRAM";

/** Pages a traversal reads at most when the program gives no bound (its own bound, if any, is kept). */
const DEFAULT_MAX_PAGES = 10;
/** Pages one traversal reads at most whatever the program asks (its completeness then says it stopped there). */
export const MAX_PAGES = 100;

export interface ExecutorOptions {
  readonly limits?: SandboxLimits;
  /**
   * Checks a TypeScript program against the SDK and strips its types (createTypeChecker); without
   * it, programs are taken as JavaScript.
   */
  readonly typeCheck?: (source: string) => TypeCheckResult;
}

/** A run, or a program the type check refused (nothing executed). */
export type ExecuteResult = SandboxRun | { readonly ok: false; readonly error: { readonly code: "CODE_TYPE_ERROR"; readonly message: string }; readonly typeErrors: readonly TypeCheckError[]; readonly logs: readonly string[]; readonly logsTruncated: false; readonly calls: 0 };

/** A typed SDK error as the program sees it: its own JSON form (never its stack or host objects). */
function errorFields(error: unknown): Record<string, unknown> {
  if (error && typeof error === "object" && typeof (error as { toJSON?: unknown }).toJSON === "function") {
    const fields = (error as { toJSON(): Record<string, unknown> }).toJSON();
    if (fields && typeof fields === "object") return fields;
  }
  return { name: "Error", code: "CODE_HOST_ERROR", class: "internal", action: "stop_and_surface", message: error instanceof Error ? error.message : String(error) };
}

/**
 * An executor over one client. Each `execute` is one program; confirm tokens its previews return are
 * remembered for that run only, so a confirm with one of them in the same run is refused before the
 * call leaves the host.
 */
export function createExecutor(client: object, methods: readonly CodeMethod[], options: ExecutorOptions = {}) {
  const byName = new Map(methods.map((m) => [m.name, m] as const));
  const names = methods.map((m) => (m.kind === "all" ? { name: m.name, traversal: true as const } : m.name));
  const limits = options.limits ?? DEFAULT_SANDBOX_LIMITS;
  const invoke = (name: string, args: readonly unknown[]): unknown => {
    const fn = (client as Record<string, unknown>)[name];
    if (typeof fn !== "function") throw new Error(`the client has no method ${name}`);
    return (fn as (...a: unknown[]) => unknown).apply(client, args as unknown[]);
  };

  return {
    async execute(source: string): Promise<ExecuteResult> {
      let program = source;
      if (options.typeCheck) {
        const checked = options.typeCheck(source);
        if (!checked.ok) {
          const first = checked.errors[0]!;
          return { ok: false, error: { code: "CODE_TYPE_ERROR", message: `the program does not type-check against the SDK (${checked.errors.length} error(s); first at ${first.line}:${first.column}: ${first.message}); nothing ran` }, typeErrors: checked.errors, logs: [], logsTruncated: false, calls: 0 };
        }
        program = checked.js;
      }
      // Tokens minted by this run's previews: a confirm carrying one of them waits for a later run.
      const minted = new Set<string>();
      const bridge: Bridge = async (name, args, ended): Promise<BridgeAnswer> => {
        const method = byName.get(name)!;
        const input = args[0] ?? {};
        if (input === null || typeof input !== "object" || Array.isArray(input)) {
          return { ok: false, error: { name: "InvalidInputError", code: "CODE_INPUT_NOT_OBJECT", class: "invalid_input", action: "fix_field", message: `${name} takes one object of input fields`, operation: method.operation } };
        }
        if (method.kind === "call" && method.confirmTokenField !== null) {
          const token = (input as Record<string, unknown>)[method.confirmTokenField];
          if (typeof token === "string" && minted.has(token)) {
            return {
              ok: false,
              error: {
                name: "InvalidInputError",
                code: CONFIRM_SAME_PROGRAM,
                class: "invalid_input",
                action: "stop_and_surface",
                field: method.confirmTokenField,
                operation: method.operation,
                outcome: "rejected",
                message: `${method.confirmTokenField} was returned by a preview in this same program: nothing was executed. Return the preview, show it to the user, and confirm in a later execute.`,
              },
            };
          }
        }
        try {
          if (method.kind === "all") {
            const bounds = args[1] && typeof args[1] === "object" && !Array.isArray(args[1]) ? (args[1] as Record<string, unknown>) : {};
            // A read: bounded in pages whatever the program asks, and stopped when the run is over.
            const asked = bounds.maxPages === undefined ? DEFAULT_MAX_PAGES : bounds.maxPages;
            const maxPages = typeof asked === "number" && asked > MAX_PAGES ? MAX_PAGES : asked;
            const traversal = invoke(name, [input, { ...bounds, maxPages, signal: ended }]) as { collect(): Promise<unknown> };
            return { ok: true, value: await traversal.collect() };
          }
          const value = await invoke(name, [input]);
          // Any answer carrying a confirm token minted it (a preview, or a call that answered with one).
          if (method.confirmTokenField !== null && value && typeof value === "object") {
            const token = (value as Record<string, unknown>)[method.confirmTokenField];
            if (typeof token === "string") minted.add(token);
          }
          return { ok: true, value };
        } catch (error) {
          return { ok: false, error: errorFields(error) };
        }
      };
      return runInSandbox(program, names, bridge, limits);
    },
  };
}
