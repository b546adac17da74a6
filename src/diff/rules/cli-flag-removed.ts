import { cliFlagNames } from "../../model/naming.js";
import { q, type Rule } from "../rule.js";
import { lifecycleAt, sunsetAhead } from "./_schema.js";

/** Scripts that pass the flag fail with "unknown option". */
export const rule: Rule = {
  id: "cli-flag-removed",
  severity: "breaking",
  category: "surface",
  // Flags are derived from input fields: a removed or renamed field is the edit, the flag follows.
  consequenceOf: ["input", "idempotency-key-field-renamed", "preview-confirm-token-field-renamed", "pagination-cursor-field-renamed", "http-binding-changed"],
  description: "A CLI command lost a flag: the flag was removed, or renamed while its input field stayed.",
  hint: "Update scripts that pass the flag: use the new flag, or pass the field through --input.",
  check: (ctx) =>
    ctx.find(["operations", "*", "cliFlags", "*"], ["removed"]).flatMap((m) => {
      const id = m.operation!;
      const flag = m.change.path.at(-1)!;
      const command = ctx.new_.operation(id)!.names.kebab;
      // The tree keeps flags only; which field a flag sets comes from the naming module.
      const field = cliFlagNames(ctx.old.operation(id)!).flags.find((f) => f.flag === flag)?.field;
      // A path parameter renamed in place names its flag change itself (input-path-parameter-renamed).
      if (field !== undefined && ctx.isRenamedPathParameter(id, field, "old")) return [];
      // A deprecated field removed once its sunset passed (or with none announced) takes its flag along, as announced.
      if (field !== undefined && !ctx.new_.operation(id)!.http.bindings.some((b) => b.field === field)) {
        const life = lifecycleAt(ctx.old, ["operations", id, "input", "properties", field]);
        if (life.deprecated && !sunsetAhead(ctx, life)) return [];
      }
      const successor = field === undefined ? undefined : cliFlagNames(ctx.new_.operation(id)!).flags.find((f) => f.field === field);
      const stillInput = field !== undefined && ctx.new_.operation(id)!.http.bindings.some((b) => b.field === field);
      const property = (f: string) => ["operations", id, "input", "properties", f];
      if (successor && successor.flag !== flag) {
        return [{
          operation: id,
          message: `Flag ${q(`--${flag}`)} of CLI command ${q(command)} was renamed to ${q(`--${successor.flag}`)}.`,
          before: property(field!),
          after: property(field!),
        }];
      }
      return [{
        operation: id,
        message: stillInput
          ? `Flag ${q(`--${flag}`)} was removed from CLI command ${q(command)}, although input ${q(field)} remained.`
          : `Flag ${q(`--${flag}`)} was removed from CLI command ${q(command)}.`,
        before: field !== undefined ? property(field) : ["operations", id, "cliFlags", flag],
        ...(stillInput ? { after: property(field!) } : {}),
      }];
    }),
};
