/**
 * Behaviour the contract promises beyond a single call (issue 26): a key is scoped to its operation,
 * not-found holds at execution as at preview, an execution changes exactly what its preview said,
 * preconditions are compared exactly, and record revisions advance on every mutation. Same
 * conventions as checks.ts: reset first, return a skip reason naming what would enable the check, or
 * throw a ContractViolation whose message names the promise.
 */
import { randomUUID } from "node:crypto";
import { type CheckResult, execute, executionInput, expectNoEffect, noSample, resolve, sample, withKey } from "./checks.js";
import { type Exchange, type Harness, type Input, type OperationSpec, type Schema, violation, sampleName } from "./harness.js";
import { noOtherValue, otherAllowedValues } from "./wire-values.js";

type Rec = Record<string, unknown>;

/** The members of OperationSpec.behaviour, with the defaults of specs emitted before it existed. */
function behaviourOf(op: OperationSpec): { readWith: string | null; destructive: boolean; idempotent: string | null; compares: readonly string[]; expiresAtField: string | null; revisionField: string | null } {
  const b = op.behaviour ?? null;
  return {
    readWith: b?.readWith ?? null,
    destructive: b?.destructive ?? false,
    idempotent: b?.idempotent ?? null,
    compares: b?.compares ?? op.preconditions.map((p) => (p.kind === "revision" ? "revision" : "")),
    expiresAtField: b?.expiresAtField ?? null,
    revisionField: b?.revisionField ?? null,
  };
}

