import { q, type Rule } from "../rule.js";

/** The route a request goes to; `{param}` names do not reach the wire, so only the template's shape counts. */
const shape = (path: unknown) => String(path).replace(/\{[^}]*\}/g, "{}");

export const rule: Rule = {
  id: "http-path-changed",
  severity: "breaking",
  category: "transport",
  description: "The HTTP path template of an operation changed (renaming a path parameter alone does not count).",
  hint: "Regenerate the SDK; hand-written HTTP clients must call the new path.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "http", "path"], ["modified"])
      .filter((m) => shape(m.change.before) !== shape(m.change.after))
      .map((m) => ({
        operation: m.operation,
        message: `The HTTP path of ${q(m.operation)} changed from ${q(m.change.before)} to ${q(m.change.after)}.`,
        before: m.change.path,
        after: m.change.path,
      })),
};
