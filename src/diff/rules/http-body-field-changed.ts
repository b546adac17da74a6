import { sendsBody } from "../../model/media.js";
import { q, type Rule } from "../rule.js";

function describe(field: unknown): string {
  return field === null || field === undefined ? "an object of its body fields" : `the value of ${q(String(field))}`;
}

/**
 * `{"labels": [...]}` and `[...]` are different requests: the platform reads one of them. A body
 * that appears where none was sent (or goes) is no reshaping: the input rules judge its field.
 */
export const rule: Rule = {
  id: "http-body-field-changed",
  severity: "breaking",
  category: "transport",
  description: "The request body changed between a whole-body field (http.body) and an object of fields, or to another whole-body field.",
  hint: "Regenerate the SDK; hand-written HTTP clients must send the body as the new contract shapes it.",
  check: (ctx) =>
    ctx.find(["operations", "*", "http", "body"], ["modified", "added", "removed"]).flatMap((m) => {
      const id = m.operation!;
      if (!sendsBody(ctx.old.operation(id)!) || !sendsBody(ctx.new_.operation(id)!)) return [];
      return {
        operation: id,
        message: `The request body of ${q(id)} changed from ${describe(m.change.before)} to ${describe(m.change.after)}.`,
        before: m.change.before === null || m.change.before === undefined ? ["operations", id, "http"] : m.change.path,
        after: m.change.after === null || m.change.after === undefined ? ["operations", id, "http"] : m.change.path,
      };
    }),
};
