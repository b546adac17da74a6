/**
 * The two tools of code mode (issue 43) as `tools/list` serves them, and the server's instructions in
 * that mode. Kept apart from the engine and the type checker (mode.ts), which load only when a server
 * runs in code mode: what the catalogue shows costs the same for ten operations or ten thousand.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from "./sandbox.js";

export const SEARCH_DOCS_TOOL = "search_docs";
/** Most entries one search returns, and the default. */
export const SEARCH_DOCS_MAX = 10;
export const SEARCH_DOCS_DEFAULT = 3;
export const EXECUTE_TOOL = "execute";


/** Most characters of program an `execute` takes (a program is a few lines; data belongs in calls). */
export const PROGRAM_MAX_CHARS = 20_000;

/** The two tools; `platform` is the SDK's title (the contract's), `limits` the sandbox's bounds. */
export function codeModeTools(platform: string, limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS): Tool[] {
  return [
    {
      name: SEARCH_DOCS_TOOL,
      title: `Search the ${platform} SDK`,
      description: [
        `Find the methods of the ${platform} SDK's \`client\` for a task, in words; one result per operation. The best match comes whole: its TypeScript signature (with its preview and traversal), its documentation`,
        "(effects, preview and confirm token, operation key, paging, each error with its recovery action), the types it names and a worked example; the others in brief (signature, summary): search a method's name for its whole entry.",
        `Results come ${SEARCH_DOCS_DEFAULT} at a time (limit: at most ${SEARCH_DOCS_MAX}); pass next_offset as offset for more.`,
      ].join(" "),
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string", maxLength: 500, description: "What you want to do or know, in words." },
          offset: { type: "integer", minimum: 0, description: "The previous page's next_offset." },
          limit: { type: "integer", minimum: 1, maximum: SEARCH_DOCS_MAX },
        },
        required: ["query"],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    {
      name: EXECUTE_TOOL,
      title: `Run a program against the ${platform} SDK`,
      description: [
        `Run TypeScript against the ${platform} SDK: the body of an async function with \`client\` in scope (\`const x = await client.method({ ... })\`); \`return\` a JSON value; console.log lines come back too.`,
        "It is type-checked against the SDK first (errors with line and column; nothing runs), then run in a sandbox with no network, files, environment or timers: only client.",
        "A failed call throws an SdkError with code, class and action (what to do next). Filter and count in the program; return only what the answer needs.",
        "A traversal, client.xAll(input, { maxPages }), has collect(): { items, complete, reasons, continuation }.",
        "A preview's confirm token is accepted only in a later execute: return the preview and show it to the user first.",
        "A keyed call re-run after a lost answer gets the recorded outcome, not a second effect.",
        `Limits: ${limits.timeMs / 1000} s, ${limits.calls} calls, ${limits.resultChars} characters of result.`,
      ].join(" "),
      inputSchema: {
        type: "object",
        properties: { code: { type: "string", minLength: 1, maxLength: PROGRAM_MAX_CHARS, description: "The program (TypeScript)." } },
        required: ["code"],
        additionalProperties: false,
      },
      // A program may call any method, writes included: hosts ask before running it.
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
  ];
}

/** The server's instructions in code mode. */
export function codeModeInstructions(platform: string): string {
  return `${platform}, in code mode: find SDK methods with ${SEARCH_DOCS_TOOL}, then run a short TypeScript program that calls them with ${EXECUTE_TOOL}. Previews are confirmed in a later ${EXECUTE_TOOL}, after the user has seen them; traversals and results say whether they are complete.`;
}
