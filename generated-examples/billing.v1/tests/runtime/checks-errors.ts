/**
 * The error taxonomy, provoked: each declared error the fixture (or the contract alone) can provoke
 * arrives with its declared code, status, recovery action, field and details, and changes nothing;
 * a credential missing an operation's scope is refused with the permission class. Same conventions
 * as checks.ts: reset first, return a skip reason, or throw a ContractViolation.
 */
import { randomUUID } from "node:crypto";
import { type CheckResult, executionInput, expectNoEffect, negativeCases, noSample, sample, withKey } from "./checks.js";
import { type ContractSpec, derivationOf, enablerWording, type ErrorSpec, type Exchange, type Harness, type OperationSpec, violation } from "./harness.js";

/**
 * The codes of `op` provoked one case each: every code it lists except those a dedicated check already
 * provokes (the key-mismatch, confirm-token and precondition errors) and, when the operation declares
 * scopes, its permission codes (provoked per scope by `missingScope`).
 */
export function provokedCodes(contract: ContractSpec, op: OperationSpec): string[] {
  const elsewhere = new Set<string>();
  if (op.idempotency?.mismatchError) elsewhere.add(op.idempotency.mismatchError);
  if (op.preview?.invalidTokenError) elsewhere.add(op.preview.invalidTokenError);
  for (const p of op.preconditions) elsewhere.add(p.error);
  const scoped = (op.scopes?.length ?? 0) > 0;
  return op.errors.filter((code) => !elsewhere.has(code) && !(scoped && contract.taxonomy.get(code)?.class === "permission"));
}

/** The code an operation uses for a class of failure the suite provokes itself: the first it lists, a `fix_field` one first for invalid input. */
function codeOfClass(contract: ContractSpec, op: OperationSpec, cls: string): string | undefined {
  const listed = op.errors.filter((c) => contract.taxonomy.get(c)?.class === cls);
  return (cls === "invalid_input" ? listed.find((c) => contract.taxonomy.get(c)?.action === "fix_field") : undefined) ?? listed[0];
}

/**
 * The error arrived as the taxonomy declares `code`: an error envelope the operation allows (checked by
 * expectDeclaredError: listed code, status, details schema), this very code, the recovery action and
 * field the taxonomy ties to it when the envelope carries them.
 */
function expectProvoked(h: Harness, op: OperationSpec, exchange: Exchange, code: string, how: string): { spec: ErrorSpec; outcome: unknown } {
  const declared = h.contract.taxonomy.get(code);
  const promise = `${how} must fail with ${code}${declared ? ` (class ${declared.class})` : ""}`;
  if (exchange.status < 400) throw violation(`${op.id}: ${promise}, but it succeeded (${exchange.status})`, exchange);
  const e = h.expectDeclaredError(op, exchange);
  if (e.code !== code) throw violation(`${op.id}: ${promise}, got ${e.code} (class ${e.spec.class})`, exchange);
  // Only the envelope carries an action and an outcome; other formats say the code alone.
  const error = e.envelope ?? {};
  for (const name of ["action", "recoveryAction"]) {
    if (error[name] !== undefined && error[name] !== e.spec.action) {
      throw violation(`${op.id}: ${code} carries the recovery action ${JSON.stringify(error[name])}, the taxonomy declares ${e.spec.action}`, exchange);
    }
  }
  // A format without a field pointer cannot name the field: only the envelope and a declared pointer are held to it.
  const namesFields = h.errorsNameFields;
  const field = namesFields ? e.spec.field : null;
  if (field !== null && e.field !== field && !e.field?.startsWith(`${field}.`) && !e.field?.startsWith(`${field}[`)) {
    throw violation(`${op.id}: ${code} must name the field the taxonomy ties it to (${field}), it names ${String(e.field)}`, exchange);
  }
  if (namesFields && e.spec.class === "invalid_input" && e.field === null && e.spec.action === "fix_field") {
    throw violation(`${op.id}: ${code} asks the caller to fix a field, but names none`, exchange);
  }
  return { spec: e.spec, outcome: error.outcome };
}

