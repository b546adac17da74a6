import type { Rule } from "../rule.js";
import { SDK_MAJOR, sdkFindings } from "./_sdk.js";

/**
 * A method's input option (or a property of a type passed as input) that old code could leave out
 * is now required in the generated type: an optional property became required, a required one was
 * added, or the method's shape requires it (the confirm token of an operation that gained a
 * preview: naming.ts clientMethodInputs). The operation key stays optional in the call method
 * whatever the schema says: the client supplies one.
 */
export const rule: Rule = {
  id: "sdk-property-required",
  severity: "warning",
  category: "sdk",
  consequenceOf: ["input-property-became-required", "input-required-property-added", "precondition-became-required"],
  description: "An input option of the generated SDK that old code could leave out is now required: calls that leave it out no longer compile.",
  hint: `Pass the option in every call. ${SDK_MAJOR}`,
  check: (ctx) => sdkFindings(ctx, "sdk-property-required"),
};
