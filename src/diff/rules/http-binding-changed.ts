import { type DiffSide, q, type Rule } from "../rule.js";
import { memberAt, rawAt } from "./_members.js";

const WHERE: Record<string, string> = { path: "path parameter", query: "query parameter", header: "header", cookie: "cookie", body: "body property" };

/** "header:Idempotency-Key" → ["header", "Idempotency-Key"]. */
function split(binding: unknown): [string, string] {
  const s = String(binding);
  const i = s.indexOf(":");
  return [s.slice(0, i), s.slice(i + 1)];
}

function describe(binding: unknown): string {
  const [where, name] = split(binding);
  return `${WHERE[where] ?? where} ${q(name)}`;
}

/** Where the document decides a field's binding: the path template, its header entry, its query entry, else the property. */
function bindingPath(side: DiffSide, id: string, field: string, binding: unknown): string[] {
  const [where] = split(binding);
  if (where === "path") return ["operations", id, "http", "path"];
  if (where === "header") return ["operations", id, "http", "headers", field];
  if (where === "cookie") return ["operations", id, "http", "cookies", field];
  const query = rawAt(side, id, "http", "query");
  if (where === "query" && Array.isArray(query) && query.includes(field)) return memberAt(side, id, ["http", "query"], field);
  return ["operations", id, "input", "properties", field];
}

/** A field sent somewhere else, or under another wire name, is not seen by the platform any more. */
export const rule: Rule = {
  id: "http-binding-changed",
  severity: "breaking",
  category: "transport",
  description: "An input field moved between path, query, header and body, or changed its wire name.",
  hint: "Regenerate the SDK; hand-written HTTP clients must send the field where the new contract binds it.",
  check: (ctx) =>
    ctx.find(["operations", "*", "http", "bindings", "*"], ["modified"]).map((m) => {
      const id = m.operation!;
      const field = m.change.path.at(-1)!;
      return {
        operation: id,
        message: `Input ${q(field)} of ${q(id)} moved from ${describe(m.change.before)} to ${describe(m.change.after)}.`,
        before: bindingPath(ctx.old, id, field, m.change.before),
        after: bindingPath(ctx.new_, id, field, m.change.after),
      };
    }),
};
