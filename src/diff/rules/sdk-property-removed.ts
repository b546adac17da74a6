import type { Rule } from "../rule.js";
import { SDK_MAJOR, sdkFindings } from "./_sdk.js";

/**
 * A property of a generated type that old code could set (an input option: an object literal with
 * it no longer compiles, the property being unknown) or read (an output property) is gone under its
 * name: removed, or renamed, as a path parameter renamed in place renames the SDK's input option
 * (input-path-parameter-renamed, a warning on the wire, where the request is unchanged). An input
 * whose new type takes any other property (an index signature) still accepts it.
 */
export const rule: Rule = {
  id: "sdk-property-removed",
  severity: "warning",
  category: "sdk",
  consequenceOf: [
    "input-property-removed",
    "input-property-removed-before-sunset",
    "output-property-removed",
    "idempotency-key-field-renamed",
    "preview-confirm-token-field-renamed",
    "pagination-cursor-field-renamed",
  ],
  description: "A property of a generated SDK type that old code could set (a method's input option) or read (an output property) no longer exists under its name: such code no longer compiles.",
  hint: `Set or read the property under its new name, or drop it. ${SDK_MAJOR}`,
  check: (ctx) => sdkFindings(ctx, "sdk-property-removed"),
};
