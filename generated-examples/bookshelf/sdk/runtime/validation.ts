import type { ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { Validator } from "./client.js";

/** `sdk/schemas.json`, as written by the generator. */
export interface SchemaData {
  /** Shared types, each once, identified by `$id`; the schemas below reference them by it. */
  readonly types: readonly object[];
  /** Schema key → schema. */
  readonly schemas: Readonly<Record<string, unknown>>;
  /** Validator name → schema key (operations with equal schemas share a key). */
  readonly validators: Readonly<Record<string, string>>;
}

/**
 * The validators of a package, by name, each compiled from its schema the first time it runs. A
 * process compiles what it uses (a shared type once, whichever operation reaches it first), so
 * start-up costs nothing however large the contract, and the options are the ones the contract's
 * own checks assume: every error reported (`allErrors`), formats checked, unknown keywords ignored.
 */
export function validatorTable(load: () => SchemaData, source: string): (name: string) => Validator {
  let data: SchemaData | undefined;
  let ajv: Ajv2020 | undefined;
  /** Shared types by `$id`, until registered with ajv: each is registered when a schema first reaches it. */
  let pending: Map<string, object> | undefined;
  const schemaData = (): SchemaData => (data ??= load());
  const compiler = (): Ajv2020 => {
    if (ajv) return ajv;
    // The schemas were checked when the contract was validated: re-checking them against the
    // meta-schema here would only cost time.
    ajv = new Ajv2020({ allErrors: true, strict: false, inlineRefs: false, validateSchema: false, addUsedSchema: false });
    addFormatsModule.default(ajv);
    pending = new Map(schemaData().types.map((type) => [String((type as { $id?: unknown }).$id), type]));
    return ajv;
  };
  /** Register the shared types `schema` reaches (and those they reach) that ajv has not seen yet. */
  const register = (schema: unknown): void => {
    const stack: unknown[] = [schema];
    while (stack.length > 0) {
      const node = stack.pop();
      if (typeof node !== "object" || node === null) continue;
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && typeof value === "string") {
          const id = value.split("#")[0]!;
          const type = pending!.get(id);
          if (type !== undefined) {
            pending!.delete(id);
            ajv!.addSchema(type);
            stack.push(type);
          }
        } else if (typeof value === "object") stack.push(value);
      }
    }
  };
  // By schema key: names that share a schema share its compiled function.
  const compiled = new Map<string, ValidateFunction>();
  const compile = (name: string): ValidateFunction => {
    const { validators, schemas } = schemaData();
    const key = Object.hasOwn(validators, name) ? validators[name] : undefined;
    if (key === undefined || !Object.hasOwn(schemas, key)) throw new Error(`${source} has no schema for validator ${name}: regenerate the package.`);
    let fn = compiled.get(key);
    if (!fn) {
      const ajv = compiler();
      register(schemas[key]);
      fn = ajv.compile(schemas[key] as object);
      compiled.set(key, fn);
    }
    return fn;
  };
  return (name) => {
    // Nothing is read or compiled until the validator first runs.
    let fn: ValidateFunction | undefined;
    const validate: Validator = (value) => {
      fn ??= compile(name);
      const valid = fn(value) as boolean;
      validate.errors = fn.errors ?? null;
      return valid;
    };
    return validate;
  };
}
