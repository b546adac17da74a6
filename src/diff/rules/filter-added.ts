import { q, type Rule } from "../rule.js";
import { listMemberChange } from "./_checks.js";

export const rule: Rule = {
  id: "filter-added",
  severity: "info",
  category: "projection",
  description: "An input field started narrowing an operation's results.",
  hint: "Nothing to do; use the filter instead of filtering results yourself.",
  check: listMemberChange(["filters"], "added", (field, op) => `Filter ${q(field)} was added to ${q(op)}.`),
};
