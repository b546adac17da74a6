import { q, type Rule } from "../rule.js";

/** Calls that executed directly are now previews or are refused without a confirm token. */
export const rule: Rule = {
  id: "preview-added",
  severity: "breaking",
  category: "preview",
  description: "An existing operation started requiring preview and confirm before it executes.",
  hint: "Preview first, then execute with the dry-run field off and the confirm token the preview returned.",
  check: (ctx) =>
    ctx.find(["operations", "*", "preview"], ["added"]).map((m) => {
      const preview = ctx.new_.operation(m.operation!)?.preview;
      return {
        operation: m.operation,
        message: `Operation ${q(m.operation)} started requiring a preview and a confirm token in ${q(preview?.confirmTokenField)} before it executes.`,
        after: m.change.path,
      };
    }),
};