/** What the wire protocol says of an error without another outcome: nothing happened. */
async function expectRejectedHasNoEffect(h: Harness, op: OperationSpec, before: string | undefined, outcome: unknown, code: string, exchange: Exchange): Promise<void> {
  if (outcome === undefined || outcome === "rejected") await expectNoEffect(h, op, before, `a call refused with ${code}`, exchange);
}

/**
 * `code` provoked: with the fixture's errorInput, or, for what the contract alone can provoke, with a
 * sample call without a credential (unauthenticated) or broken as the first negative case (invalid input).
 */
export async function provokedError(h: Harness, op: OperationSpec, code: string): Promise<CheckResult> {
  const spec = h.contract.taxonomy.get(code);
  await h.fixture.reset();
  const before = await h.snapshot();
  const provoked = h.fixture.errorInput ? await h.fixture.errorInput(op.id, code) : undefined;
  if (provoked !== undefined) {
    let input = withKey(op, { ...provoked }, Object.hasOwn(provoked, op.idempotency?.keyField ?? "") ? undefined : randomUUID());
    // Most errors are found before anything executes: a previewable operation is probed with a preview.
    if (op.preview && !Object.hasOwn(input, op.preview.dryRunField)) input = { ...input, [op.preview.dryRunField]: true };
    const exchange = await h.call(op, input);
    // A derived input (derive.ts: an identifier no answer showed) guesses; another answer is no violation by itself.
    const mark = derivationOf(provoked);
    if (mark !== undefined) {
      const got = exchange.status < 400 ? `success (${exchange.status})` : h.expectDeclaredError(op, exchange).code;
      if (got !== code) return { skip: `${op.id} answered ${got}, not ${code}, to the input the suite derived (${mark.how}) — ${errorEnabler(h, op, code)}` };
    }
    const { outcome } = expectProvoked(h, op, exchange, code, mark !== undefined ? `the derived input (${mark.how})` : "the fixture's errorInput");
    await expectRejectedHasNoEffect(h, op, before, outcome, code, exchange);
    return;
  }
  if (!spec) return { skip: `${code} is not in the taxonomy, and ${errorInputCall(h, op, code)}${enablerWording({ kind: "error", operation: op.id, code }) !== undefined ? "" : ` — return parameters that make ${op.id} fail with ${code} from the reset state`}` };
  const params = sample(h, op);
  if (spec.class === "unauthenticated" && codeOfClass(h.contract, op, "unauthenticated") === code && needsCredential(h.contract, op)) {
    if (!params) return noSample(op);
    const request = withKey(op, op.preview ? { ...params, [op.preview.dryRunField]: true } : params, randomUUID());
    for (const [token, how] of [
      [null, "a call without a credential"],
      [`not-a-credential-${randomUUID()}`, "a call with an unknown credential"],
    ] as const) {
      const exchange = await h.call(op, request, { token });
      const { outcome } = expectProvoked(h, op, exchange, code, how);
      await expectRejectedHasNoEffect(h, op, before, outcome, code, exchange);
    }
    return;
  }
  if (spec.class === "invalid_input" && codeOfClass(h.contract, op, "invalid_input") === code) {
    if (!params) return noSample(op);
    // A case on an expectation or the confirm token may rightly be refused with their own errors: another first.
    const ownErrors = new Set([...op.preconditions.map((pre) => pre.field), ...(op.preview ? [op.preview.confirmTokenField] : [])]);
    const cases = negativeCases(op);
    const broken = cases.find((c) => !ownErrors.has(c.field)) ?? cases[0];
    if (!broken) return { skip: `the input schema has no constraint to break, and ${errorInputCall(h, op, code)}${enablerWording({ kind: "error", operation: op.id, code }) !== undefined ? "" : ` — return parameters that make ${op.id} fail with ${code} from the reset state`}` };
    let input = withKey(op, params, randomUUID());
    if (op.preview) input = { ...input, [op.preview.dryRunField]: true };
    const exchange = await h.call(op, broken.apply(input));
    const { outcome } = expectProvoked(h, op, exchange, code, `${broken.name}`);
    await expectRejectedHasNoEffect(h, op, before, outcome, code, exchange);
    return;
  }
  if (enablerWording({ kind: "error", operation: op.id, code }) !== undefined) return { skip: `nothing provokes ${code}: ${errorInputCall(h, op, code)}` };
  return { skip: `the fixture cannot provoke ${code}: ${errorInputCall(h, op, code)} — return parameters that make ${op.id} fail with ${code} from the reset state` };
}

