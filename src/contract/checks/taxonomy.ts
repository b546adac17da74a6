import { type Diagnostic, diagnostic } from "../../diagnostics/diagnostic.js";
import type { ErrorClass, RecoveryAction } from "../../model/types.js";
import type { CheckContext } from "../context.js";
import { joinPointer } from "../source.js";

/** The recovery actions that make sense for each class of error. */
export const ACTIONS_BY_CLASS: Readonly<Record<ErrorClass, readonly RecoveryAction[]>> = {
  invalid_input: ["fix_field", "verify_identifier", "stop_and_surface"],
  not_found: ["verify_identifier", "reread_and_replan", "stop_and_surface"],
  conflict: ["reread_and_replan", "reconcile", "stop_and_surface", "fix_field"],
  permission: ["stop_and_surface", "reauthenticate"],
  unauthenticated: ["reauthenticate", "stop_and_surface"],
  rate_limited: ["retry_after", "retry_same_key"],
  transient: ["retry_same_key", "retry_after", "reconcile"],
  internal: ["stop_and_surface", "reconcile", "retry_same_key"],
};

/** Conventional HTTP statuses per class. */
export function statusFits(errorClass: ErrorClass, status: number): boolean {
  switch (errorClass) {
    case "invalid_input":
      return status === 400 || status === 422 || status === 413 || status === 415;
    case "not_found":
      return status === 404 || status === 410;
    case "conflict":
      return status === 409 || status === 412 || status === 423 || status === 428;
    case "permission":
      return status === 403;
    case "unauthenticated":
      return status === 401;
    case "rate_limited":
      return status === 429;
    case "transient":
      return status === 408 || status >= 500;
    case "internal":
      return status >= 500;
  }
}

/** Each error's action and status fit its class. */
export function checkTaxonomy(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [code, def] of Object.entries(ctx.doc.errors)) {
    const at = joinPointer("/errors", code);
    const errorClass = def.class as ErrorClass;
    if (!ACTIONS_BY_CLASS[errorClass].includes(def.action as RecoveryAction)) {
      out.push(
        diagnostic(
          "error-action-mismatch",
          `Error ${code} is ${errorClass} but its recovery action is ${def.action}.`,
          ctx.file.locate(joinPointer(at, "action")),
          `For ${errorClass} errors use one of: ${ACTIONS_BY_CLASS[errorClass].join(", ")}.`,
        ),
      );
    }
    if (!statusFits(errorClass, def.http)) {
      out.push(diagnostic("error-status-mismatch", `Error ${code} is ${errorClass} but answers HTTP ${def.http}.`, ctx.file.locate(joinPointer(at, "http"))));
    }
  }
  return out;
}
