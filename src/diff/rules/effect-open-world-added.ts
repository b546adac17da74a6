import { q, type Rule } from "../rule.js";
import { transition } from "./_checks.js";

/** The operation now reaches outside the platform (email, payments): effects that no rollback covers. */
export const rule: Rule = {
  id: "effect-open-world-added",
  severity: "warning",
  category: "effect",
  description: "An operation started touching systems outside the platform.",
  hint: "Expect effects outside the platform: keep the operation out of tests and speculative runs, and review approval policies for it.",
  check: transition(["effects", "openWorld"], false, true, (op) => `Operation ${q(op)} now touches systems outside the platform (openWorld).`),
};
