import { acceptedTypes, answersWithBody, askedType, offeredTypes, sendsBody } from "../../model/media.js";
import type { OperationModel } from "../../model/types.js";
import type { DiffContext } from "../rule.js";
import { commonOperations } from "./_pairs.js";

/*
 * Changes to the media types an operation takes (not a rule: files starting with "_" are not
 * registered). What an operation accepts and offers is the model's (model/media.ts).
 */

export type MediaDirection = "request" | "response";

export interface MediaChange {
  readonly operation: string;
  readonly direction: MediaDirection;
  readonly type: string;
  /** Tree path of the type (in http.accepts or http.offers) on the side that has it. */
  readonly path: string[];
}

/** Media types added to (or removed from) what each operation on both sides accepts and offers. */
export function mediaTypeChanges(ctx: DiffContext, kind: "added" | "removed"): MediaChange[] {
  const out: MediaChange[] = [];
  for (const id of commonOperations(ctx)) {
    const before = ctx.old.operation(id)!;
    const after = ctx.new_.operation(id)!;
    for (const direction of ["request", "response"] as const) {
      const types = direction === "request" ? acceptedTypes : offeredTypes;
      const [from, to] = kind === "added" ? [before, after] : [after, before];
      const had = types(from);
      for (const type of [...types(to)].sort()) if (!had.has(type)) out.push({ operation: id, direction, type, path: ["operations", id, "http", direction === "request" ? "accepts" : "offers", type] });
    }
  }
  return out;
}

/**
 * The media type generated clients use changed while the platform still takes the old one: a
 * request body now sent as another accepted type, or a response now asked for in another offered
 * type. Callers that keep the old type are unaffected.
 */
export function preferredTypeChanges(ctx: DiffContext): Array<{ operation: string; direction: MediaDirection; from: string; to: string }> {
  const out: Array<{ operation: string; direction: MediaDirection; from: string; to: string }> = [];
  for (const id of commonOperations(ctx)) {
    const before = ctx.old.operation(id)!;
    const after = ctx.new_.operation(id)!;
    if (before.http.contentType !== after.http.contentType && sendsBody(before) && acceptedTypes(after).has(before.http.contentType)) {
      out.push({ operation: id, direction: "request", from: before.http.contentType, to: after.http.contentType });
    }
    if (askedTypeStillOffered(before, after)) {
      out.push({ operation: id, direction: "response", from: askedType(before), to: askedType(after) });
    }
  }
  return out;
}

/** Whether the response type generated clients asked for is still offered, under another one: the output is then not compared as one type changing into another. */
export function askedTypeStillOffered(before: OperationModel, after: OperationModel): boolean {
  return askedType(before) !== askedType(after) && answersWithBody(before) && offeredTypes(after).has(askedType(before));
}