function isRecord(v: unknown): v is Rec {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The code of an error answer, or null when it is not one the operation declares. */
function declaredCode(h: Harness, op: OperationSpec, exchange: Exchange): string | null {
  if (exchange.status < 400) return null;
  try {
    return h.expectDeclaredError(op, exchange).code;
  } catch {
    return null;
  }
}

/** The operation's codes of the not_found class. */
function notFoundCodes(h: Harness, op: OperationSpec): string[] {
  return op.errors.filter((c) => h.contract.taxonomy.get(c)?.class === "not_found");
}

/** A preview of `params`: its body (checked against the preview output) and the confirm token it returns. */
async function previewOf(h: Harness, op: OperationSpec, params: Input): Promise<{ body: Rec; token: string }> {
  const p = op.preview!;
  const exchange = await h.call(op, { ...params, [p.dryRunField]: true });
  const body = h.expectSuccess(op, exchange, p.output ?? true, "a preview");
  const token = isRecord(body) ? body[p.confirmTokenField] : undefined;
  if (typeof token !== "string") throw violation(`${op.id}: a preview must return a confirm token in ${p.confirmTokenField}`, exchange);
  return { body, token };
}

/** The execution of `params` with `token` under a fresh operation key. */
function executionWith(op: OperationSpec, params: Input, token: string): Input {
  const p = op.preview!;
  return { ...withKey(op, params, randomUUID()), [p.dryRunField]: false, [p.confirmTokenField]: token };
}

function fail(h: Harness, op: OperationSpec, exchange: Exchange, codes: readonly string[], promise: string): void {
  if (exchange.status < 400) throw violation(`${promise}, but it succeeded (${exchange.status})`, exchange);
  const e = h.expectDeclaredError(op, exchange);
  if (codes.length > 0 && !codes.includes(e.code)) throw violation(`${promise}, got ${e.code} (class ${e.spec.class})`, exchange);
}

// --- reading the target back ----------------------------------------------------------------------

function inputFields(op: OperationSpec): { properties: string[]; required: string[] } {
  const s = resolve(op.input, op.input) ?? {};
  return {
    properties: isRecord(s.properties) ? Object.keys(s.properties) : [],
    required: Array.isArray(s.required) ? (s.required as string[]) : [],
  };
}

/** The read operation's input, addressed by the fields of `params` it takes; the required fields missing when it cannot be. */
function readAddress(read: OperationSpec, params: Input): { input: Input } | { missing: string[] } {
  const { properties, required } = inputFields(read);
  const input: Input = {};
  for (const f of properties) if (Object.hasOwn(params, f)) input[f] = params[f];
  const missing = required.filter((f) => !Object.hasOwn(input, f));
  return missing.length > 0 ? { missing } : { input };
}

/** The target read back: the record, or "gone" when the read answers a not_found-class code. */
async function readBack(h: Harness, read: OperationSpec, address: Input, when: string): Promise<Rec | "gone"> {
  const exchange = await h.call(read, address);
  if (exchange.status >= 400) {
    const e = h.expectDeclaredError(read, exchange);
    if (e.spec.class === "not_found") return "gone";
  }
  const body = h.expectSuccess(read, exchange, read.output, `reading the target back with ${read.id} ${when}`);
  if (!isRecord(body)) throw violation(`${read.id}: the target read back ${when} is not an object`, exchange);
  return body;
}

/**
 * Properties of the target the server manages itself, which may move at any change: those the
 * read's output marks readOnly, timestamps (format date-time) and the revision fields that revision
 * preconditions compare.
 */
function serverManaged(read: OperationSpec, op: OperationSpec): Set<string> {
  const managed = new Set<string>();
  const { compares, revisionField } = behaviourOf(op);
  op.preconditions.forEach((p, i) => {
    if (p.kind === "revision") managed.add(compares[i] || "revision");
  });
  // The record's revision goes up on every change, whether or not a precondition compares it.
  if (revisionField) managed.add(revisionField);
  const root = read.output;
  const s = resolve(root, root);
  const properties = s && isRecord(s.properties) ? s.properties : {};
  for (const [name, schema] of Object.entries(properties)) {
    const p = resolve(root, schema);
    // readOnly, a timestamp, or `revision` (the contract's default revision field, which every change advances).
    if (p && (p.readOnly === true || p.format === "date-time" || name === "revision")) managed.add(name);
  }
  return managed;
}

/**
 * The sample with each expectation it states set to the target's current value (what it compares), so
 * a check starts from expectations that hold even where the implementation was not reset (a live
 * platform under `contractgen test`).
 */
function withCurrentExpectations(op: OperationSpec, params: Input, record: Rec): Input {
  const { compares } = behaviourOf(op);
  const out = { ...params };
  op.preconditions.forEach((p, i) => {
    const c = compares[i];
    if (c && Object.hasOwn(out, p.field) && Object.hasOwn(record, c)) out[p.field] = record[c];
  });
  return out;
}

/** The target as the operation's read shows it now, or null when the contract or the sample cannot address it. */
async function currentTarget(h: Harness, op: OperationSpec, params: Input): Promise<Rec | null> {
  const readWith = behaviourOf(op).readWith;
  if (!readWith) return null;
  const read = h.operation(readWith);
  const address = readAddress(read, params);
  if (!("input" in address)) return null;
  const record = await readBack(h, read, address.input, "before the call");
  return record === "gone" ? null : record;
}

function changedFields(before: Rec, after: Rec): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
}

function shown(v: unknown): string {
  return v === undefined ? "absent" : JSON.stringify(v);
}

// --- 1. a key is scoped to its operation ------------------------------------------------------------

/**
 * An operation key just used on another keyed operation executes this one anew: its own effect and its
 * own output, not the other operation's outcome replayed, nor a mismatch refusal.
 */
