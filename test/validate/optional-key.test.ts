/**
 * `idempotency.keyRequired: false`: an operation key the platform does not require validates with the
 * key field left out of input.required, and its model says so; without the flag the same contract is
 * idempotency-key-not-required, whose hint names the flag; the flag is a boolean.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseContractText } from "../../src/contract/parse.js";

const FILE = "test/fixtures/valid/optional-idempotency-key.yaml";
const text = readFileSync(FILE, "utf8");
const FLAGGED = "    idempotency: { key: idempotency_key, retention: 24h, mismatchError: KEY_REUSED, keyRequired: false }";

describe("idempotency.keyRequired", () => {
  it("false: the key stays optional in the input, nothing is reported, and the model keeps the flag", () => {
    const result = parseContractText(FILE, text);
    expect(result.diagnostics).toEqual([]);
    const op = result.model!.operations[0]!;
    expect(op.idempotency).toMatchObject({ keyField: "idempotency_key", keyRequired: false });
    expect(op.effects.idempotent).toBe("key");
  });

  it("absent (default true): the same optional key field is idempotency-key-not-required, and the hint names keyRequired: false", () => {
    expect(text).toContain(FLAGGED);
    const result = parseContractText(FILE, text.replace(FLAGGED, "    idempotency: { key: idempotency_key, retention: 24h, mismatchError: KEY_REUSED }"));
    const found = result.diagnostics.filter((d) => d.severity === "error");
    expect(found.map((d) => d.code)).toEqual(["idempotency-key-not-required"]);
    expect(found[0]!.hint).toContain("declare `idempotency.keyRequired: false`");
  });

  it("is a boolean: another value is refused by the format", () => {
    const result = parseContractText(FILE, text.replace("keyRequired: false", 'keyRequired: "no"'));
    expect(result.model).toBeUndefined();
    expect(result.diagnostics.map((d) => d.location?.pointer)).toContain("/operations/create_payment/idempotency/keyRequired");
  });

  it("true (written out) is the default: a required key validates, an optional one does not", () => {
    const explicit = text.replace("keyRequired: false", "keyRequired: true");
    expect(parseContractText(FILE, explicit).diagnostics.map((d) => d.code)).toEqual(["idempotency-key-not-required"]);
    const required = parseContractText(FILE, explicit.replace("required: [amount]", "required: [amount, idempotency_key]"));
    expect(required.diagnostics).toEqual([]);
    expect(required.model!.operations[0]!.idempotency?.keyRequired).toBe(true);
  });
});
