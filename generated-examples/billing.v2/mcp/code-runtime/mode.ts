/**
 * Code mode behind a generated MCP server (issue 43): `search_docs` over the package's own SDK
 * declarations, and `execute`, which type-checks a program against them and runs it in the sandbox
 * with `client` bridged to the SDK client the server already uses (adapter: the generated SDK with
 * its journal and credentials; skeleton: the contract host). Loaded only when a server runs in code
 * mode, since it brings the TypeScript compiler and the engine.
 */
import { existsSync, readFileSync } from "node:fs";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { join } from "node:path";
import { docsIndex, groupByOperation, readMethodDocs } from "./docs.js";
import { type CodeTool, codeMethodsOf, createExecutor, type ExecuteResult } from "./execute.js";
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from "./sandbox.js";
import { PROGRAM_MAX_CHARS, SEARCH_DOCS_MAX } from "./tools.js";
import { createTypeChecker } from "./typecheck.js";

export { type CodeTool, codeMethodsOf } from "./execute.js";

/** Where the SDK is and what its client class is called (generated into the server definition). */
export interface CodeModeSource {
  /** The package's `sdk/` folder: its declarations (`*.d.ts` when built, else the sources) are what programs are checked against. */
  readonly sdkDir: string;
  readonly clientClass: string;
}


/** The built declaration when there is one, else the source. */
function declared(dir: string, module: string): string {
  const built = join(dir, `${module}.d.ts`);
  if (existsSync(built)) return built;
  const source = join(dir, `${module}.ts`);
  if (existsSync(source)) return source;
  throw new Error(`code mode needs the SDK's declarations: neither ${built} nor ${source} exists (build the package with declarations)`);
}

const text = (value: unknown, isError = false): CallToolResult => ({ content: [{ type: "text", text: JSON.stringify(value) ?? "null" }], ...(isError ? { isError: true } : {}) });

/** An argument the tool refuses, as the SDK refuses input: invalid_input, fix_field, nothing ran. */
function refused(field: string, message: string): CallToolResult {
  return text({ error: { code: "CODE_INVALID_ARGUMENT", class: "invalid_input", action: "fix_field", field, message: `${message}; nothing ran`, outcome: "rejected" } }, true);
}

/** Class and action of each way a run can end without a result (a program's own faults are fixed in the program). */
function failureClass(code: string): { class: string; action: string } {
  if (code === "CODE_ENGINE_FAILED") return { class: "internal", action: "stop_and_surface" };
  return { class: "invalid_input", action: "fix_field" };
}

/** The answer of one run, bounded: the result, or why there is none, with what was printed and how many calls ran. */
export function executeAnswer(run: ExecuteResult): CallToolResult {
  const printed = { ...(run.logs.length > 0 ? { logs: run.logs } : {}), ...(run.logsTruncated ? { logsTruncated: true } : {}) };
  // Calls the program left running: the answer waited for them (within the time limit) and says so.
  const atEnd = "runningAtEnd" in run ? run.runningAtEnd : undefined;
  const left = atEnd
    ? { runningAtEnd: { ...atEnd, note: `${atEnd.calls} call(s) were still running when the program ended${atEnd.stillRunning > 0 ? `; ${atEnd.stillRunning} had not finished within the time limit, so their outcome is unknown (a keyed one re-run gets its recorded outcome)` : "; they finished before this answer"}` } }
    : {};
  if (run.ok) return text({ result: run.value ?? null, calls: run.calls, ...left, ...printed });
  const error = run.error!;
  if ("typeErrors" in run) return text({ error: { code: error.code, class: "invalid_input", action: "fix_field", field: "code", message: error.message, typeErrors: run.typeErrors, outcome: "rejected" } }, true);
  const thrown = "thrown" in error ? error.thrown : undefined;
  const kind = thrown && typeof thrown.class === "string" && typeof thrown.action === "string" ? { class: thrown.class, action: thrown.action } : failureClass(error.code);
  // Calls that ran before the end stand (a keyed one re-run gets its recorded outcome); a lone call refused before sending had none.
  const refusedAlone = run.calls === 1 && thrown?.outcome === "rejected";
  const standing = run.calls > 0 && !refusedAlone ? { note: `${run.calls} call(s) ran before the program ended; their effects stand. Re-running the program repeats keyed calls without a second effect (the journal answers), and others as the platform does.` } : {};
  // A thrown SDK error names its own field (thrown.field); the program's own faults are fixed in `code`.
  return text({ error: { code: error.code, ...kind, ...(thrown ? { thrown } : { field: "code" }), message: error.message }, calls: run.calls, ...standing, ...left, ...printed }, true);
}

/**
 * Code mode over `tools` (the server's exposed operations) and the client `client()` opens. The SDK's
 * documentation is read once, at the first search; the type checker loads at the first search too (it
 * then costs about 100 ms a program), so the first execute does not pay for it.
 */
export function createCodeMode(source: CodeModeSource, tools: readonly CodeTool[], client: () => object, limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS) {
  const methods = codeMethodsOf(tools);
  let index: ReturnType<typeof docsIndex> | undefined;
  let checker: ReturnType<typeof createTypeChecker> | undefined;
  let executor: ReturnType<typeof createExecutor> | undefined;
  const docs = () => {
    if (index) return index;
    const read = readMethodDocs(readFileSync(declared(source.sdkDir, "client"), "utf8"), readFileSync(declared(source.sdkDir, "types"), "utf8"), source.clientClass, new Set(methods.map((m) => m.name)));
    // One entry per operation: its call with its preview and traversal, and its worked example.
    index = docsIndex(groupByOperation(read, tools.map((t) => ({ call: t.sdkMethod, preview: t.previewMethod, all: t.allMethod ?? null, ...(t.codeExample !== undefined ? { example: t.codeExample } : {}) }))));
    return index;
  };
  const typeChecker = () => (checker ??= createTypeChecker(declared(source.sdkDir, "index"), source.clientClass));

  return {
    searchDocs(args: Readonly<Record<string, unknown>>): CallToolResult {
      const { query, offset = 0, limit = undefined } = args as { query?: unknown; offset?: unknown; limit?: unknown };
      if (typeof query !== "string" || query.length > 500) return refused("query", "query must be a string of at most 500 characters");
      if (!Number.isInteger(offset) || (offset as number) < 0) return refused("offset", "offset must be a whole number from 0 (a previous page's next_offset)");
      if (limit !== undefined && (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > SEARCH_DOCS_MAX)) return refused("limit", `limit must be a whole number from 1 to ${SEARCH_DOCS_MAX}`);
      const page = docs().search(query, offset as number, limit as number | undefined);
      // The checker loads after this answer is on its way: the agent reads the docs meanwhile.
      if (!checker) setImmediate(() => typeChecker().check("return 0;"));
      return text(page);
    },
    async execute(args: Readonly<Record<string, unknown>>): Promise<CallToolResult> {
      const code = (args as { code?: unknown }).code;
      if (typeof code !== "string" || code.trim() === "" || code.length > PROGRAM_MAX_CHARS) return refused("code", `code must be a program of 1 to ${PROGRAM_MAX_CHARS} characters`);
      const check = typeChecker();
      executor ??= createExecutor(client(), methods, { limits, typeCheck: (program) => check.check(program) });
      return executeAnswer(await executor.execute(code));
    },
  };
}
