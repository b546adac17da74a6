import { q, type Rule } from "../rule.js";

const retryable = (errorClass: unknown) => errorClass === "transient" || errorClass === "rate_limited";

/** Clients branch on the class (and derive retryability from it): the same code now takes another path. */
export const rule: Rule = {
  id: "error-class-changed",
  severity: "breaking",
  category: "error",
  description: "The class of an error code changed.",
  hint: "Revisit how you handle the code: its class, and with it whether it is retryable, is different now.",
  check: (ctx) =>
    ctx.find(["errors", "*", "class"], ["modified"]).map((m) => {
      const { before, after } = m.change;
      const flip = retryable(before) === retryable(after) ? "" : retryable(after) ? ", so it is now retryable" : ", so it is no longer retryable";
      return {
        operation: null,
        message: `The class of error ${q(m.change.path[1])} changed from ${q(before)} to ${q(after)}${flip}.`,
        before: m.change.path,
        after: m.change.path,
      };
    }),
};
