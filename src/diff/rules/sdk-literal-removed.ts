import type { Rule } from "../rule.js";
import { SDK_MAJOR, sdkFindings } from "./_sdk.js";

/**
 * The generated types spell `enum` and `const` as unions of literals. A literal removed from an
 * input union breaks code that passes it; one removed from an output union breaks code that compares
 * with it (`status === "refunded"`: TS2367, the types have no overlap), although fewer output values
 * harm no consumer on the wire (output-enum-value-removed, info).
 */
export const rule: Rule = {
  id: "sdk-literal-removed",
  severity: "warning",
  category: "sdk",
  consequenceOf: ["input-enum-value-removed", "input-constraint-tightened", "output-constraint-loosened"],
  description: "A literal left a union of a generated SDK type (an enum or const value): code that passes it as input, or compares an output with it, no longer compiles.",
  hint: `Stop passing or comparing with the removed literal. ${SDK_MAJOR}`,
  check: (ctx) => sdkFindings(ctx, "sdk-literal-removed"),
};
