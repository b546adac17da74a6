import { fieldPath, q, type Rule } from "../rule.js";

/** The shape callers recover from changed: a member they read may be gone, renamed or retyped. */
export const rule: Rule = {
  id: "error-details-changed",
  severity: "warning",
  category: "error",
  description: "The declared schema of an error code's `details` changed.",
  hint: "Check the code that reads the error's details against the new schema (the SDK's details type changes with it).",
  check: (ctx) =>
    ctx.find(["errors", "*", "details", "**"]).flatMap((m) => {
      const inside = m.change.path.slice(3);
      if (inside.length === 0) return []; // declared or dropped as a whole: error-details-added/-removed
      const n = inside.length;
      let what: string;
      if (inside[n - 2] === "properties" && m.change.kind !== "modified") {
        what = `member ${q(fieldPath(inside))} was ${m.change.kind}`;
      } else if (inside[n - 2] === "required" && m.change.kind !== "modified") {
        const member = fieldPath([...inside.slice(0, n - 2), "properties", inside[n - 1]!]);
        what = `member ${q(member)} became ${m.change.kind === "added" ? "required" : "optional"}`;
      } else if (inside[n - 2] === "type" && m.change.kind !== "modified") {
        const at = fieldPath(inside.slice(0, -2));
        const member = at !== "(root)" ? `member ${q(at)}` : "the details";
        what = `${member} ${m.change.kind === "added" ? "now admits" : "no longer admits"} type ${q(inside[n - 1])}`;
      } else {
        const at = fieldPath(inside.slice(0, -1));
        what = `${q(inside[n - 1])} of ${at && at !== "(root)" ? `member ${q(at)}` : "the details"} was ${m.change.kind}`;
      }
      return [
        {
          operation: null,
          message: `The details of error ${q(m.change.path[1])} changed: ${what}.`,
          ...(m.change.kind !== "added" ? { before: m.change.path } : {}),
          ...(m.change.kind !== "removed" ? { after: m.change.path } : {}),
        },
      ];
    }),
};
