/**
 * Compile-only (tsc --strict, see behaviour.test.ts): the generated SDK types each error code's
 * `details` from the contract, and `isContractError` narrows by `code`.
 */
import { type AnyContractError, type ContractErrorOf, isContractError } from "../../generated-examples/billing.v2/sdk/index.js";

export function refundedCents(error: unknown): number | null {
  if (!isContractError(error, "INVOICE_CHANGED")) return null;
  const details = error.details;
  // @ts-expect-error details may be null: the platform may send none
  details.refunded_cents;
  // @ts-expect-error INVOICE_CHANGED declares refunded_cents, not revision
  details?.revision;
  return details?.refunded_cents ?? null;
}

export function describeError(error: AnyContractError): string {
  switch (error.code) {
    case "REVISION_CONFLICT":
      return `now at revision ${error.details?.revision ?? "?"}`;
    case "INVALID_FIELD":
      return (error.details?.problems ?? []).map((p) => `${p.field ?? "input"}: ${p.message}`).join("; ");
    case "REFUND_EXCEEDS_BALANCE":
      return `at most ${error.details?.refundable_cents ?? "?"} cents`;
    default:
      return error.message;
  }
}

// A code outside the taxonomy is not an error code of this contract.
// @ts-expect-error NOT_A_CODE is not in the billing taxonomy
export type Nope = ContractErrorOf<"NOT_A_CODE">;
