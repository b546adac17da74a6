import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { MAX_REF_DEPTH, MAX_SCHEMA_DEPTH } from "./load.js";
import type { RawContract, RawOperation } from "./raw.js";
import type { Workspace } from "./refs.js";
import { isSchemaObject, type SchemaObject } from "./schema-walk.js";
import { getAtPointer, joinPointer, type SourceFile } from "./source.js";

/** A schema node after following `$ref`s, with the place it was found. */
export interface ResolvedSchema {
  readonly file: SourceFile;
  readonly pointer: string;
  readonly value: unknown;
}

export interface FieldInfo extends ResolvedSchema {
  readonly name: string;
  readonly required: boolean;
}

/** The top-level shape of an object schema: its properties (allOf branches merged) and whether it is an object. */
export interface ObjectShape {
  readonly isObject: boolean;
  readonly properties: ReadonlyMap<string, FieldInfo>;
}

/** One operation as most checks need it: name, raw node, JSON pointer and top-level shapes. */
export interface OperationView {
  readonly name: string;
  readonly op: RawOperation;
  readonly at: string;
  readonly input: ObjectShape;
  readonly output: ObjectShape;
}

const EMPTY_SHAPE: ObjectShape = { isObject: false, properties: new Map() };

/** What every check sees: the root file, the structurally valid document and the $ref workspace. */
export class CheckContext {
  private readonly shapes = new Map<string, ObjectShape>();
  /** declaredTypes per schema node (file#pointer); an entry under computation reads as unconstrained. */
  private readonly typeSets = new Map<string, readonly string[]>();
  /** Shapes being computed: allOf branches reached through $refs nest, bounded by the ref and schema limits. */
  private shapeDepth = 0;

  constructor(
    readonly file: SourceFile,
    readonly doc: RawContract,
    readonly ws: Workspace,
    /** Schemas already found valid against the meta-schema, shared between contracts (see ParseOptions.metaValid). */
    readonly metaValid?: Set<string>,
  ) {}

  /** Follow `$ref`s from a node to the schema they name (the node itself when it has none). */
  deref(file: SourceFile, pointer: string): ResolvedSchema | undefined {
    return this.derefFrom({ file, pointer, value: getAtPointer(file.value, pointer) });
  }

  /** deref, from a node whose value is already in hand (no walk from the document root). */
  private derefFrom(start: ResolvedSchema): ResolvedSchema | undefined {
    let current = start;
    for (let hops = 0; hops < 64; hops++) {
      const v = current.value;
      if (!(isSchemaObject(v) && typeof v.$ref === "string")) return current;
      const target = this.ws.resolve(current.file, v.$ref, joinPointer(current.pointer, "$ref"));
      if ("code" in target) return undefined;
      current = { file: target.file, pointer: target.pointer, value: getAtPointer(target.file.value, target.pointer) };
    }
    return undefined;
  }

  shape(file: SourceFile, pointer: string): ObjectShape {
    const key = `${file.path}#${pointer}`;
    const cached = this.shapes.get(key);
    if (cached) return cached;
    // Past the limits validation has already failed (ref-depth-limit); stop rather than recurse on.
    if (this.shapeDepth > MAX_REF_DEPTH + MAX_SCHEMA_DEPTH) return EMPTY_SHAPE;
    this.shapes.set(key, EMPTY_SHAPE); // guards against allOf cycles
    this.shapeDepth++;
    try {
      const result = this.computeShape(file, pointer);
      this.shapes.set(key, result);
      return result;
    } finally {
      this.shapeDepth--;
    }
  }

