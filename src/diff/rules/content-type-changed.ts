import { q, type Rule } from "../rule.js";
import { acceptedTypes, sendsBody } from "../../model/media.js";
import { rawAt } from "./_members.js";

/**
 * The request body is encoded as another media type (JSON, form-urlencoded, multipart) and the
 * platform no longer takes the old one. When it still does (the document lists it beside the new
 * one), callers are unaffected: media-type-preferred-changed.
 */
export const rule: Rule = {
  id: "content-type-changed",
  severity: "breaking",
  category: "transport",
  description: "The media type of an operation's request body changed (application/json, application/x-www-form-urlencoded, multipart/form-data).",
  hint: "Regenerate the SDK; hand-written HTTP clients must encode the body as the new media type.",
  check: (ctx) =>
    ctx.find(["operations", "*", "http", "contentType"], ["modified"]).flatMap((m) => {
      const id = m.operation!;
      const before = ctx.old.operation(id)!;
      const after = ctx.new_.operation(id)!;
      // No body on one side: nothing was (or is) encoded; the body's fields are the input rules' to judge.
      if (!sendsBody(before) || !sendsBody(after) || acceptedTypes(after).has(m.change.before as string)) return [];
      const at = (side: typeof ctx.old) => (rawAt(side, id, "http", "contentType") !== undefined ? ["operations", id, "http", "contentType"] : ["operations", id, "http"]);
      return [{
        operation: id,
        message: `The request body of ${q(id)} is sent as ${q(m.change.after)}, no longer as ${q(m.change.before)}.`,
        before: at(ctx.old),
        after: at(ctx.new_),
      }];
    }),
};