/** How the fixture answered (or could answer) the request for parameters provoking `code`. */
function errorInputCall(h: Harness, op: OperationSpec, code: string): string {
  const worded = enablerWording({ kind: "error", operation: op.id, code });
  if (worded !== undefined) return `none was given or derived — ${worded}`;
  return h.fixture.errorInput ? `fixture.errorInput(${JSON.stringify(op.id)}, ${JSON.stringify(code)}) returned nothing` : "the fixture has no errorInput(operation, code)";
}

/** What gives input provoking `code`, worded by the fixture: its flag or file entry, else the fixture member. */
function errorEnabler(h: Harness, op: OperationSpec, code: string): string {
  return enablerWording({ kind: "error", operation: op.id, code }) ?? `return parameters that make ${op.id} fail with ${code} from the reset state (fixture.errorInput)`;
}

/** No credential lacking `scope`: the permission checks skip, naming what would give one. */
export function noCredentialWithout(h: Harness, scope: string): { readonly skip: string } {
  const worded = enablerWording({ kind: "tokenWithout", scope });
  if (worded !== undefined) return { skip: `no credential lacking ${scope} — ${worded}` };
  const member = h.fixture.tokenWithout ? `fixture.tokenWithout(${JSON.stringify(scope)}) returned nothing` : "the fixture has no tokenWithout(scope)";
  return { skip: `the fixture has no credential lacking ${scope}: ${member} — return a credential with every scope except ${scope}` };
}

/**
 * A credential lacking one of the operation's scopes is refused with the permission class (a code the
 * operation lists; never a retryable class), and nothing happens — tried as a full execution, with a
 * confirm token the complete credential obtained, so only the scope stands in the way.
 */
export async function missingScope(h: Harness, op: OperationSpec, scope: string): Promise<CheckResult> {
  const limited = h.fixture.tokenWithout?.(scope);
  if (limited === undefined) {
    return noCredentialWithout(h, scope);
  }
  await h.fixture.reset();
  const params = sample(h, op);
  if (!params) return noSample(op);
  const request = await executionInput(h, op, params, randomUUID());
  const before = await h.snapshot();
  const exchange = await h.call(op, request, { token: limited });
  const promise = `a call with a credential lacking the scope ${scope} must be refused as permission`;
  if (exchange.status < 400) throw violation(`${op.id}: ${promise}, but it succeeded (${exchange.status})`, exchange);
  const e = h.expectDeclaredError(op, exchange);
  if (e.spec.class !== "permission") throw violation(`${op.id}: ${promise}, got ${e.code} (class ${e.spec.class}, action ${e.spec.action})`, exchange);
  const { outcome } = expectProvoked(h, op, exchange, e.code, `a call lacking the scope ${scope}`);
  await expectRejectedHasNoEffect(h, op, before, outcome, e.code, exchange);
}

/** Whether the operation needs a credential: the contract has auth and the operation is not public (`auth: []`). */
function needsCredential(contract: ContractSpec, op: OperationSpec): boolean {
  if (contract.auth.type === "none") return false;
  const alternatives = op.auth ?? (contract.auth.type === "schemes" ? contract.auth.require : [["default"]]);
  return alternatives.length > 0;
}
