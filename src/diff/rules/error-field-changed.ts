import { q, type Rule } from "../rule.js";

/** Callers that act on `field` (fix it, re-read it) would look at a different input field. */
export const rule: Rule = {
  id: "error-field-changed",
  severity: "warning",
  category: "error",
  description: "The input field an error code concerns (`errors.<CODE>.field`) was added, removed or changed.",
  hint: "Update code that reads the error's `field` to find the input field to fix or re-read.",
  check: (ctx) =>
    ctx.find(["errors", "*", "field"], ["modified"]).map((m) => {
      const code = m.change.path[1];
      const { before, after } = m.change;
      const message =
        before === null
          ? `Error ${q(code)} now concerns input field ${q(after)}.`
          : after === null
            ? `Error ${q(code)} no longer concerns input field ${q(before)}.`
            : `The input field of error ${q(code)} changed from ${q(before)} to ${q(after)}.`;
      return { operation: null, message, before: m.change.path, after: m.change.path };
    }),
};
