import type { Rule } from "../rule.js";
import { SDK_MAJOR, sdkFindings } from "./_sdk.js";

/**
 * Code that calls a method of the generated client does not compile once the method is gone: the
 * operation was removed or renamed, or lost the preview or pagination its preview or traversal
 * method came from. The types the SDK declared for that operation slot (`<Op>Input`, `<Op>Output`,
 * `<Op>Preview`) go with it and are named in the same finding. Method names are the emitter's own
 * (naming.ts clientMethodNames). Under a breaking wire finding of the same operation (removed,
 * removed before its sunset, renamed) this is a consequence; an operation removed after its sunset,
 * a preview or pagination dropped, leave it standing.
 */
export const rule: Rule = {
  id: "sdk-method-removed",
  severity: "warning",
  category: "sdk",
  consequenceOf: ["operation-removed", "operation-removed-before-sunset", "operation-renamed"],
  description: "A method of the generated SDK client (an operation's call, preview or traversal method) no longer exists under its name, with the types of that operation slot: code that calls it no longer compiles.",
  hint: `Call the method named in the finding instead, or drop the call. ${SDK_MAJOR}`,
  check: (ctx) => sdkFindings(ctx, "sdk-method-removed"),
};
