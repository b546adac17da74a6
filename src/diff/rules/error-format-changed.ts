import type { ErrorFormat } from "../../model/types.js";
import { q, type Rule } from "../rule.js";

/** A format in words: its style and the pointers it reads. */
function describe(f: ErrorFormat): string {
  const pointers = (["code", "message", "field"] as const).filter((k) => f[k] !== null).map((k) => `${k} at ${f[k]}`);
  return pointers.length > 0 ? `${q(f.style)} (${pointers.join(", ")})` : q(f.style);
}

/**
 * Generated clients read errors the way the format said when they were generated: under another
 * format the platform's errors no longer arrive as their codes (class, recovery action) but as
 * undeclared errors, and a host or test suite built on the old one answers or expects the wrong body.
 */
export const rule: Rule = {
  id: "error-format-changed",
  severity: "breaking",
  category: "error",
  description: "How the platform reports errors on the wire changed (`transport.http.errorFormat`: style or pointers).",
  hint: "Regenerate every client, host and contract test suite together with the platform's change; clients generated before it no longer recognise its errors.",
  check: (ctx) => {
    const changed = ctx.find(["transport", "errorFormat", "*"], ["modified"]);
    if (changed.length === 0) return [];
    const path = ["transport", "errorFormat"];
    return [
      {
        operation: null,
        message: `The error format changed from ${describe(ctx.old.model.transport.errorFormat)} to ${describe(ctx.new_.model.transport.errorFormat)}.`,
        before: path,
        after: path,
      },
    ];
  },
};
