/**
 * The imported contract, checked and made safe before it is written: what `validate` would refuse
 * for size or depth is refused here, located in the OpenAPI document; schemas that include
 * themselves without describing a value in between are broken apart (validators loop on them and
 * TypeScript cannot type them).
 */
import { MAX_EXPANDED_NODES, MAX_REF_DEPTH, MAX_SCHEMA_DEPTH, MAX_YAML_DEPTH } from "../../contract/load.js";
import { findInPlaceLoops, type InPlaceUse } from "../../contract/in-place-cycles.js";
import { findDeepSchema, visitSchemas } from "../../contract/schema-walk.js";
import { ImportRefusal } from "./refusal.js";
import type { ReviewKind } from "./review.js";
import { isObject, type Json, type JsonObject, own } from "./schema.js";

/** Where each part of the contract came from in the OpenAPI document. */
export interface Origins {
  /** Type name → pointer of its schema in the OpenAPI document. */
  readonly types: ReadonlyMap<string, string>;
  /** Operation name → pointer of its operation in the OpenAPI document. */
  readonly operations: ReadonlyMap<string, string>;
}

type Review = (kind: ReviewKind, pointer: string, message: string) => void;

const TYPE_REF = /^#\/types\/(.+)$/;


function typeOf(ref: unknown): string | undefined {
  if (typeof ref !== "string") return undefined;
  const m = TYPE_REF.exec(ref);
  return m ? m[1] : undefined;
}

/** Run every check on the contract `mapOpenApi` built; throws ImportRefusal when it cannot be written. */
export function checkContract(contract: JsonObject, origins: Origins, review: Review): void {
  const types = isObject(own(contract, "types")) ? (own(contract, "types") as JsonObject) : {};
  breakInPlaceCycles(types, origins, review);
  const roots = schemaRoots(contract, origins);
  for (const root of roots) {
    const deep = findDeepSchema(root.schema, root.contractPointer, MAX_SCHEMA_DEPTH);
    if (deep !== undefined) {
      throw new ImportRefusal("openapi-schema-depth-limit", root.origin, `The schema imported from here nests subschemas more than ${MAX_SCHEMA_DEPTH} levels deep (at ${deep} of the contract); a contract's schemas nest at most ${MAX_SCHEMA_DEPTH}.`);
    }
  }
  checkRefDepth(types, roots);
  const { nodes, depth } = measure(contract);
  if (nodes > MAX_EXPANDED_NODES) {
    throw new ImportRefusal("openapi-contract-too-large", "", `The contract would hold ${nodes} YAML nodes; contractgen reads at most ${MAX_EXPANDED_NODES} in one file.`);
  }
  // Example data inlined below a schema can nest past what the document did.
  if (depth > MAX_YAML_DEPTH) {
    throw new ImportRefusal("yaml-depth-limit", "", `The contract would nest collections ${depth} levels deep; contractgen reads at most ${MAX_YAML_DEPTH}.`);
  }
}

interface Root {
  readonly schema: Json;
  readonly contractPointer: string;
  /** Where it came from in the OpenAPI document. */
  readonly origin: string;
  /** The type it is, when it is one. */
  readonly type?: string;
}

/** Every schema position of the contract, in the order `validate` checks them: types, then each operation's input and output. */
function schemaRoots(contract: JsonObject, origins: Origins): Root[] {
  const roots: Root[] = [];
  const types = own(contract, "types");
  if (isObject(types)) for (const name of Object.keys(types)) roots.push({ schema: types[name]!, contractPointer: `/types/${escape(name)}`, origin: origins.types.get(name) ?? "/components/schemas", type: name });
  const operations = own(contract, "operations");
  if (isObject(operations)) {
    for (const name of Object.keys(operations)) {
      const op = operations[name];
      if (!isObject(op)) continue;
      const origin = origins.operations.get(name) ?? "/paths";
      for (const part of ["input", "output"]) {
        const schema = own(op, part);
        if (schema !== undefined) roots.push({ schema, contractPointer: `/operations/${escape(name)}/${part}`, origin });
      }
    }
  }
  return roots;
}

/**
 * Schemas that include themselves in place (src/contract/in-place-cycles.ts) cannot be imported as they
 * are: `validate` refuses them. Each `$ref` that closes such a loop is dropped, with a review item:
 * in allOf the schema then means its other parts, which is what including itself added to them.
 */