export async function keyScopedToOperation(h: Harness, op: OperationSpec): Promise<CheckResult> {
  if (!op.idempotency) return { skip: "the operation takes no operation key" };
  const others = h.contract.operations.filter((o) => o.id !== op.id && o.kind === "mutating" && o.idempotency !== null);
  await h.fixture.reset();
  const params = sample(h, op);
  if (!params) return noSample(op);
  const first = others.find((o) => sample(h, o) !== undefined);
  if (!first) return { skip: `no other keyed operation has a sample input (${others.map((o) => sampleName(o.id, 0)).join(" | ") || "none"})` };
  const key = randomUUID();
  const a = await execute(h, first, sample(h, first)!, key);
  h.expectSuccess(first, a, first.output, `${first.id} (the first use of the key)`);
  const before = await h.snapshot();
  const b = await h.call(op, await executionInput(h, op, params, key));
  const promise = `${op.id}: a key is scoped to its operation: the key just used on ${first.id} must execute ${op.id} anew`;
  if (b.status >= 400) throw violation(`${promise}, but it was refused (${b.status}${declaredCode(h, op, b) ? ` ${declaredCode(h, op, b)}` : ""})`, b);
  if (b.headers.get("idempotent-replayed") === "true") throw violation(`${promise}, not replay an outcome (Idempotent-Replayed: true)`, b);
  if (JSON.stringify(b.body) === JSON.stringify(a.body)) throw violation(`${promise}, not replay ${first.id}'s outcome`, b);
  h.expectSuccess(op, b, op.output, `an execution of ${op.id} under a key used on ${first.id}`);
  const after = await h.snapshot();
  if (before !== undefined && before === after) throw violation(`${promise}, but it had no effect`, b);
}

// --- 2. not-found at execution too --------------------------------------------------------------------

/**
 * Executing against a missing object answers the not_found class, not success. First with a valid
 * flow: two confirm tokens for the sample, one execution; when that made the object missing (a preview
 * of the same parameters now answers not found), the second, still valid token must be refused as not
 * found. Otherwise with the fixture's unseeded identifier (errorInput): no preview of it can issue a
 * token, so the refusal may be not_found or the invalid-token error, whichever the server checks first
 * (the contract does not order them) — but never success.
 */
export async function notFoundAtExecution(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const p = op.preview;
  if (!p) return { skip: "the operation has no preview" };
  const notFound = notFoundCodes(h, op);
  if (notFound.length === 0) return { skip: "the operation declares no not_found-class error" };
  await h.fixture.reset();
  const params = sample(h, op);
  if (!params) return noSample(op);
  const t1 = (await previewOf(h, op, params)).token;
  const t2 = (await previewOf(h, op, params)).token;
  h.expectSuccess(op, await h.call(op, executionWith(op, params, t1)));
  const probe = await h.call(op, { ...params, [p.dryRunField]: true });
  const probeCode = declaredCode(h, op, probe);
  if (probeCode !== null && notFound.includes(probeCode)) {
    const before = await h.snapshot();
    const second = await h.call(op, executionWith(op, params, t2));
    // A server that binds its tokens to the state it previewed may refuse t2 as invalid first: the
    // object moved since. Both refusals are correct; success is not.
    const refusals = p.invalidTokenError !== null ? [...notFound, p.invalidTokenError] : notFound;
    fail(h, op, second, refusals, `${op.id}: not-found holds at execution too: an execution with a confirm token taken before, against the object the first execution made missing, must be refused with ${refusals.join(" or ")} (not found, or a token bound to the state it previewed)`);
    await expectNoEffect(h, op, before, "an execution against a missing object", second);
    return;
  }
  // The sample's object is still there: an identifier the fixture names as unseeded.
  await h.fixture.reset();
  let missing: Input | undefined;
  for (const code of notFound) {
    missing = h.fixture.errorInput ? await h.fixture.errorInput(op.id, code) : undefined;
    if (missing !== undefined) break;
  }
  if (missing === undefined) return { skip: `the sample's execution leaves its object in place and the fixture names no unseeded identifier (errorInput(${op.id}, ${notFound[0]}))` };
  // A token exists only for other parameters (the sample's): the server may refuse either way first.
  // The sample as it stands after this reset (a derived one re-reads its expectations).
  const token = (await previewOf(h, op, sample(h, op) ?? params)).token;
  const before = await h.snapshot();
  const exchange = await h.call(op, executionWith(op, { ...missing }, token));
  const allowed = p.invalidTokenError !== null ? [...notFound, p.invalidTokenError] : [];
  fail(h, op, exchange, allowed, `${op.id}: not-found holds at execution too: an execution against an unseeded identifier must be refused with ${notFound.join(" or ")} (class not_found)${p.invalidTokenError ? ` or ${p.invalidTokenError}` : ""}`);
  await expectNoEffect(h, op, before, "an execution against an unseeded identifier", exchange);
}

