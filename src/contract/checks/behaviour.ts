import { type Diagnostic, diagnostic } from "../../diagnostics/diagnostic.js";
import { type CheckContext, keywordOf } from "../context.js";
import { joinPointer } from "../source.js";

/** Effects, idempotency, preview/confirm, preconditions and outcomes agree with each other and the input. */
export function checkBehaviour(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { file } = ctx;
  for (const { name, op, at, input, output } of ctx.operations()) {
    const effects = op.effects;
    const isRead = effects.kind === "read";

    if (isRead && effects.destructive === true) {
      out.push(diagnostic("effects-inconsistent", `${JSON.stringify(name)} is a read but is marked destructive.`, file.locate(joinPointer(at, "effects", "destructive"))));
    }
    if (isRead && effects.idempotent !== undefined && effects.idempotent !== "natural") {
      out.push(diagnostic("effects-inconsistent", `${JSON.stringify(name)} is a read; its idempotency is natural, not ${effects.idempotent}.`, file.locate(joinPointer(at, "effects", "idempotent"))));
    }

    if (op.idempotency) {
      const ip = joinPointer(at, "idempotency");
      if (isRead) {
        out.push(diagnostic("read-with-idempotency-key", `${JSON.stringify(name)} is a read operation but declares idempotency key ${JSON.stringify(op.idempotency.key)}.`, file.locateKey(ip)));
      } else if (effects.idempotent !== "key") {
        out.push(diagnostic("idempotency-mode-mismatch", `${JSON.stringify(name)} declares an idempotency key but effects.idempotent is ${JSON.stringify(effects.idempotent)}, not "key".`, file.locate(joinPointer(at, "effects", "idempotent"))));
      }
      if (input.isObject) {
        const field = input.properties.get(op.idempotency.key);
        if (!field) {
          out.push(diagnostic("idempotency-key-missing", `Idempotency key ${JSON.stringify(op.idempotency.key)} of ${JSON.stringify(name)} is not an input property.`, file.locate(joinPointer(ip, "key"))));
        } else if (op.idempotency.keyRequired === false) {
          // The platform accepts a key-less call (a separate intent): the input must not demand a key.
          // With a preview, idempotency-key-blocks-preview already reports a required key.
          if (field.required && !op.preview) {
            out.push(diagnostic("idempotency-key-optional-but-required", `Idempotency key ${JSON.stringify(op.idempotency.key)} of ${JSON.stringify(name)} is in input.required, but idempotency.keyRequired is false.`, file.locate(joinPointer(ip, "keyRequired"))));
          }
        } else if (!field.required && !op.preview) {
          // With a preview the key is required to execute only (checkPreviewKey).
          out.push(diagnostic("idempotency-key-not-required", `Idempotency key ${JSON.stringify(op.idempotency.key)} of ${JSON.stringify(name)} is not in input.required.`, file.locate(joinPointer(ip, "key"))));
        }
      }
    } else if (!isRead && effects.idempotent === "key") {
      out.push(diagnostic("idempotency-mode-mismatch", `${JSON.stringify(name)} has effects.idempotent "key" but no \`idempotency\` block naming the key field.`, file.locate(joinPointer(at, "effects", "idempotent"))));
    }

    if (op.preview) {
      const pp = joinPointer(at, "preview");
      if (isRead) out.push(diagnostic("preview-on-read", `${JSON.stringify(name)} is a read operation but declares a preview.`, file.locateKey(pp)));
      if (input.isObject) {
        const dry = input.properties.get(op.preview.dryRun);
        if (!dry || !ctx.declares(dry, "boolean")) {
          out.push(diagnostic("preview-dry-run-missing", `Dry-run field ${JSON.stringify(op.preview.dryRun)} of ${JSON.stringify(name)} is ${dry ? "not a boolean" : "not an input property"}.`, file.locate(joinPointer(pp, "dryRun"))));
        } else {
          const schemaDefault = keywordOf(dry.value, "default");
          const declared = op.preview.default ?? true;
          if (schemaDefault !== undefined && schemaDefault !== declared) {
            out.push(diagnostic("preview-default-mismatch", `Field ${JSON.stringify(op.preview.dryRun)} defaults to ${JSON.stringify(schemaDefault)} but preview.default is ${declared}.`, dry.file.locate(joinPointer(dry.pointer, "default"))));
          }
        }
        if (!input.properties.has(op.preview.confirmToken)) {
          out.push(diagnostic("preview-confirm-token-missing", `Confirm-token field ${JSON.stringify(op.preview.confirmToken)} of ${JSON.stringify(name)} is not an input property.`, file.locate(joinPointer(pp, "confirmToken"))));
        }
      }
    }

    if (!isRead && effects.destructive === true && !op.preview && !op.idempotency) {
      out.push(diagnostic("destructive-unguarded", `${JSON.stringify(name)} is destructive but has neither a preview nor an idempotency key.`, file.locate(joinPointer(at, "effects", "destructive"))));
    }

    if (input.isObject) {
      (op.preconditions ?? []).forEach((p, i) => {
        const field = input.properties.get(p.field);
        if (!field) {
          out.push(diagnostic("precondition-field-missing", `Precondition field ${JSON.stringify(p.field)} of ${JSON.stringify(name)} is not an input property.`, file.locate(joinPointer(at, "preconditions", i, "field"))));
        } else if (p.required === true && !field.required) {
          out.push(diagnostic("precondition-not-required", `Precondition field ${JSON.stringify(p.field)} of ${JSON.stringify(name)} is required by the precondition but optional in the input.`, file.locate(joinPointer(at, "preconditions", i, "required"))));
        }
      });
    }

    const partial = op.outcomes?.partial?.field;
    if (partial !== undefined && output.isObject) {
      const field = output.properties.get(partial);
      if (!field || !ctx.declares(field, "array")) {
        out.push(diagnostic("outcome-partial-field-missing", `Partial-completion field ${JSON.stringify(partial)} of ${JSON.stringify(name)} is not an array in the output.`, file.locate(joinPointer(at, "outcomes", "partial", "field"))));
      }
    }
  }
  return out;
}