export function breakInPlaceCycles(types: JsonObject, origins: Origins, review: Review): void {
  findInPlaceLoops(types, (holder, use, loop) => {
    drop(use);
    review("ref-cycle-broken", origins.types.get(holder) ?? "/components/schemas", `${holder} includes itself (${loop.join(" → ")}) through ${use.keyword} with nothing in between that describes a part of the value; validators would loop on it and TypeScript cannot type it. That $ref was dropped${use.keyword === "allOf" ? " (the schema keeps its other parts)" : ""}.`);
  });
}

/** Remove the `$ref` of `use`; a branch left with nothing to say leaves its allOf (or anyOf/oneOf, if others remain), a `not` goes. */
function drop(use: InPlaceUse): void {
  delete use.node.$ref;
  if (Object.keys(use.node).length > 0 || !use.holder) return;
  const held = use.holder[use.keyword];
  if (Array.isArray(held)) {
    const i = held.indexOf(use.node);
    // anyOf/oneOf must keep a branch; an empty one then accepts any value.
    if (i >= 0 && (use.keyword === "allOf" || held.length > 1)) held.splice(i, 1);
    if (held.length === 0) delete use.holder[use.keyword];
  } else if (use.keyword === "not") {
    delete use.holder.not;
  }
}

/**
 * `validate`'s ref-depth-limit, on the contract: more than MAX_REF_DEPTH schemas in a row, each
 * referencing the next (bare `$ref`s passed through). The same walk as src/contract/refs.ts checkRefs:
 * depth first over an explicit stack, heights remembered, recursion to a type on the path allowed.
 */
function checkRefDepth(types: JsonObject, roots: readonly Root[]): void {
  const heights = new Map<string, number | null>();
  interface Frame {
    readonly key: string;
    readonly targets: string[];
    next: number;
    height: number;
  }
  /** The type a `$ref` leads to once bare `{ $ref }` types are passed through. */
  const finalType = (name: string, origin: string): string | undefined => {
    let current = name;
    for (let hops = 1; ; hops++) {
      const schema = own(types, current);
      if (!isObject(schema)) return undefined;
      const next = Object.keys(schema).length === 1 ? typeOf(own(schema, "$ref")) : undefined;
      if (next === undefined) return current;
      if (hops >= MAX_REF_DEPTH) throw new ImportRefusal("openapi-ref-depth-limit", origin, `A $ref passes through more than ${MAX_REF_DEPTH} schemas that are only a $ref before reaching a schema.`);
      current = next;
    }
  };
  const open = (key: string, schema: Json, origin: string): Frame => {
    heights.set(key, null);
    const targets: string[] = [];
    visitSchemas(schema, "", (node) => {
      const t = typeOf(node.$ref);
      const final = t === undefined ? undefined : finalType(t, origin);
      if (final !== undefined) targets.push(final);
    });
    return { key, targets, next: 0, height: 0 };
  };
  for (const root of roots) {
    const rootKey = root.type ?? root.contractPointer;
    if (heights.has(rootKey)) continue;
    const tooDeep = () => new ImportRefusal("openapi-ref-depth-limit", root.origin, `The schema imported from here leads through more than ${MAX_REF_DEPTH} schemas, each referencing the next; a contract allows at most ${MAX_REF_DEPTH}.`);
    const stack: Frame[] = [open(rootKey, root.schema, root.origin)];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const target = frame.targets[frame.next++];
      if (target === undefined) {
        stack.pop();
        heights.set(frame.key, frame.height);
        const parent = stack[stack.length - 1];
        if (parent) parent.height = Math.max(parent.height, frame.height + 1);
        continue;
      }
      const known = heights.get(target);
      if (known === null) continue; // recursion through a real schema
      if (known !== undefined) {
        if (stack.length + known > MAX_REF_DEPTH) throw tooDeep();
        frame.height = Math.max(frame.height, known + 1);
        continue;
      }
      if (stack.length >= MAX_REF_DEPTH) throw tooDeep();
      stack.push(open(target, types[target]!, root.origin));
    }
  }
}

/**
 * Values in the contract as its YAML will hold them (what `validate` counts against
 * MAX_EXPANDED_NODES), and how deep its collections nest (the root is level 1).
 */
function measure(value: Json): { nodes: number; depth: number } {
  let nodes = 0;
  let depth = 0;
  const stack: Array<[Json, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, level] = stack.pop()!;
    nodes++;
    if (Array.isArray(v) || isObject(v)) {
      if (level + 1 > depth) depth = level + 1;
      if (Array.isArray(v)) for (const x of v) stack.push([x, level + 1]);
      else for (const k of Object.keys(v)) stack.push([v[k]!, level + 1]);
    }
  }
  return { nodes, depth };
}

function escape(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
