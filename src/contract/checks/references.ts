import { type Diagnostic, diagnostic } from "../../diagnostics/diagnostic.js";
import { type CheckContext, type ObjectShape } from "../context.js";
import type { RawOperation } from "../raw.js";
import { joinPointer } from "../source.js";
import { closest } from "../structure.js";

/** What an operation's preconditions compare against, as written or inferred (not yet checked to exist). */
export interface TargetRef {
  readonly kind: "type" | "read";
  /** The type name or the read operation's name. */
  readonly name: string;
  readonly inferred: boolean;
}

const own = (o: object | undefined, key: string): boolean => o !== undefined && Object.prototype.hasOwnProperty.call(o, key);

/** ` (did you mean "x"?)` when a candidate is a plausible typo of `word`, else "". */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const best = closest(word, [...candidates]);
  return best !== undefined ? ` (did you mean ${JSON.stringify(best)}?)` : "";
}

/**
 * The target of an operation: `target.type`, `target.readWith`, or — for an operation with
 * preconditions and no `target` — the GET read whose path is the longest prefix of its own, path
 * parameters included (PATCH /items/{item_id} and PUT /items/{item_id}/owner → GET /items/{item_id}).
 */
export function operationTarget(ctx: CheckContext, name: string, op: RawOperation): TargetRef | undefined {
  if (op.target?.type !== undefined) return { kind: "type", name: op.target.type, inferred: false };
  if (op.target?.readWith !== undefined) return { kind: "read", name: op.target.readWith, inferred: false };
  if ((op.preconditions ?? []).length === 0) return undefined;
  const segments = op.http.path.split("/");
  let best: { name: string; length: number } | undefined;
  for (const [other, candidate] of Object.entries(ctx.doc.operations)) {
    if (other === name || candidate.effects.kind !== "read" || candidate.http.method !== "GET") continue;
    const path = candidate.http.path.split("/");
    if (!path.some((s) => /^\{[^{}]+\}$/.test(s)) || path.length > segments.length) continue;
    if (path.every((s, i) => s === segments[i]) && (!best || path.length > best.length)) best = { name: other, length: path.length };
  }
  return best ? { kind: "read", name: best.name, inferred: true } : undefined;
}

/** Preconditions compare fields the target really has; the target itself exists. */
export function checkPreconditionTargets(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { file, doc } = ctx;
  for (const { name, op, at } of ctx.operations()) {
    const target = operationTarget(ctx, name, op);
    const preconditions = op.preconditions ?? [];
    let shape: ObjectShape | undefined;
    let described = "";
    if (target?.kind === "type") {
      if (!own(doc.types, target.name)) {
        out.push(diagnostic("precondition-target-invalid", `Target type ${JSON.stringify(target.name)} of ${JSON.stringify(name)} is not declared in \`types\`${didYouMean(target.name, Object.keys(doc.types ?? {}))}.`, file.locate(joinPointer(at, "target", "type"))));
      } else {
        shape = ctx.shape(file, joinPointer("/types", target.name));
        described = `type ${target.name}`;
      }
    } else if (target?.kind === "read") {
      const reader = own(doc.operations, target.name) ? doc.operations[target.name]! : undefined;
      const pointer = joinPointer(at, "target", "readWith");
      if (!reader) {
        out.push(diagnostic("operation-ref-unknown", `readWith ${JSON.stringify(target.name)} of ${JSON.stringify(name)} is not an operation${didYouMean(target.name, Object.keys(doc.operations))}.`, file.locate(pointer)));
      } else if (reader.effects.kind !== "read") {
        out.push(diagnostic("precondition-target-invalid", `readWith ${JSON.stringify(target.name)} of ${JSON.stringify(name)} is not a read operation.`, file.locate(pointer)));
      } else {
        shape = ctx.outputShape(target.name);
        described = `the output of ${target.name}`;
      }
    } else if (preconditions.length > 0) {
      out.push(diagnostic("precondition-target-undeclared", `The preconditions of ${JSON.stringify(name)} compare fields of a target that is neither declared nor inferable (no GET read at a prefix of ${op.http.path}).`, file.locateKey(joinPointer(at, "preconditions"))));
    }
    if (!shape) continue;
    const properties = shape.properties;
    preconditions.forEach((p, i) => {
      const compares = p.compares ?? "revision";
      if (properties.has(compares)) return;
      const pointer = joinPointer(at, "preconditions", i, ...(p.compares !== undefined ? ["compares"] : []));
      const implicit = p.compares === undefined ? " (the default for kind revision)" : "";
      out.push(diagnostic("precondition-compares-unknown", `Precondition ${JSON.stringify(p.field)} of ${JSON.stringify(name)} compares ${JSON.stringify(compares)}${implicit}, which is not a property of ${described}${didYouMean(compares, properties.keys())}.`, file.locate(pointer)));
    });
  }
  return out;
}

