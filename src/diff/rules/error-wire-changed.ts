import { q, type Rule } from "../rule.js";

/** Whether a format reads the code from the body, where `wire` values are looked up. */
const readsCodes = (style: string) => style === "problem" || style === "body";

/**
 * A client recognises a code by the value the platform puts at the code pointer: once that value
 * changes, clients generated before no longer recognise the code (at best they fall back to the status).
 */
export const rule: Rule = {
  id: "error-wire-changed",
  severity: "breaking",
  category: "error",
  description: "The value an error code is sent as on the wire (`errors.<CODE>.wire`, default the code) changed, under an error format that reads codes from the body.",
  hint: "Keep the old wire value, or regenerate every client together with the platform's change; older clients no longer recognise the code.",
  check: (ctx) => {
    if (!readsCodes(ctx.old.model.transport.errorFormat.style) && !readsCodes(ctx.new_.model.transport.errorFormat.style)) return [];
    return ctx.find(["errors", "*", "wire"], ["modified"]).flatMap((m) => {
      const code = m.change.path[1]!;
      // No `wire` is the code itself: writing the code out as its wire value changes nothing.
      const before = typeof m.change.before === "string" ? m.change.before : code;
      const after = typeof m.change.after === "string" ? m.change.after : code;
      if (before === after) return [];
      return [{ operation: null, message: `Error ${q(code)} is sent as ${q(after)} instead of ${q(before)}.`, before: m.change.path, after: m.change.path }];
    });
  },
};
