import { q, type Rule } from "../rule.js";

/** A caller reading the answer from the old field reads nothing, or something else. */
export const rule: Rule = {
  id: "task-answer-field-changed",
  severity: "breaking",
  category: "outcome",
  description: "The output field that holds a task-level operation's answer (`task.answer`) changed or is no longer declared.",
  hint: "Read the answer from the new field; if none is declared, check the output schema for where it went.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "task", "answer"], ["modified"])
      .filter((m) => typeof m.change.before === "string")
      .map((m) => ({
        operation: m.operation,
        message:
          m.change.after === null
            ? `Operation ${q(m.operation)} no longer declares its answer field ${q(m.change.before)}.`
            : `The answer field of ${q(m.operation)} changed from ${q(m.change.before)} to ${q(m.change.after)}.`,
        before: m.change.path,
        after: m.change.path,
      })),
};
