/**
 * schema/contract.validator.cjs, the format's validator precompiled (scripts/contract-validator.mjs):
 * current with the schema, and judging every fixture exactly as the schema compiled at run time does.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { ErrorObject, ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { contractValidatorSource, SCHEMA_FILE, VALIDATOR_FILE } from "../../scripts/contract-validator.mjs";

const precompiled = createRequire(import.meta.url)(VALIDATOR_FILE) as ValidateFunction;
const compiled = new Ajv2020({ allErrors: true, verbose: true, strict: false }).compile(JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as object);

/** What a diagnostic is made from, for comparing two validators' errors. */
const shape = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => ({ keyword: e.keyword, instancePath: e.instancePath, schemaPath: e.schemaPath, params: e.params, message: e.message, data: e.data, parentSchema: e.parentSchema }));

const fixtures = ["valid", "invalid"].flatMap((dir) =>
  readdirSync(join("test/fixtures", dir), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join("test/fixtures", dir, f)),
);

describe("the precompiled contract validator", () => {
  it("is current with schema/contract.schema.json (else run npm run update:validator)", () => {
    expect(readFileSync(VALIDATOR_FILE, "utf8")).toBe(contractValidatorSource());
  });

  it("gives the errors the schema compiled at run time gives, on every fixture", () => {
    let invalid = 0;
    for (const file of fixtures) {
      let doc: unknown;
      try {
        doc = parse(readFileSync(file, "utf8"), { logLevel: "silent" });
      } catch {
        continue; // YAML errors never reach the validator
      }
      const a = precompiled(doc);
      const b = compiled(doc);
      expect(a, file).toBe(b);
      expect(shape(precompiled.errors), file).toEqual(shape(compiled.errors));
      if (!a) invalid++;
    }
    expect(invalid).toBeGreaterThan(10);
  });
});
