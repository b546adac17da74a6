import { q, type Rule } from "../rule.js";
import { mediaTypeChanges } from "./_media.js";

/**
 * A media type the platform accepted the body in is no longer accepted: callers that send it get
 * 415. The type generated clients sent is content-type-changed's to report; this one reports the
 * others the document listed.
 */
export const rule: Rule = {
  id: "request-media-type-removed",
  severity: "breaking",
  category: "transport",
  description: "A media type the request body was accepted in, beside the one generated clients send, is no longer accepted.",
  hint: "Callers that send the body in that media type must switch to one still accepted.",
  check: (ctx) =>
    mediaTypeChanges(ctx, "removed")
      .filter((c) => c.direction === "request" && !(c.type === ctx.old.operation(c.operation)!.http.contentType && ctx.new_.operation(c.operation)!.http.contentType !== c.type))
      .map((c) => ({
        operation: c.operation,
        message: `The request body of ${q(c.operation)} is no longer accepted as ${q(c.type)}.`,
        before: c.path,
      })),
};
