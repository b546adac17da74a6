import { q, type Rule } from "../rule.js";
import { transition } from "./_checks.js";

export const rule: Rule = {
  id: "effect-mutating-to-read",
  severity: "info",
  category: "effect",
  description: "A mutating operation became a read.",
  hint: "Nothing to do; the operation no longer changes state, so confirmations and retry guards around it may be relaxed.",
  check: transition(["effects", "kind"], "mutating", "read", (op) => `Operation ${q(op)} changed from a mutating operation to a read.`),
};
