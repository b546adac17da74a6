import { q, type Rule } from "../rule.js";
import { transition } from "./_checks.js";

/** Callers that relied on undoing the effect with another operation no longer can. */
export const rule: Rule = {
  id: "effect-became-irreversible",
  severity: "breaking",
  category: "effect",
  description: "An operation's effect can no longer be undone by another operation.",
  hint: "Stop relying on undoing the effect; confirm before calling the operation.",
  check: transition(["effects", "reversible"], true, false, (op) => `Operation ${q(op)} became irreversible.`),
};
