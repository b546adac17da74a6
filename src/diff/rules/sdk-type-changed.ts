import type { Rule } from "../rule.js";
import { SDK_MAJOR, sdkFindings } from "./_sdk.js";

/**
 * A generated type changed so that tsc rejects code written against the old one: an input accepts
 * fewer kinds of value (no null, a number where a string was, only literals where any string was,
 * no other properties), or an output may now hold a kind old code does not handle (null, undefined
 * for a property that became optional, another type, unknown).
 */
export const rule: Rule = {
  id: "sdk-type-changed",
  severity: "warning",
  category: "sdk",
  consequenceOf: [
    "input-property-type-changed",
    "input-property-type-narrowed",
    "input-nullable-removed",
    "input-additional-properties-closed",
    "input-enum-value-removed",
    "input-constraint-tightened",
    "output-property-type-changed",
    "output-nullable-added",
    "output-property-became-optional",
    "output-schema-widened",
    "output-constraint-loosened",
  ],
  description: "A generated SDK type changed in a way tsc rejects in code written against the old one: an input narrowed (a kind of value or other properties no longer accepted), or an output widened (null, undefined, another type, unknown).",
  hint: `Adapt the code to the new type: handle the new kinds of value, pass only accepted ones. ${SDK_MAJOR}`,
  check: (ctx) => sdkFindings(ctx, "sdk-type-changed"),
};
