import type { Rule } from "../rule.js";
import { SDK_MAJOR, sdkFindings } from "./_sdk.js";

/**
 * The SDK's `ErrorCode` is the taxonomy's codes: `isContractError(e, "LOCATION_FULL")`,
 * `ContractErrorOf<"LOCATION_FULL">`, `TAXONOMY.LOCATION_FULL` and a `case "LOCATION_FULL"` on a
 * narrowed error stop compiling once the code is gone, even when no operation raised it any more
 * (error-code-retired, info on the wire). Under error-code-removed or error-code-renamed (breaking)
 * it is a consequence.
 */
export const rule: Rule = {
  id: "sdk-error-code-removed",
  severity: "warning",
  category: "sdk",
  consequenceOf: ["error-code-removed", "error-code-renamed"],
  description: "An error code left the generated SDK's `ErrorCode` (the taxonomy): code that names it in isContractError, ContractErrorOf or TAXONOMY no longer compiles.",
  hint: `Remove the handling of that code, or match the code that replaced it. ${SDK_MAJOR}`,
  check: (ctx) => sdkFindings(ctx, "sdk-error-code-removed"),
};
