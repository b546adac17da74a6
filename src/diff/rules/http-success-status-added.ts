import { q, type Rule } from "../rule.js";
import { listMemberChange } from "./_checks.js";

/** Clients accept only the listed success statuses: one generated from the old contract refuses the new one. */
export const rule: Rule = {
  id: "http-success-status-added",
  severity: "breaking",
  category: "transport",
  description: "An operation can succeed with an HTTP status it did not list before.",
  hint: "Regenerate the SDK before the platform answers with the new status: older clients refuse it as an invalid response (for a mutation, with an unknown outcome).",
  check: listMemberChange(["http", "successStatuses"], "added", (status, op) => `${q(op)} can now succeed with HTTP ${status}.`),
};
