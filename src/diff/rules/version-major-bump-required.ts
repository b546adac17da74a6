import { parseSemver } from "../../model/semver.js";
import { q, type Rule } from "../rule.js";

/** Version policy: consumers pin majors, so a breaking change must move the major version. */
export const rule: Rule = {
  id: "version-major-bump-required",
  severity: "breaking",
  category: "version",
  phase: "policy",
  description: "The contract has breaking changes but its major version did not increase.",
  hint: "Bump the major version (and record the change in the changelog), or make the changes compatible.",
  check: (ctx) => {
    const breaking = ctx.findings.filter((f) => f.severity === "breaking");
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