  private computeShape(file: SourceFile, pointer: string): ObjectShape {
    const node = this.deref(file, pointer);
    if (!node || !isSchemaObject(node.value)) return EMPTY_SHAPE;
    const schema = node.value;
    const properties = new Map<string, FieldInfo>();
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : []);
    let isObject = schema.type === "object" || (Array.isArray(schema.type) && schema.type.includes("object"));
    if (Array.isArray(schema.allOf)) {
      schema.allOf.forEach((_, i) => {
        const branch = this.shape(node.file, joinPointer(node.pointer, "allOf", i));
        if (branch.isObject) isObject = true;
        for (const [name, info] of branch.properties) properties.set(name, info);
      });
    }
    if (isSchemaObject(schema.properties)) {
      if (schema.type === undefined) isObject = true;
      for (const [name, value] of Object.entries(schema.properties)) {
        const at = joinPointer(node.pointer, "properties", name);
        const resolved = this.derefFrom({ file: node.file, pointer: at, value }) ?? { file: node.file, pointer: at, value: undefined };
        properties.set(name, { file: resolved.file, pointer: resolved.pointer, value: resolved.value, name, required: required.has(name) });
      }
    }
    // Properties merged from allOf branches are required when this schema says so.
    for (const [name, info] of properties) if (required.has(name) && !info.required) properties.set(name, { ...info, required: true });
    return { isObject, properties };
  }

  /** Every operation, in document order (shapes are computed once and cached). */
  *operations(): Generator<OperationView> {
    for (const [name, op] of Object.entries(this.doc.operations)) {
      yield { name, op, at: this.operationPointer(name), input: this.inputShape(name), output: this.outputShape(name) };
    }
  }

  operationPointer(name: string): string {
    return joinPointer("/operations", name);
  }

  inputShape(operation: string): ObjectShape {
    return this.shape(this.file, joinPointer(this.operationPointer(operation), "input"));
  }

  outputShape(operation: string): ObjectShape {
    return this.shape(this.file, joinPointer(this.operationPointer(operation), "output"));
  }

  /**
   * The JSON types a schema node declares, its `allOf` branches included: a value meets every
   * branch, so each branch with a `type` narrows the set. Empty = unconstrained. OpenAPI 3.0 could
   * not annotate a `$ref`, so documents wrap it (`allOf: [{$ref: List}, {description: …}]`): the
   * wrapped type is the field's type.
   */
  declaredTypes(node: ResolvedSchema, depth = 0): readonly string[] {
    const key = `${node.file.path}#${node.pointer}`;
    const cached = this.typeSets.get(key);
    if (cached) return cached;
    // Past the limits validation has already failed (ref-depth-limit): unconstrained, no deeper.
    if (depth > MAX_REF_DEPTH + MAX_SCHEMA_DEPTH) return [];
    this.typeSets.set(key, []); // guards against allOf cycles
    let types: readonly string[] | null = schemaTypes(node.value).length > 0 ? schemaTypes(node.value) : null;
    const branches = isSchemaObject(node.value) && Array.isArray(node.value.allOf) ? node.value.allOf : [];
    branches.forEach((value, i) => {
      const branch = this.derefFrom({ file: node.file, pointer: joinPointer(node.pointer, "allOf", i), value });
      const narrowed = branch ? this.declaredTypes(branch, depth + 1) : [];
      if (narrowed.length > 0) types = types === null ? narrowed : intersectTypes(types, narrowed);
    });
    const result = types ?? [];
    this.typeSets.set(key, result);
    return result;
  }

  /** Whether a field's schema declares `type` (a schema that leaves its type open declares none). */
  declares(field: ResolvedSchema, type: string): boolean {
    const types = this.declaredTypes(field);
    return types.includes(type) || (type === "number" && types.includes("integer"));
  }

  /** Shape of each item of an array-valued field (its own `items`, or an `allOf` branch's), or the empty shape. */
  itemShape(field: ResolvedSchema | undefined): ObjectShape {
    const items = field && this.itemsOf(field, new Set());
    return items ? this.shape(items.file, items.pointer) : EMPTY_SHAPE;
  }

  private itemsOf(node: ResolvedSchema, seen: Set<string>, depth = 0): ResolvedSchema | undefined {
    const key = `${node.file.path}#${node.pointer}`;
    if (seen.has(key) || depth > MAX_REF_DEPTH + MAX_SCHEMA_DEPTH || !isSchemaObject(node.value)) return undefined;
    seen.add(key);
    if ("items" in node.value) return { file: node.file, pointer: joinPointer(node.pointer, "items"), value: node.value.items };
    const branches = Array.isArray(node.value.allOf) ? node.value.allOf : [];
    for (const [i, value] of branches.entries()) {
      const branch = this.derefFrom({ file: node.file, pointer: joinPointer(node.pointer, "allOf", i), value });
      const found = branch && this.itemsOf(branch, seen, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
}

/** Types both sets admit; an integer is a number, so integer and number meet in integer. */
function intersectTypes(a: readonly string[], b: readonly string[]): string[] {
  const out = a.filter((t) => b.includes(t) || (t === "integer" && b.includes("number")));
  if (a.includes("number") && b.includes("integer") && !out.includes("integer")) out.push("integer");
  return out;
}

/** The JSON types a (resolved) schema admits, as far as its `type` keyword says; empty = unconstrained. */
export function schemaTypes(value: unknown): string[] {
  if (!isSchemaObject(value)) return [];
  const t = value.type;
  if (typeof t === "string") return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === "string");
  if ("const" in value) return [jsonType(value.const)];
  if (Array.isArray(value.enum)) return [...new Set(value.enum.map(jsonType))];
  return [];
}

function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

export type Check = (ctx: CheckContext) => Diagnostic[];

export function keywordOf(value: unknown, keyword: string): unknown {
  return isSchemaObject(value) ? (value as SchemaObject)[keyword] : undefined;
}
