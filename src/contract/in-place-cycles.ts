/**
 * Shared types that include themselves "in place": through allOf/anyOf/oneOf/not/if/then/else and
 * `$ref` alone, with no `properties` or `items` in between that would move on to a part of the value.
 * A validator applies such a schema to the same value forever (ajv overflows its stack), and
 * json-schema-to-typescript writes a type alias that refers to itself (TS2456); JSON Schema leaves
 * them undefined. `validate` refuses each one (schema-includes-itself); `import-openapi` drops the
 * `$ref` that closes the loop, with a review item.
 */
import { isSchemaObject, type SchemaObject } from "./schema-walk.js";
import { joinPointer } from "./source.js";

/** Keywords whose subschemas apply to the value itself, not to a part of it: a loop through them alone never ends. */
const IN_PLACE_SINGLE = ["not", "if", "then", "else"] as const;
const IN_PLACE_LIST = ["allOf", "anyOf", "oneOf"] as const;

const TYPE_REF = /^#\/types\/(.+)$/;

function typeOf(ref: unknown): string | undefined {
  if (typeof ref !== "string") return undefined;
  const m = TYPE_REF.exec(ref);
  return m ? m[1]!.replace(/~1/g, "/").replace(/~0/g, "~") : undefined;
}

function own(o: SchemaObject, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

/** A `$ref` to a type met through in-place keywords only. */
export interface InPlaceUse {
  readonly target: string;
  /** The keyword it was met under ("$ref" for the type's own root). */
  readonly keyword: string;
  /** The node holding the `$ref`. */
  readonly node: SchemaObject;
  /** The schema whose `keyword` holds the node (absent for the type's root). */
  readonly holder?: SchemaObject;
  /** JSON pointer of the `$ref`, from the type's schema (e.g. "/allOf/0/$ref"). */
  readonly pointer: string;
}

function inPlaceUses(types: SchemaObject, name: string): InPlaceUse[] {
  const uses: InPlaceUse[] = [];
  const root = own(types, name);
  if (!isSchemaObject(root)) return uses;
  const stack: Array<{ node: SchemaObject; keyword: string; holder?: SchemaObject; at: string }> = [{ node: root, keyword: "$ref", at: "" }];
  while (stack.length > 0) {
    const { node, keyword, holder, at } = stack.pop()!;
    const target = typeOf(own(node, "$ref"));
    if (target !== undefined) uses.push({ target, keyword, node, pointer: joinPointer(at, "$ref"), ...(holder ? { holder } : {}) });
    for (const key of IN_PLACE_SINGLE) {
      const sub = own(node, key);
      if (isSchemaObject(sub)) stack.push({ node: sub, keyword: key, holder: node, at: joinPointer(at, key) });
    }
    for (const key of IN_PLACE_LIST) {
      const list = own(node, key);
      if (Array.isArray(list)) {
        for (let i = list.length - 1; i >= 0; i--) if (isSchemaObject(list[i])) stack.push({ node: list[i] as SchemaObject, keyword: key, holder: node, at: joinPointer(at, key, String(i)) });
      }
    }
  }
  return uses;
}

/**
 * Every `$ref` that closes an in-place loop among `types` (depth first over the types, in order,
 * iteratively: no recursion on the contract's depth): `onLoop` gets the type holding it, the use,
 * and the loop as type names ("A → B → A"). `onLoop` may remove the use (the importer does); the
 * walk goes on either way.
 */
export function findInPlaceLoops(types: SchemaObject, onLoop: (holder: string, use: InPlaceUse, loop: readonly string[]) => void): void {
  const state = new Map<string, "open" | "done">();
  for (const start of Object.keys(types)) {
    if (state.has(start)) continue;
    const stack: Array<{ name: string; uses: InPlaceUse[]; next: number }> = [{ name: start, uses: inPlaceUses(types, start), next: 0 }];
    state.set(start, "open");
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const use = frame.uses[frame.next++];
      if (use === undefined) {
        stack.pop();
        state.set(frame.name, "done");
        continue;
      }
      const seen = state.get(use.target);
      if (seen === "open") {
        const loop = [...stack.slice(stack.findIndex((f) => f.name === use.target)).map((f) => f.name), use.target];
        onLoop(frame.name, use, loop);
        continue;
      }
      if (seen === "done" || !Object.prototype.hasOwnProperty.call(types, use.target)) continue;
      state.set(use.target, "open");
      stack.push({ name: use.target, uses: inPlaceUses(types, use.target), next: 0 });
    }
  }
}
