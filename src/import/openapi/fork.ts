/**
 * "A way off the fork": from a contract imported from an OpenAPI document and then edited by hand,
 * the OpenAPI Overlay (1.0.0) that makes the document's in-memory import give the edited contract.
 *
 * Pure: the fresh import of the document (contract A, with its origins), the edited contract (B) and
 * the document value the overlay will be applied to go in; the overlay and what it does come out.
 * Each operation present on both sides gets one action, an `x-contract` merge patch at its Operation
 * Object; everything else (operations added or removed, top-level keys) goes into one action at `$`,
 * the document's root `x-contract`, which the import applies last.
 */
import { splitPointer } from "../../contract/source.js";
import { escapeSegment } from "./files.js";
import type { Origins } from "./origins.js";
import { copyJson, isObject, type Json, type JsonObject, own, put } from "./schema.js";

export interface OverlayAction {
  readonly target: string;
  readonly update: JsonObject;
}

export interface ForkOverlay {
  readonly overlay: "1.0.0";
  readonly info: { readonly title: string; readonly version: string };
  readonly actions: OverlayAction[];
}

export interface ForkResult {
  readonly overlay: ForkOverlay;
  /** Operations present on both sides whose edits the overlay keeps (per-operation action or root patch). */
  readonly patched: readonly string[];
  /** Operations only in the edited contract (added by the root patch). */
  readonly added: readonly string[];
  /** Operations only in the import (removed by the root patch). */
  readonly removed: readonly string[];
  /** Top-level contract keys the root patch changes (besides `operations`). */
  readonly rootKeys: readonly string[];
  /** What cannot be expressed as a merge patch (a `null` value in the edited contract), by contract pointer. */
  readonly warnings: readonly string[];
}

export interface ForkInput {
  /** The fresh import of the document (with its own `x-contract` and any existing overlays). */
  readonly imported: JsonObject;
  /** The edited contract, as read. */
  readonly edited: JsonObject;
  /** Where each part of `imported` came from in the document. */
  readonly origins: Origins;
  /** The document value the overlay will be applied to (after any existing overlays): targets must exist in it. */
  readonly document: unknown;
  /** The overlay's info.title. */
  readonly title?: string;
}

/**
 * The RFC 7396 merge patch that turns `a` into `b`, or undefined when they are equal: keys only in
 * `b` or whose value changed take `b`'s value, keys only in `a` become null, objects on both sides
 * are compared key by key. A `null` in `b` cannot be written by a merge patch (null deletes): its
 * pointer is added to `warnings` and it is left out.
 */
export function mergePatchDiff(a: JsonObject, b: JsonObject, warnings: string[] = [], at = ""): JsonObject | undefined {
  const patch: JsonObject = {};
  let changed = false;
  for (const key of Object.keys(b)) {
    const bv = b[key] as Json;
    const av = own(a, key);
    const here = `${at}/${escapeSegment(key)}`;
    if (bv === null) {
      if (av !== null) warnings.push(here);
      continue;
    }
    if (av !== undefined && isObject(av) && isObject(bv)) {
      const inner = mergePatchDiff(av, bv, warnings, here);
      if (inner !== undefined) {
        put(patch, key, inner);
        changed = true;
      }
      continue;
    }
    if (av !== undefined && jsonEqual(av, bv)) continue;
    // A new object is merged into nothing: its nulls would be dropped.
    if (isObject(bv)) nullsIn(bv, here, warnings);
    put(patch, key, copyJson(bv));
    changed = true;
  }
  for (const key of Object.keys(a)) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) {
      put(patch, key, null);
      changed = true;
    }
  }
  return changed ? patch : undefined;
}

function nullsIn(o: JsonObject, at: string, warnings: string[]): void {
  for (const key of Object.keys(o)) {
    const v = o[key] as Json;
    const here = `${at}/${escapeSegment(key)}`;
    if (v === null) warnings.push(here);
    else if (isObject(v)) nullsIn(v, here, warnings);
  }
}

/** Deep equality of JSON values; object key order does not matter, array order does. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return firstDifference(a, b) === undefined;
}

/** The pointer of the first place where two JSON values differ (object key order ignored), or undefined. */
export function firstDifference(a: unknown, b: unknown, at = ""): string | undefined {
  if (a === b) return undefined;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return at;
    if (a.length !== b.length) return at;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${at}/${i}`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    for (const key of Object.keys(ao)) {
      const here = `${at}/${escapeSegment(key)}`;
      if (!Object.prototype.hasOwnProperty.call(bo, key)) return here;
      const d = firstDifference(ao[key], bo[key], here);
      if (d !== undefined) return d;
    }
    for (const key of Object.keys(bo)) if (!Object.prototype.hasOwnProperty.call(ao, key)) return `${at}/${escapeSegment(key)}`;
    return undefined;
  }
  return Number.isNaN(a) && Number.isNaN(b) ? undefined : at;
}

/** An RFC 9535 normalized path for a JSON pointer (member names in single quotes, escaped). */
export function normalizedPath(pointer: string): string {
  return `$${splitPointer(pointer).map((s) => `[${quoteName(s)}]`).join("")}`;
}

/** A member name as an RFC 9535 normalized-path string literal. */
export function quoteName(name: string): string {
  let out = "'";
  for (const ch of name) {
    const c = ch.codePointAt(0)!;
    if (ch === "'") out += "\\'";
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}'`;
}

