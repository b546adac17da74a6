import { q, type Rule } from "../rule.js";
import { preferredTypeChanges } from "./_media.js";

/**
 * Generated clients switch to another media type the platform takes, while the old one stays
 * taken: nothing changes on the wire for callers that keep the old one, but a regenerated SDK or CLI
 * sends or reads the new one (a CSV string becomes JSON, a form becomes a JSON body), which its
 * users see in their types.
 */
export const rule: Rule = {
  id: "media-type-preferred-changed",
  severity: "warning",
  category: "transport",
  description: "Generated clients send the request body, or ask for the success response, in another media type the operation already took; the old one is still taken.",
  hint: "Wire callers are unaffected. Users of a regenerated SDK or CLI get the new media type's shape: review code that reads the result or builds the body.",
  check: (ctx) =>
    preferredTypeChanges(ctx).map((c) => {
      const at = ["operations", c.operation, "http", c.direction === "request" ? "contentType" : "accept"];
      return {
        operation: c.operation,
        message:
          c.direction === "request"
            ? `Generated clients of ${q(c.operation)} send the request body as ${q(c.to)} instead of ${q(c.from)}, which is still accepted.`
            : `Generated clients of ${q(c.operation)} ask for ${q(c.to)} instead of ${q(c.from)}, which is still offered; the output they return is the new type's.`,
        before: at,
        after: at,
      };
    }),
};
