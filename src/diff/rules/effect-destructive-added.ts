import { q, type Rule } from "../rule.js";
import { transition } from "./_checks.js";

/** Callers and agent hosts gate destructive tools (destructiveHint); this one was not gated before. */
export const rule: Rule = {
  id: "effect-destructive-added",
  severity: "breaking",
  category: "effect",
  description: "An operation became destructive.",
  hint: "Review every call: it can now destroy or overwrite data, so confirm (or preview) before calling it.",
  check: transition(["effects", "destructive"], false, true, (op) => `Operation ${q(op)} became destructive.`),
};