/** `effects.undo` names a mutating operation that takes the result's identity. */
export function checkUndo(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { file, doc } = ctx;
  for (const { name, op, at, output } of ctx.operations()) {
    const undo = op.effects.undo;
    if (undo === undefined) continue;
    const pointer = joinPointer(at, "effects", "undo");
    if (op.effects.kind === "read") {
      out.push(diagnostic("effects-inconsistent", `${JSON.stringify(name)} is a read; it has no effect for ${JSON.stringify(undo)} to undo.`, file.locate(pointer)));
      continue;
    }
    if (op.effects.reversible === false) {
      out.push(diagnostic("effects-inconsistent", `${JSON.stringify(name)} is marked irreversible but names ${JSON.stringify(undo)} as its undo.`, file.locate(joinPointer(at, "effects", "reversible"))));
    }
    const inverse = own(doc.operations, undo) ? doc.operations[undo]! : undefined;
    if (!inverse) {
      out.push(diagnostic("operation-ref-unknown", `undo ${JSON.stringify(undo)} of ${JSON.stringify(name)} is not an operation${didYouMean(undo, Object.keys(doc.operations))}.`, file.locate(pointer)));
      continue;
    }
    if (inverse.effects.kind !== "mutating") {
      out.push(diagnostic("undo-not-inverse", `undo ${JSON.stringify(undo)} of ${JSON.stringify(name)} is a read operation; it cannot undo anything.`, file.locate(pointer)));
      continue;
    }
    const required = [...ctx.inputShape(undo).properties.values()].filter((f) => f.required).map((f) => f.name);
    if (!required.some((field) => output.properties.has(field))) {
      out.push(diagnostic("undo-not-inverse", `undo ${JSON.stringify(undo)} of ${JSON.stringify(name)} requires none of the fields ${JSON.stringify(name)} returns (it requires ${required.length > 0 ? required.join(", ") : "nothing"}), so a caller cannot point it at the result.`, file.locate(pointer)));
    }
  }
  return out;
}

/** A declared preview output returns the confirm token, and the expiry field when one is named. */
export function checkPreviewOutput(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { file } = ctx;
  for (const { name, op, at } of ctx.operations()) {
    const preview = op.preview;
    if (!preview) continue;
    const pp = joinPointer(at, "preview");
    const declared = preview.output !== undefined;
    const shape = declared ? ctx.shape(file, joinPointer(pp, "output")) : undefined;
    const problem = (field: string, type: string): string | undefined => {
      const info = shape?.properties.get(field);
      if (!info) return `is not a property of preview.output${didYouMean(field, shape?.properties.keys() ?? [])}`;
      if (!info.required) return "is optional in preview.output";
      if (!ctx.declares(info, type)) return `is not declared as ${type} in preview.output`;
      return undefined;
    };
    if (shape) {
      const why = problem(preview.confirmToken, "string");
      if (why) out.push(diagnostic("preview-output-token-missing", `Confirm-token field ${JSON.stringify(preview.confirmToken)} of ${JSON.stringify(name)} ${why}.`, file.locate(joinPointer(pp, "output"))));
    }
    if (preview.expiresAt !== undefined) {
      const why = shape ? problem(preview.expiresAt, "string") : "has no preview.output to be in";
      if (why) out.push(diagnostic("preview-expiry-field-missing", `Expiry field ${JSON.stringify(preview.expiresAt)} of ${JSON.stringify(name)} ${why}.`, file.locate(joinPointer(pp, "expiresAt"))));
    }
  }
  return out;
}
