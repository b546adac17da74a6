import type { Finding, Rule, RuleFinding, Severity, SharedTypeReach } from "../rule.js";
import { q } from "../rule.js";
import { WEBHOOK_PAYLOAD } from "./_schema.js";

const ORDER: Record<Severity, number> = { breaking: 0, warning: 1, info: 2 };
const worst = (severities: readonly Severity[]): Severity => severities.reduce((w, s) => (ORDER[s] < ORDER[w] ? s : w), "info");

/** Which side of the operations a finding is about: inputs, or what they return. */
const sideOf = (f: Finding): "input" | "output" => (f.category === "input" ? "input" : "output");

const count = (n: number) => `${n} operation${n === 1 ? "" : "s"}`;

/**
 * A shared type is one document node many operations reach: an edit of it is one change for every
 * one of them. The input-* and output-* rules judge it once per side; this rule gathers everything
 * reported inside one type into one finding on the type, with the operations it reaches on each
 * side. A new required property, say, is breaking where the type is sent (inputs) and compatible
 * where it is returned (outputs): the finding says which sides break, and takes the worst severity.
 */
export const rule: Rule = {
  id: "shared-type-changed",
  // The worst it can be: a grouped finding takes the worst severity of the findings it gathers.
  severity: "breaking",
  category: "type",
  phase: "group",
  description:
    "A shared type (under `types:`) changed: everything reported inside it is gathered into one finding on the type, listing the operations it reaches on each side (input, output); its severity is the worst of the gathered findings.",
  hint: "Check the operations listed for each side: the findings under this one say what changed and what callers must do.",
  check: (ctx) => {
    const byType = new Map<string, Finding[]>();
    for (const f of ctx.findings) {
      const path = ctx.pathOf(f);
      // Only what the input-* and output-* rules judged inside the type (not type-added, unused-type-changed…).
      if (!path || path[0] !== "types" || path.length < 2 || (f.category !== "input" && f.category !== "output")) continue;
      byType.set(path[1]!, [...(byType.get(path[1]!) ?? []), f]);
    }
    return [...byType].map(([name, covered]): RuleFinding => {
      const sides = (["input", "output"] as const).flatMap((side) => {
        const here = covered.filter((f) => sideOf(f) === side);
        if (here.length === 0) return [];
        const operations = [...new Set(here.flatMap((f) => f.operations))].sort();
        return [{ side, severity: worst(here.map((f) => f.severity)), operations }];
      });
      const type: SharedTypeReach = { name, sides };
      const operations = [...new Set(sides.flatMap((s) => s.operations))].sort();
      // One edit judged on both sides is one change.
      const changes = new Set(covered.map((f) => ctx.pathOf(f)!.join("\u0000"))).size;
      const edits = changes === 1 ? "" : ` (${changes} changes)`;
      const where = sides.map((s) => `${s.severity} for ${s.side === "input" ? "inputs" : "outputs"} (${count(s.operations.length)})`).join(", ");
      // Webhooks that send the type on both sides, when something consumers receive changed.
      const sentBefore = new Set(ctx.old.reaching(name, WEBHOOK_PAYLOAD));
      const webhooks = sides.some((s) => s.side === "output") ? ctx.new_.reaching(name, WEBHOOK_PAYLOAD).filter((id) => sentBefore.has(id)).length : 0;
      const reached = webhooks === 0 ? count(operations.length) : `${count(operations.length)} and ${webhooks} webhook${webhooks === 1 ? "" : "s"}`;
      const onOld = ctx.old.get(["types", name]) !== undefined;
      const onNew = ctx.new_.get(["types", name]) !== undefined;
      return {
        operation: operations.length === 1 ? operations[0]! : null,
        operations,
        message: `Shared type ${q(name)} changed${edits}, reaching ${reached}: ${where}.`,
        ...(onOld ? { before: ["types", name] } : {}),
        ...(onNew ? { after: ["types", name] } : {}),
        covers: covered,
        type,
      };
    });
  },
};
