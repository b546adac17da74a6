import type { Rule } from "../rule.js";
import { SDK_MAJOR, sdkFindings } from "./_sdk.js";

/**
 * The generated SDK's index exports the client class (named after the contract) and every type of
 * sdk/types.ts: each shared type under its identifier, each operation's input, output and preview
 * types. A name that is gone breaks every import and annotation that used it, although nothing
 * changes on the wire when a shared type is only renamed or inlined (type-removed is info). The
 * types of an operation slot whose method went are named in sdk-method-removed instead.
 */
export const rule: Rule = {
  id: "sdk-export-removed",
  severity: "warning",
  category: "sdk",
  consequenceOf: ["operation-removed", "operation-removed-before-sunset", "operation-renamed"],
  description: "A name the generated SDK exported (the client class, a shared type's or an operation's type) is no longer exported: code that imports or names it no longer compiles.",
  hint: `Use the new name, or the structural type it stood for. ${SDK_MAJOR}`,
  check: (ctx) => sdkFindings(ctx, "sdk-export-removed"),
};
