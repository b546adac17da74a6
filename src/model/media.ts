import type { OperationModel } from "./types.js";

/*
 * The media types an operation's request body is accepted in and its success response is offered
 * in. The contract models one of each (http.contentType, http.accept: what generated clients use)
 * and lists the others the document declares (http.alsoAccepts, http.alsoOffers), so the diff can
 * tell a second media type beside the first from a change of type.
 */

const JSON_TYPE = "application/json";

/** Whether an operation sends a request body at all (a body field, the whole-body field, or an empty body it must send). */
export function sendsBody(op: OperationModel): boolean {
  return op.http.body !== null || op.http.bodyRequired || op.http.bindings.some((b) => b.in === "body");
}

/** The media types the platform accepts the request body in. */
export function acceptedTypes(op: OperationModel): Set<string> {
  return new Set([...(sendsBody(op) ? [op.http.contentType] : []), ...op.http.alsoAccepts]);
}

/** The media type generated clients ask for. */
export function askedType(op: OperationModel): string {
  return op.http.accept ?? JSON_TYPE;
}

/** Whether the success response has a body (an output that is only null has none to offer in any type). */
export function answersWithBody(op: OperationModel): boolean {
  const s = op.output.schema as Record<string, unknown>;
  return !(typeof s === "object" && s !== null && s.type === "null" && Object.keys(s).length === 1);
}

/** The media types the success response is offered in. */
export function offeredTypes(op: OperationModel): Set<string> {
  return new Set([...(answersWithBody(op) ? [askedType(op)] : []), ...op.http.alsoOffers]);
}

