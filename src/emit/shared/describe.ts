import type { ContractModel, OperationModel } from "../../model/types.js";

/** One sentence on what calling the operation does to the world (for JSDoc and --help). */
export function effectsLine(op: OperationModel): string {
  const e = op.effects;
  if (e.kind === "read") return "Effects: read-only; safe to retry.";
  const parts = [
    "mutating",
    e.destructive ? "destructive" : "non-destructive",
    e.reversible ? "reversible" : "irreversible",
    e.idempotent === "key"
      ? `idempotent under its operation key \`${op.idempotency?.keyField}\` (kept ${op.idempotency?.retention}; omit it to let the journal pick or recover one${op.idempotency?.keyRequired === false ? ": the platform would take a call without one as a new intent, so one is always sent" : ""})`
      : e.idempotent === "natural"
        ? "naturally idempotent"
        : "not idempotent (never retried automatically)",
  ];
  if (e.openWorld) parts.push("reaches systems outside the platform");
  return `Effects: ${parts.join(", ")}.`;
}

/** The errors an operation can raise, each with its class and recovery action. */
export function errorsLine(model: ContractModel, op: OperationModel): string | null {
  if (op.errors.length === 0) return null;
  const byCode = new Map(model.errors.map((e) => [e.code, e]));
  const items = op.errors.map((ref) => {
    const e = byCode.get(ref.code);
    return e ? `${e.code} (${e.class} → ${e.action})` : ref.code;
  });
  return `Errors: ${items.join(", ")}.`;
}