/** The document's node at a JSON pointer, or undefined. */
function at(root: unknown, pointer: string): unknown {
  let node = root;
  for (const s of splitPointer(pointer)) {
    if (typeof node !== "object" || node === null || Array.isArray(node) || !Object.prototype.hasOwnProperty.call(node, s)) return undefined;
    node = (node as Record<string, unknown>)[s];
  }
  return node;
}

const METHODS = new Set(["get", "put", "post", "delete", "patch", "options", "head", "trace"]);

/** Compute the overlay that makes the import of the document give the edited contract. */
export function overlayFromFork(input: ForkInput): ForkResult {
  const { imported, edited, origins, document } = input;
  const warnings: string[] = [];
  const opsA = own(imported, "operations");
  const opsB = own(edited, "operations");
  const a: JsonObject = isObject(opsA) ? opsA : {};
  const b: JsonObject = isObject(opsB) ? opsB : {};
  // Operations the document's root x-contract names: it is applied after the operations' own, so their edits go there too.
  const rootX = isObject(document) ? (document as JsonObject)["x-contract"] : undefined;
  const rootOps = isObject(rootX) && isObject(own(rootX, "operations")) ? (own(rootX, "operations") as JsonObject) : {};

  const actions: OverlayAction[] = [];
  const patched: string[] = [];
  const added: string[] = [];
  const removed: string[] = [];
  const rootOperations: JsonObject = {};
  for (const name of Object.keys(b)) {
    const bo = b[name] as Json;
    const ao = own(a, name);
    const opPointer = `/operations/${escapeSegment(name)}`;
    if (ao === undefined) {
      added.push(name);
      if (bo === null) warnings.push(opPointer);
      else {
        if (isObject(bo)) nullsIn(bo, opPointer, warnings);
        put(rootOperations, name, copyJson(bo));
      }
      continue;
    }
    if (!isObject(ao) || !isObject(bo)) {
      if (!jsonEqual(ao, bo)) {
        patched.push(name);
        if (bo === null) warnings.push(opPointer);
        else put(rootOperations, name, copyJson(bo));
      }
      continue;
    }
    const patch = mergePatchDiff(ao, bo, warnings, opPointer);
    if (patch === undefined) continue;
    patched.push(name);
    // The import drops `effects.inferred` when an operation's x-contract touches effects without setting it.
    const effects = own(patch, "effects");
    const bEffects = own(bo, "effects");
    if (effects !== undefined && isObject(effects) && own(effects, "inferred") === undefined && isObject(bEffects) && own(bEffects, "inferred") !== undefined) {
      put(effects, "inferred", copyJson(own(bEffects, "inferred")));
    }
    const origin = origins.resolve(opPointer);
    const segments = splitPointer(origin.pointer);
    const targetable =
      origin.overlay === undefined &&
      segments.length === 3 &&
      segments[0] === "paths" &&
      METHODS.has(segments[2]!) &&
      isObject(at(document, origin.pointer)) &&
      !Object.prototype.hasOwnProperty.call(rootOps, name);
    if (targetable) actions.push({ target: normalizedPath(origin.pointer), update: { "x-contract": patch } });
    else put(rootOperations, name, patch);
  }
  for (const name of Object.keys(a)) {
    if (!Object.prototype.hasOwnProperty.call(b, name)) {
      removed.push(name);
      put(rootOperations, name, null);
    }
  }

  // The rest of the contract: a root merge patch, where `operations` carries only what the actions above do not.
  const restA: JsonObject = {};
  const restB: JsonObject = {};
  for (const k of Object.keys(imported)) if (k !== "operations") put(restA, k, imported[k]);
  for (const k of Object.keys(edited)) if (k !== "operations") put(restB, k, edited[k]);
  const rootPatch = mergePatchDiff(restA, restB, warnings) ?? {};
  const rootKeys = Object.keys(rootPatch);
  if (opsB === undefined && opsA !== undefined) put(rootPatch, "operations", null);
  else if (Object.keys(rootOperations).length > 0) put(rootPatch, "operations", rootOperations);
  if (Object.keys(rootPatch).length > 0) actions.push({ target: "$", update: { "x-contract": rootPatch } });

  const version = own(edited, "version");
  return {
    overlay: {
      overlay: "1.0.0",
      info: { title: input.title ?? "Edits kept from the contract", version: typeof version === "string" ? version : "1.0.0" },
      actions,
    },
    patched,
    added,
    removed,
    rootKeys,
    warnings,
  };
}
