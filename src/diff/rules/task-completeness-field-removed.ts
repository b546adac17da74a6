import { q, type Rule, type RuleFinding } from "../rule.js";

const WHAT: Record<string, string> = { recordsExamined: "records-examined", complete: "complete", continuation: "continuation" };

/** Without it a caller cannot tell "0 matches" from "0 matches in the part that was examined". */
export const rule: Rule = {
  id: "task-completeness-field-removed",
  severity: "breaking",
  category: "outcome",
  description: "A task-level operation stopped declaring a scope field (records examined, complete or continuation), or its task block.",
  hint: "Do not treat the result as covering the whole scope on the strength of that field any more.",
  check: (ctx) => {
    const out: RuleFinding[] = [];
    for (const m of ctx.find(["operations", "*", "task"], ["removed"])) {
      const task = ctx.old.operation(m.operation!)!.task!;
      const fields = [task.recordsExaminedField, task.completeField, task.continuationField].filter((f): f is string => f !== null);
      out.push({
        operation: m.operation,
        message: `Operation ${q(m.operation)} stopped declaring its task scope fields ${fields.map(q).join(", ")}.`,
        before: m.change.path,
      });
    }
    for (const key of ["recordsExamined", "complete", "continuation"]) {
      for (const m of ctx.find(["operations", "*", "task", key], ["modified"])) {
        if (typeof m.change.before !== "string" || m.change.after !== null) continue;
        out.push({
          operation: m.operation,
          message: `Operation ${q(m.operation)} stopped declaring its ${WHAT[key]} field ${q(m.change.before)}.`,
          before: m.change.path,
        });
      }
    }
    return out;
  },
};
