import { parseSemver } from "../../model/semver.js";
import { CATEGORIES, q, type Rule } from "../rule.js";

/**
 * Version policy: consumers pin majors, so a breaking change they can observe must move the major
 * version. Which categories count is data (CATEGORIES[…].observable): a catalogue over its budget is
 * a build gate for the contract's authors, and the policy's own findings are not changes.
 */
export const rule: Rule = {
  id: "version-major-bump-required",
  severity: "breaking",
  category: "version",
  phase: "policy",
  description: "The contract has breaking changes a consumer can observe (every category but budget and version) but its major version did not increase.",
  hint: "Bump the major version (and record the change in the changelog), or make the changes compatible.",
  check: (ctx) => {
    // A version the import made up (from a date, say) says nothing a policy could judge.
    if (ctx.options.versioned === false) return [];
    // One edit counts once, whether it or something that follows from it is breaking.
    const breaking = ctx.findings.filter((f) => [f, ...f.consequences].some((x) => x.severity === "breaking" && CATEGORIES[x.category].observable));
    const before = parseSemver(ctx.old.model.version);
    const after = parseSemver(ctx.new_.model.version);
    if (breaking.length === 0 || !before || !after || after.major > before.major) return [];
    // 0.x versions may break on a minor bump (semver §4).
    if (before.major === 0 && after.major === 0 && after.minor > before.minor) return [];
    return [
      {
        operation: null,
        message: `${breaking.length} breaking change(s) but the version went from ${q(ctx.old.model.version)} to ${q(ctx.new_.model.version)} without a major bump.`,
        before: ["version"],
        after: ["version"],
      },
    ];
  },
};
