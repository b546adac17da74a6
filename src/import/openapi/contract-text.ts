/**
 * `x-contract` holds contract text, not OpenAPI: a `$ref` inside it names a contract node
 * (`#/types/<Name>`), so the OpenAPI side never follows it. files.ts does not list those `$ref`s,
 * the bundler and the OpenAPI checks (@redocly/openapi-core) get the document with every
 * `x-contract` hidden behind a stand-in (`hideContractText`) and the bundle gets them back after,
 * and the mapping reads a component schema named there (`#/components/schemas/<Name>`, what an
 * OpenAPI author writes) as the type imported from it (`componentRefsAsTypes`).
 */
import { randomUUID } from "node:crypto";

/** Keys whose entries are named by the document's author, so an `x-contract` there is a name (a property called so), not the extension. */
const NAMED_ENTRIES = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "headers", "schemas", "responses", "parameters", "examples", "requestBodies", "securitySchemes", "links", "callbacks", "pathItems", "paths", "webhooks", "content", "encoding", "variables", "mapping"]);

/** True when the entry `key` of an object that is itself the entry `parentKey` of its parent is an `x-contract` extension (contract text). */
export function isContractText(parentKey: string | undefined, key: string): boolean {
  return key === "x-contract" && !NAMED_ENTRIES.has(parentKey ?? "");
}

type Json = unknown;

/**
 * `value` with every `x-contract` extension replaced by a stand-in object naming it by number, so the
 * bundler and the OpenAPI checks see no `$ref` in contract text. Copy on write: only the objects on the
 * way to an `x-contract` are copied; everything else is shared with `value`, which is not changed.
 * `stash` is shared by the documents of one read (the bundler may copy a file's parts into another's).
 */
export function hideContractText(value: Json, stash: ContractTextStash): Json {
  return hide(value, undefined, stash, 0);
}

/** The hidden `x-contract` values of one read, and the key of their stand-ins (random, so no document can spell it). */
export class ContractTextStash {
  readonly token = `contractgen-x-contract-${randomUUID()}`;
  readonly values: Json[] = [];

  get size(): number {
    return this.values.length;
  }

  /**
   * Puts every hidden `x-contract` back into `bundled`, in place (its stand-ins sit in objects the
   * hiding copied, or in copies the bundler made of them). Iterative: documents nest deeply.
   */
  restore(bundled: Json): void {
    if (this.values.length === 0) return;
    forEachEntry(bundled, (record, k, v) => {
      const index = this.standIn(v);
      if (index === undefined) return true;
      record[k] = this.values[index];
      return false;
    });
  }

  /** The stash index a stand-in names, or undefined when `v` is not one. */
  private standIn(v: Json): number | undefined {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
    const keys = Object.keys(v);
    if (keys.length !== 1 || keys[0] !== this.token) return undefined;
    const index = (v as Record<string, Json>)[this.token];
    return typeof index === "number" && Number.isInteger(index) && index >= 0 && index < this.values.length ? index : undefined;
  }
}

/** Depth bound of the walk: the readers refuse documents nested deeper than 256 levels before this runs. */
const MAX_DEPTH = 512;

function hide(node: Json, parentKey: string | undefined, stash: ContractTextStash, depth: number): Json {
  if (typeof node !== "object" || node === null || depth > MAX_DEPTH) return node;
  if (Array.isArray(node)) {
    let copy: Json[] | undefined;
    node.forEach((v, i) => {
      const h = hide(v, String(i), stash, depth + 1);
      if (h !== v) (copy ??= [...node])[i] = h;
    });
    return copy ?? node;
  }
  const record = node as Record<string, Json>;
  let copy: Record<string, Json> | undefined;
  for (const k of Object.keys(record)) {
    const v = record[k];
    let h: Json;
    if (isContractText(parentKey, k) && typeof v === "object" && v !== null) {
      stash.values.push(v);
      h = { [stash.token]: stash.values.length - 1 };
    } else h = hide(v, k, stash, depth + 1);
    // Defined, not assigned: a `__proto__` key stays a key.
    if (h !== v) Object.defineProperty((copy ??= { ...record }), k, { value: h, enumerable: true, writable: true, configurable: true });
  }
  return copy ?? node;
}

const COMPONENT_SCHEMA = /^#\/components\/schemas\/([^/]+)$/;

/**
 * In contract text the import made (what `x-contract` wrote; the rest of the contract names types
 * already), `$ref: "#/components/schemas/<Name>"` becomes `#/types/<the type imported from Name>`,
 * in place. A reference to a component schema the document does not declare is left as written:
 * the contract check reports it, saying how to name a type.
 */
export function componentRefsAsTypes(root: Json, typeNames: ReadonlyMap<string, string>): void {
  forEachEntry(root, (record, k, v) => {
    if (k !== "$ref" || typeof v !== "string") return true;
    const m = COMPONENT_SCHEMA.exec(v);
    const name = m ? componentName(m[1]!) : undefined;
    const type = name === undefined ? undefined : typeNames.get(name);
    if (type !== undefined) record[k] = `#/types/${type.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    return false;
  });
}

/**
 * Calls `visit` on every entry of every object under `root` (each object once, arrays walked through),
 * descending into an entry's value when `visit` returns true. Iterative: documents nest deeply.
 */
function forEachEntry(root: Json, visit: (record: Record<string, Json>, key: string, value: Json) => boolean): void {
  const stack: Json[] = [root];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const v of node) if (typeof v === "object" && v !== null) stack.push(v);
      continue;
    }
    const record = node as Record<string, Json>;
    for (const k of Object.keys(record)) {
      const v = record[k];
      if (visit(record, k, v) && typeof v === "object" && v !== null) stack.push(v);
    }
  }
}

/** A pointer segment as the name it spells (`~1` is `/`, `~0` is `~`, percent-escapes decoded), or undefined when it is not one. */
function componentName(segment: string): string | undefined {
  let s = segment;
  try {
    s = decodeURIComponent(s);
  } catch {
    return undefined;
  }
  return s.replace(/~1/g, "/").replace(/~0/g, "~");
}
