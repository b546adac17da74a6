import { q, type Rule } from "../rule.js";
import { listMemberChange } from "./_checks.js";

/**
 * Callers lose nothing (they never see the status again), but a platform that still answers with it is
 * refused by clients generated from the new contract, so the implementation must change first.
 */
export const rule: Rule = {
  id: "http-success-status-removed",
  severity: "warning",
  category: "transport",
  description: "An operation no longer lists an HTTP status as a success.",
  hint: "Make sure the platform no longer answers with the status before regenerating clients: they refuse it as an invalid response.",
  check: listMemberChange(["http", "successStatuses"], "removed", (status, op) => `${q(op)} no longer succeeds with HTTP ${status}.`),
};
