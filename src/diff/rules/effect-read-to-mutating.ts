import { q, type Rule } from "../rule.js";
import { transition } from "./_checks.js";

/** Reads are called freely (speculatively, in loops, without approval); this one now changes state. */
export const rule: Rule = {
  id: "effect-read-to-mutating",
  severity: "breaking",
  category: "effect",
  description: "A read operation became mutating.",
  hint: "Treat the operation as a state change: stop calling it speculatively or blindly on retry, and review approval policies that let reads run unattended.",
  check: transition(["effects", "kind"], "read", "mutating", (op) => `Operation ${q(op)} changed from a read to a mutating operation.`),
};
