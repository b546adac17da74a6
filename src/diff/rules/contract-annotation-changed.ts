import { type Match, q, type Rule } from "../rule.js";

/** Where the contract speaks to readers, not to callers: the tree paths of those fields. */
const PLACES: ReadonlyArray<{ readonly pattern: readonly string[]; readonly what: (m: Match) => string }> = [
  { pattern: ["title"], what: () => "The contract's title" },
  { pattern: ["description"], what: () => "The contract's description" },
  { pattern: ["toolsets", "*"], what: (m) => `Toolset ${q(m.captures[0]![0])}` },
  { pattern: ["extensions", "*"], what: (m) => `Extension ${q(m.captures[0]![0])}` },
  { pattern: ["errors", "*", "description"], what: (m) => `The description of error ${q(m.captures[0]![0])}` },
  { pattern: ["errors", "*", "since"], what: (m) => `The "since" version of error ${q(m.captures[0]![0])}` },
  { pattern: ["operations", "*", "description"], what: (m) => `The description of ${q(m.operation)}` },
  { pattern: ["operations", "*", "mcpTitle"], what: (m) => `The MCP title of ${q(m.operation)}` },
  { pattern: ["operations", "*", "extensions", "*"], what: (m) => `Extension ${q(m.captures[1]![0])} of ${q(m.operation)}` },
];

/** Documentation and vendor extensions: what readers and generated docs see, nothing a call depends on. */
export const rule: Rule = {
  id: "contract-annotation-changed",
  severity: "info",
  category: "operation",
  description: "Documentation outside schemas changed: the contract's title or description, a toolset's description, an x- extension, an error's description or `since`, an operation's description or MCP title.",
  hint: "Nothing to do; regenerate adapters to carry the new documentation.",
  check: (ctx) =>
    PLACES.flatMap(({ pattern, what }) =>
      ctx.find(pattern).map((m) => ({
        operation: m.operation,
        message: `${what(m)} was ${m.change.kind === "modified" ? "changed" : m.change.kind}.`,
        ...(m.change.kind !== "added" ? { before: m.change.path } : {}),
        ...(m.change.kind !== "removed" ? { after: m.change.path } : {}),
      })),
    ),
};
