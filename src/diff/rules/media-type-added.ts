import { q, type Rule } from "../rule.js";
import { mediaTypeChanges } from "./_media.js";

/** Another representation beside the ones there were: nobody who used the old ones is affected. */
export const rule: Rule = {
  id: "media-type-added",
  severity: "info",
  category: "transport",
  description: "An operation's request body is accepted, or its success response offered, in a media type it was not before.",
  hint: "Nothing to do; callers may use the new media type.",
  check: (ctx) =>
    mediaTypeChanges(ctx, "added").map((c) => ({
      operation: c.operation,
      message:
        c.direction === "request"
          ? `The request body of ${q(c.operation)} is now also accepted as ${q(c.type)}.`
          : `The success response of ${q(c.operation)} is now also offered as ${q(c.type)}.`,
      after: c.path,
    })),
};
