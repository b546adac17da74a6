import { q, type Rule } from "../rule.js";
import { transition } from "./_checks.js";

export const rule: Rule = {
  id: "effect-destructive-removed",
  severity: "info",
  category: "effect",
  description: "An operation stopped being destructive.",
  hint: "Nothing to do; confirmation steps kept only because it was destructive may be relaxed.",
  check: transition(["effects", "destructive"], true, false, (op) => `Operation ${q(op)} is no longer destructive.`),
};
