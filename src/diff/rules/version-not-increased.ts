import { compareSemver, parseSemver } from "../../model/semver.js";
import { q, type Rule } from "../rule.js";

export const rule: Rule = {
  id: "version-not-increased",
  severity: "warning",
  category: "version",
  phase: "policy",
  description: "The contract changed but its version did not increase.",
  hint: "Bump the version (major for breaking changes, minor for additions, patch for fixes) and add a changelog entry.",
  check: (ctx) => {
    // A version the import made up (from a date, say) says nothing a policy could judge.
    if (ctx.options.versioned === false) return [];
    const before = parseSemver(ctx.old.model.version);
    const after = parseSemver(ctx.new_.model.version);
    if (!before || !after || compareSemver(after, before) > 0) return [];
    if (ctx.findings.length === 0) return [];
    return [{ operation: null, message: `The contract changed but its version went from ${q(ctx.old.model.version)} to ${q(ctx.new_.model.version)}.`, before: ["version"], after: ["version"] }];
  },
};
