import { q, type Rule } from "../rule.js";
import { renamedOperations } from "./_pairs.js";

/**
 * To a caller a rename is a removal: every call by the old name fails. The engine pairs the two
 * before comparing (rules/_pairs.ts, pairOperations) and compares the old operation with the new one
 * under the new id, so what changed inside is reported by the other rules; the MCP tool name and CLI
 * command that follow from the new id are reported under this finding (their rules' consequenceOf).
 */
export const rule: Rule = {
  id: "operation-renamed",
  severity: "breaking",
  category: "operation",
  description: "An operation was removed and another added with the same HTTP method and path, or with the same input and output schemas; what changed inside it is compared and reported as for any operation.",
  hint: "Call the operation by its new name; keep the old name as a deprecated alias until a sunset date to spare callers.",
  check: (ctx) =>
    renamedOperations(ctx).map(({ from, to, by }) => ({
      operation: from,
      operations: [from, to],
      message: `Operation ${q(from)} was renamed to ${q(to)} (${by === "http" ? "same HTTP method and path" : "same input and output schemas"}).`,
      before: ["operations", from],
      after: ["operations", to],
      hint: `Call ${q(to)} instead of ${q(from)} and regenerate adapters; or keep ${q(from)} as a deprecated alias with a sunset date.`,
    })),
};