// --- 3. an execution changes exactly what its preview said -------------------------------------------

/**
 * Read the target (target.readWith) before, preview, execute with the preview's token, read it after:
 * each target property the preview output names has the previewed value, and no other property
 * changed except those the call itself names (its parameters, the fields its preconditions compare)
 * and those the server manages (readOnly, date-time, the revision). A destructive operation may
 * remove the target; another may not.
 */
export async function executionMatchesPreview(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const p = op.preview;
  const facts = behaviourOf(op);
  if (!p) return { skip: "the operation has no preview" };
  if (!facts.readWith) return { skip: "the contract names no read operation for the target (target.readWith)" };
  const read = h.operation(facts.readWith);
  await h.fixture.reset();
  let params = sample(h, op);
  if (!params) return noSample(op);
  const address = readAddress(read, params);
  if (!("input" in address)) return { skip: `the sample input does not address the target for ${read.id} (${sampleName(op.id, 0)} lacks ${address.missing.join(", ")})` };
  const r0 = await readBack(h, read, address.input, "before the preview");
  if (r0 === "gone") throw violation(`${op.id}: the sample's target is missing before any call (${read.id} answers not found)`);
  params = withCurrentExpectations(op, params, r0);
  const announced = await previewOf(h, op, params);
  const exchange = await h.call(op, executionWith(op, params, announced.token));
  h.expectSuccess(op, exchange);
  const r1 = await readBack(h, read, address.input, "after the execution");
  const promise = `${op.id}: an execution changes exactly what its preview said`;
  if (r1 === "gone") {
    if (facts.destructive) return;
    throw violation(`${promise}: the execution removed the target (${read.id} answers not found), which a non-destructive operation must not`, exchange);
  }
  const skip = new Set([p.confirmTokenField, facts.expiresAtField]);
  const declared = Object.keys(announced.body).filter((f) => !skip.has(f) && Object.hasOwn(r0, f));
  for (const f of declared) {
    if (JSON.stringify(r1[f]) !== JSON.stringify(announced.body[f])) {
      throw violation(`${promise}: the preview said ${f} becomes ${shown(announced.body[f])}; after the execution ${read.id} shows ${shown(r1[f])}`, exchange);
    }
  }
  const allowed = new Set<string>([...declared, ...Object.keys(params), ...serverManaged(read, op)]);
  op.preconditions.forEach((_pre, i) => {
    if (facts.compares[i]) allowed.add(facts.compares[i]!);
  });
  const extra = changedFields(r0, r1).filter((f) => !allowed.has(f));
  if (extra.length > 0) {
    const detail = extra.map((f) => `${f} (${shown(r0[f])} → ${shown(r1[f])})`).join(", ");
    throw violation(`${promise}: ${read.id} shows ${detail} changed, which neither the preview nor the call's parameters or expectations announce`, exchange);
  }
}

// --- 4. preconditions compared exactly ---------------------------------------------------------------

/**
 * Values near the current expectation (a case variant or one character changed of a string, an
 * integer one off; each one the field's schema allows) fail with the precondition's error — at
 * preview and execution — and change nothing: the comparison is exact.
 */
