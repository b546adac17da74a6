import { q, type Rule } from "../rule.js";
import { listMemberChange } from "./_checks.js";

/** A call that still sends the field no longer narrows the results: it gets more than it asked for. */
export const rule: Rule = {
  id: "filter-removed",
  severity: "breaking",
  category: "projection",
  description: "An input field no longer narrows an operation's results.",
  hint: "Filter the results yourself; a call that sends the field may now return items it would have excluded.",
  check: listMemberChange(["filters"], "removed", (field, op) => `Filter ${q(field)} was removed from ${q(op)}.`),
};
