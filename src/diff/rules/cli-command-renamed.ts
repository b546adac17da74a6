import { type DiffSide, q, type Rule } from "../rule.js";
import { written } from "./_members.js";

/** cli.name where the document writes it, else the operation (the command is derived from its name). */
function commandPath(side: DiffSide, id: string): string[] {
  return written(side, id, "cli", "name") ? ["operations", id, "cli", "name"] : ["operations", id];
}

/** Scripts that run the old command fail with "unknown command". */
export const rule: Rule = {
  id: "cli-command-renamed",
  severity: "breaking",
  category: "surface",
  // A renamed operation's derived tool name / command changes with its id: reported under the rename.
  consequenceOf: ["operation-renamed"],
  description: "The CLI command name of an operation changed.",
  hint: "Update scripts and documentation that run the command.",
  check: (ctx) =>
    ctx.find(["operations", "*", "names", "kebab"], ["modified"]).map((m) => ({
      operation: m.operation,
      message: `The CLI command of ${q(m.operation)} was renamed from ${q(m.change.before)} to ${q(m.change.after)}.`,
      before: commandPath(ctx.old, m.operation!),
      after: commandPath(ctx.new_, m.operation!),
    })),
};