export async function preconditionComparedExactly(h: Harness, op: OperationSpec, index: number): Promise<CheckResult> {
  const pre = op.preconditions[index];
  if (!pre) return { skip: `no precondition ${index}` };
  await h.fixture.reset();
  const sampled = sample(h, op);
  if (!sampled) return noSample(op);
  const target = await currentTarget(h, op, sampled);
  const params = target ? withCurrentExpectations(op, sampled, target) : sampled;
  const current = params[pre.field];
  if (current === undefined) return { skip: `the sample input has no ${pre.field} (${sampleName(op.id, 0)})` };
  // Drawn from the field's own schema (wire-values.ts): a near value it forbids would be refused as invalid input, not compared.
  const near = otherAllowedValues(op, pre.field, current, "near");
  if (near.length === 0) return { skip: `${noOtherValue(op, pre.field, current)}; give another sample than ${sampleName(op.id, 0)}` };
  for (const n of near) {
    const promise = `${op.id}: preconditions are compared exactly: ${pre.field} ${shown(n.value)} (the current ${shown(current)}, ${n.label}) must fail with ${pre.error} and change nothing`;
    const nearParams = { ...params, [pre.field]: n.value };
    const before = await h.snapshot();
    if (op.preview) {
      const preview = await h.call(op, { ...nearParams, [op.preview.dryRunField]: true });
      fail(h, op, preview, [pre.error], `${promise} (as a preview)`);
      // Execute with a token for the current expectation but the near one: still refused.
      const token = (await previewOf(h, op, params)).token;
      const exchange = await h.call(op, executionWith(op, nearParams, token));
      fail(h, op, exchange, [], `${promise} (as an execution)`);
      await expectNoEffect(h, op, before, `an execution with ${pre.field} ${shown(n.value)}`, exchange);
      continue;
    }
    const exchange = await h.call(op, withKey(op, nearParams, randomUUID()));
    fail(h, op, exchange, [pre.error], promise);
    await expectNoEffect(h, op, before, `an execution with ${pre.field} ${shown(n.value)}`, exchange);
  }
}

// --- 5. record revisions advance on every mutation ---------------------------------------------------

function advanced(before: unknown, after: unknown): boolean {
  if (typeof before === "number" && typeof after === "number") return after > before;
  // An opaque revision (an ETag) cannot be ordered: it must differ.
  return after !== undefined && JSON.stringify(after) !== JSON.stringify(before);
}

/**
 * Read the target (target.readWith), execute the sample, read it again: the revision a revision
 * precondition compares is greater. A call that changed nothing on the record may leave it only where
 * the contract allows a no-op (natural idempotency).
 */
export async function revisionAdvances(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const facts = behaviourOf(op);
  const fields = [...new Set([...op.preconditions.map((p, i) => (p.kind === "revision" ? facts.compares[i] || "revision" : null)), facts.revisionField].filter((f): f is string => f !== null))];
  if (fields.length === 0) return { skip: "the target has no revision field (no revision precondition, no revision property in what the target read answers)" };
  if (!facts.readWith) return { skip: "the contract names no read operation for the target (target.readWith)" };
  const read = h.operation(facts.readWith);
  await h.fixture.reset();
  const params = sample(h, op);
  if (!params) return noSample(op);
  const address = readAddress(read, params);
  if (!("input" in address)) return { skip: `the sample input does not address the target for ${read.id} (${sampleName(op.id, 0)} lacks ${address.missing.join(", ")})` };
  const r0 = await readBack(h, read, address.input, "before the execution");
  if (r0 === "gone") throw violation(`${op.id}: the sample's target is missing before any call (${read.id} answers not found)`);
  const exchange = await execute(h, op, withCurrentExpectations(op, params, r0));
  h.expectSuccess(op, exchange);
  const r1 = await readBack(h, read, address.input, "after the execution");
  if (r1 === "gone") return { skip: `the sample's execution removed the target: no revision to compare (give a sample of ${op.id} that changes it)` };
  const managed = serverManaged(read, op);
  const changed = changedFields(r0, r1).filter((f) => !managed.has(f));
  for (const f of fields) {
    if (advanced(r0[f], r1[f])) continue;
    if (changed.length === 0) {
      if (facts.idempotent === "natural") return { skip: `the sample's execution changed nothing on the target (a no-op natural idempotency allows); give a sample of ${op.id} that changes it` };
      throw violation(`${op.id}: record revisions advance on every mutation: ${f} stayed ${shown(r0[f])} after an execution, and the contract allows no no-op here`, exchange);
    }
    throw violation(`${op.id}: record revisions advance on every mutation: ${read.id} shows ${f} ${shown(r0[f])} before and ${shown(r1[f])} after an execution that changed ${changed.join(", ")}`, exchange);
  }
}

export type { Schema };
