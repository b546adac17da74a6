import { q, type Rule } from "../rule.js";
import { mediaTypeChanges } from "./_media.js";

/** A representation of the success response is no longer offered: callers that ask for it get 406 or another type. */
export const rule: Rule = {
  id: "output-media-type-removed",
  severity: "breaking",
  category: "transport",
  description: "A media type the success response was offered in is no longer offered.",
  hint: "Callers that ask for that media type must ask for one still offered, and read it.",
  check: (ctx) =>
    mediaTypeChanges(ctx, "removed")
      .filter((c) => c.direction === "response")
      .map((c) => ({
        operation: c.operation,
        message: `The success response of ${q(c.operation)} is no longer offered as ${q(c.type)}.`,
        before: c.path,
      })),
};
