import { q, type Rule } from "../rule.js";

/** Reads are called freely (speculatively, in loops, without approval); this one now changes state. */
export const rule: Rule = {
  id: "effect-read-to-mutating",
  severity: "breaking",
  category: "effect",
  description: "A read operation became mutating.",
  hint: "Treat the operation as a state change: stop calling it speculatively or blindly on retry, and review approval policies that let reads run unattended.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "effects", "kind"], ["modified"])
      .filter((m) => m.change.before === "read" && m.change.after === "mutating")
      .map((m) => ({
        operation: m.operation,
        message: `Operation ${q(m.operation)} changed from a read to a mutating operation.`,
        before: m.change.path,
        after: m.change.path,
      })),
};
