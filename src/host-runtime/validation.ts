import type { ErrorObject, ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { JsonSchema } from "./contract.js";

/** One thing wrong with a request's input. `field` is a dotted path, or null for the input as a whole. */
export interface FieldProblem {
  readonly field: string | null;
  readonly message: string;
}

/** Compiles each contract schema once and reports violations by input field. */
export class SchemaValidator {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false });
  private readonly compiled = new Map<JsonSchema, ValidateFunction>();

  constructor() {
    addFormatsModule.default(this.ajv);
  }

  /** Problems of `value` against `schema`, those naming a field first; empty when valid. */
  problems(schema: JsonSchema, value: unknown): FieldProblem[] {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.compiled.set(schema, validate);
    }
    if (validate(value)) return [];
    const problems = (validate.errors ?? []).map(describe);
    // A caller fixes one field at a time; a problem that names one is the most actionable.
    return [...problems.filter((p) => p.field !== null), ...problems.filter((p) => p.field === null)];
  }
}

function describe(error: ErrorObject): FieldProblem {
  const path = error.instancePath.split("/").slice(1).map(unescapePointer);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required") path.push(String(params.missingProperty));
  if (error.keyword === "additionalProperties") path.push(String(params.additionalProperty));
  const field = path.length > 0 ? path.join(".") : null;

  let message = error.message ?? "is invalid";
  if (error.keyword === "additionalProperties") message = "is not an input of this operation";
  if (error.keyword === "required") message = "is required";
  if (error.keyword === "enum") message = `must be one of: ${(params.allowedValues as unknown[]).map(String).join(", ")}`;
  return { field, message: field ? `${field} ${message}` : `input ${message}` };
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}
