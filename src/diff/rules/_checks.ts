import type { DiffContext, RuleFinding } from "../rule.js";
import type { TreeValue } from "../tree.js";
import { memberAt } from "./_members.js";

/*
 * Checks for rules that share one shape and differ only in what they look at and how they word it
 * (not a rule: files starting with "_" are not registered). Each rule still has its own file, id,
 * severity, description, hint and message.
 */

type Check = (ctx: DiffContext) => RuleFinding[];

/**
 * An operation's value at operations/<id>/<field> went from `from` to `to` (e.g. effects.destructive
 * false → true). Both sides point at the value.
 */
export function transition(field: readonly string[], from: TreeValue, to: TreeValue, message: (operation: string) => string): Check {
  return (ctx) =>
    ctx
      .find(["operations", "*", ...field], ["modified"])
      .filter((m) => m.change.before === from && m.change.after === to)
      .map((m) => ({
        operation: m.operation,
        message: message(m.operation!),
        before: m.change.path,
        after: m.change.path,
      }));
}

/**
 * A member was added to (or removed from) a set an operation writes as a list at
 * operations/<id>/<list> (scopes, filters, projection.selectable…). The finding points at the list
 * item on the side that has it.
 */
export function listMemberChange(list: readonly string[], kind: "added" | "removed", message: (member: string, operation: string) => string): Check {
  return (ctx) =>
    ctx.find(["operations", "*", ...list, "*"], [kind]).map((m) => {
      const id = m.operation!;
      const member = m.change.path.at(-1)!;
      return kind === "added"
        ? { operation: id, message: message(member, id), after: memberAt(ctx.new_, id, list, member) }
        : { operation: id, message: message(member, id), before: memberAt(ctx.old, id, list, member) };
    });
}
