import { q, type Rule } from "../rule.js";
import { transition } from "./_checks.js";

/** A caller that executes twice with one confirm token has its second execution refused. */
export const rule: Rule = {
  id: "preview-single-use-enabled",
  severity: "breaking",
  category: "preview",
  description: "A preview's confirm token became single-use (`preview.singleUse` false → true).",
  hint: "Preview again before each execution; only a replay of the same operation key reuses a token.",
  check: transition(["preview", "singleUse"], false, true, (op) => `The confirm token of ${q(op)} became single-use.`),
};
