/**
 * Inputs the suite derives from the contract when the fixture gives none: only for reads that need no
 * identifier (a list, a search, a count), whose every required field the schema itself fills (an enum,
 * a const, a default, an example). A correct implementation answers such a call from any state, so a
 * derived input can never fail on a correct server; anything that needs an identifier, or changes the
 * world, still waits for the fixture's own sample.
 */
import { type CheckResult, resolve } from "./checks.js";
import type { Harness, Input, OperationSpec } from "./harness.js";

/** Fields whose values name a record: never invented, since only the fixture knows which exist. */
const IDENTIFIER = /(^id$|_id$|Id$|^key$|_key$|token$)/;

/** How many inputs a derived variant list holds at most: the base input and one per enum value or bound. */
const MAX_VARIANTS = 64;

function object(schema: unknown): Record<string, unknown> | undefined {
  return schema !== null && typeof schema === "object" && !Array.isArray(schema) ? (schema as Record<string, unknown>) : undefined;
}

/** A value the schema itself gives for a field: a const, a default, an example, or its first enum value. */
function declaredValue(s: Record<string, unknown>): { value: unknown } | undefined {
  if (Object.hasOwn(s, "const")) return { value: s.const };
  if (Object.hasOwn(s, "default")) return { value: s.default };
  if (Array.isArray(s.examples) && s.examples.length > 0) return { value: s.examples[0] };
  if (Array.isArray(s.enum) && s.enum.length > 0) return { value: s.enum[0] };
  return undefined;
}

/**
 * Inputs for `op` derived from its contract, the first the plain one (required fields only), then one
 * per enum value of each optional filter-like field (a value the contract lists must be answered), the
 * bounds of its numeric fields, and each property its projection may select. Empty when the operation is not a read, takes a path parameter,
 * or has a required field the schema does not fill.
 */
export function derivedInputs(op: OperationSpec): Input[] {
  if (op.kind !== "read") return [];
  if (op.bindings.some((b) => b.in === "path")) return [];
  const root = op.input;
  const schema = resolve(root, root);
  if (!schema) return [];
  const properties = object(schema.properties) ?? {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const base: Input = {};
  for (const field of required) {
    const s = resolve(root, properties[field]);
    const value = s && !IDENTIFIER.test(field) ? declaredValue(s) : undefined;
    if (value === undefined) return [];
    base[field] = value.value;
  }
  // Anything that constrains fields together (dependentRequired, oneOf over fields…) is left to the fixture.
  if (["dependentRequired", "dependentSchemas", "oneOf", "anyOf", "allOf", "not", "if"].some((k) => Object.hasOwn(schema, k))) return [];
  const inputs: Input[] = [base];
  for (const field of Object.keys(properties).sort()) {
    if (required.has(field) || IDENTIFIER.test(field)) continue;
    const s = resolve(root, properties[field]);
    if (!s) continue;
    if (Array.isArray(s.enum)) for (const value of s.enum) if (value !== null) inputs.push({ ...base, [field]: value });
    for (const bound of ["minimum", "maximum"] as const) {
      if (typeof s[bound] === "number" && (s.type === "integer" || s.type === "number")) inputs.push({ ...base, [field]: s[bound] });
    }
  }
  // Each property a projection may select, alone (the projection checks compare what comes back).
  const projection = op.projection;
  if (projection && !required.has(projection.field)) for (const name of projection.selectable) inputs.push({ ...base, [projection.field]: [name] });
  return inputs.slice(0, MAX_VARIANTS);
}

/**
 * Every value the contract lists for a read's input (each enum value of an optional field, each
 * numeric bound, each projectable property) is answered as declared: a success whose body has the output schema. A 500 on one
 * filter value shows here, whatever samples the fixture author happened to pick.
 */
export async function declaredValuesAnswered(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const inputs = derivedInputs(op).slice(1);
  if (inputs.length === 0) return { skip: "the input declares no enum value, numeric bound or projection on an optional field of a read without identifiers (nothing to vary from the contract alone)" };
  await h.fixture.reset();
  for (const input of inputs) h.expectSuccess(op, await h.call(op, input), op.output, `the declared value ${JSON.stringify(input)}`);
}
