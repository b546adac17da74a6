import { type DiffSide, q, type Rule } from "../rule.js";
import { rawAt } from "./_members.js";

/** "query:deepObject*" → ["query", "deepObject", true]. */
function split(value: unknown): [string, string, boolean] {
  const s = String(value);
  const i = s.indexOf(":");
  const style = s.slice(i + 1);
  return [s.slice(0, i), style.replace(/\*$/, ""), style.endsWith("*")];
}

function describe(value: unknown): string {
  const [, style, explode] = split(value);
  return `${style}${explode ? " (exploded)" : ""}`;
}

/** Where the document states a field's serialization: its `http.params` or `http.encoding` entry, else the property. */
function stylePath(side: DiffSide, id: string, field: string, where: string): string[] {
  const key = where === "body" ? "encoding" : "params";
  const entries = rawAt(side, id, "http", key);
  if (typeof entries === "object" && entries !== null && Object.hasOwn(entries, field)) return ["operations", id, "http", key, field];
  return ["operations", id, "input", "properties", field];
}

/**
 * A parameter (or form field) serialized with another style or explode: `created[gt]=1` becomes
 * `created=gt,1`, `tags=a|b` becomes `tags=a&tags=b`. The platform reads the old form only.
 * A move to another location is http-binding-changed's finding, not this one.
 */
export const rule: Rule = {
  id: "param-style-changed",
  severity: "breaking",
  category: "transport",
  description: "A path, query, header, cookie or form field is serialized with another style or explode.",
  hint: "Regenerate the SDK; hand-written HTTP clients must serialize the field the new way (OpenAPI style and explode).",
  check: (ctx) =>
    ctx.find(["operations", "*", "http", "styles", "*"], ["modified"]).flatMap((m) => {
      const [before] = split(m.change.before);
      const [after] = split(m.change.after);
      if (before !== after) return [];
      const id = m.operation!;
      const field = m.change.path.at(-1)!;
      return [
        {
          operation: id,
          message: `Input ${q(field)} of ${q(id)} is serialized as ${describe(m.change.after)}, no longer as ${describe(m.change.before)}.`,
          before: stylePath(ctx.old, id, field, before),
          after: stylePath(ctx.new_, id, field, after),
        },
      ];
    }),
};
