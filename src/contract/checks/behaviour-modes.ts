import { type Diagnostic, diagnostic } from "../../diagnostics/diagnostic.js";
import type { CheckContext } from "../context.js";
import { joinPointer } from "../source.js";

/**
 * What a preview needs versus what an execution needs: the operation key is required to execute, not
 * to look, so a previewable operation must not list its key in `input.required` (the adapters and the
 * host require it for executions only).
 */
export function checkPreviewKey(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { name, op, at, input } of ctx.operations()) {
    if (!op.preview || !op.idempotency || !input.isObject) continue;
    if (input.properties.get(op.idempotency.key)?.required) {
      out.push(
        diagnostic(
          "idempotency-key-blocks-preview",
          `Idempotency key ${JSON.stringify(op.idempotency.key)} of ${JSON.stringify(name)} is in input.required, so a preview could not be asked for without a key.`,
          ctx.file.locate(joinPointer(at, "idempotency", "key")),
        ),
      );
    }
  }
  return out;
}

/** An error that names its input field (`errors.<CODE>.field`) is only listed by operations that have that field. */
export function checkErrorFields(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const fieldOf = new Map(Object.entries(ctx.doc.errors).flatMap(([code, e]) => (e.field !== undefined ? [[code, e.field] as const] : [])));
  if (fieldOf.size === 0) return out;
  for (const { name, op, at, input } of ctx.operations()) {
    if (!input.isObject) continue;
    (op.errors ?? []).forEach((code, i) => {
      const field = fieldOf.get(code);
      if (field === undefined || input.properties.has(field)) return;
      out.push(
        diagnostic(
          "error-field-missing",
          `Error ${code} concerns the input field ${JSON.stringify(field)}, but ${JSON.stringify(name)}, which lists it, has no such field.`,
          ctx.file.locate(joinPointer(at, "errors", i)),
        ),
      );
    });
  }
  return out;
}
