import { fieldPath, q, type Rule } from "../rule.js";

export const rule: Rule = {
  id: "input-property-became-required",
  severity: "breaking",
  category: "input",
  description: "An optional input property became required.",
  hint: "Callers must now send the property; keep it optional or bump the major version.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "input", "**", "required", "*"], ["added"])
      .filter((m) => {
        const parent = m.change.path.slice(0, -2);
        const name = m.change.path.at(-1)!;
        // A property that is itself new is reported by input-required-property-added.
        return ctx.old.get([...parent, "properties", name]) !== undefined;
      })
      .map((m) => {
        const parent = m.change.path.slice(0, -2);
        const name = m.change.path.at(-1)!;
        return {
          operation: m.operation,
          message: `Input property ${q(fieldPath([...parent.slice(3), "properties", name]))} of ${q(m.operation)} became required.`,
          before: [...parent, "properties", name],
          after: [...parent, "properties", name],
        };
      }),
};
