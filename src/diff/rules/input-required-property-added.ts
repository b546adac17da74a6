import { fieldPath, q, type Rule } from "../rule.js";

/** A new property that callers must send: every existing call now fails validation. */
export const rule: Rule = {
  id: "input-required-property-added",
  severity: "breaking",
  category: "input",
  description: "A required input property was added.",
  hint: "Make the new property optional with a default, or ship it in a new major version.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "input", "**", "properties", "*"], ["added"])
      .filter((m) => {
        const parent = m.change.path.slice(0, -2);
        const required = ctx.new_.get([...parent, "required"]);
        return typeof required === "object" && required !== null && (required as Record<string, unknown>)[m.change.path.at(-1)!] === true;
      })
      .map((m) => ({
        operation: m.operation,
        message: `Input property ${q(fieldPath(m.change.path.slice(3)))} of ${q(m.operation)} was added as required.`,
        after: m.change.path,
      })),
};
