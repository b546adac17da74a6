/**
 * The contract's promises as checks. Each check takes the harness and an operation, resets the
 * implementation first, and either returns (passed), returns a skip reason (the fixture gave nothing
 * to check with), or throws a ContractViolation saying which promise broke.
 */
import { randomUUID } from "node:crypto";
import { type Enabler, enablerWording, type Exchange, type Harness, type Input, notImplementedReason, type OperationSpec, type Schema, violation, sampleName } from "./harness.js";
import { styledTraversal } from "./checks-paging.js";
import { derivedInputs } from "./samples.js";
import { noOtherValue, otherAllowedValues, validOnTheWire } from "./wire-values.js";

export type CheckResult = void | { readonly skip: string };

// --- skip reasons: each names the fixture member (and what to give it) that would enable the check ---

/** fixture.sampleInput(op, variant) gave nothing. */
export function noSample(op: OperationSpec, variant = 0): { readonly skip: string } {
  // An operation whose stub answered has no sample to give: it is not implemented yet, which says more.
  const stub = notImplementedReason(op.id);
  if (stub !== undefined) return { skip: stub };
  const worded = enablerWording({ kind: "sample", operation: op.id, variant });
  if (worded !== undefined) return { skip: `no ${variant === 0 ? "" : "second "}sample input of ${op.id} — ${worded}` };
  const add = variant === 0 ? `parameters of ${op.id} that succeed from the reset state` : `a second sample (other parameters of ${op.id} that also succeed from the reset state)`;
  return { skip: `fixture.sampleInput(${JSON.stringify(op.id)}, ${variant}) returned nothing — add ${add}` };
}

/**
 * The fixture lacks the optional member `member` (written as it is called); `what` says what it must
 * do. With `need`, a fixture that words its enablers (contractgen test) names its own flag instead.
 */
export function noMember(member: string, what: string, need?: Enabler): { readonly skip: string } {
  const worded = need !== undefined ? enablerWording(need) : undefined;
  if (worded !== undefined) return { skip: `nothing can ${what} — ${worded}` };
  return { skip: `the fixture has no ${member} — add it: ${what}` };
}

/** No snapshot of the implementation's data: the checks telling effects apart skip. */
export function noObserve(): { readonly skip: string } {
  return noMember("observe()", "take a snapshot of everything an operation may change (compared as JSON to tell effects apart)", { kind: "observe" });
}

// --- calling ----------------------------------------------------------------------------------------

/**
 * The fixture's sample input, or, when it gives none for the operation at all, one the contract alone
 * makes safe (samples.ts: reads without identifiers whose required fields the schema fills).
 */
export function sample(h: Harness, op: OperationSpec, variant = 0): Input | undefined {
  const input = h.fixture.sampleInput(op.id, variant);
  if (input !== undefined) return { ...input };
  if (variant > 0 && h.fixture.sampleInput(op.id, 0) !== undefined) return undefined;
  const derived = derivedInputs(op)[variant];
  return derived === undefined ? undefined : { ...derived };
}

export function withKey(op: OperationSpec, input: Input, key: string | undefined): Input {
  return op.idempotency && key !== undefined ? { ...input, [op.idempotency.keyField]: key } : input;
}

/** Preview `params` and return the confirm token (the preview's response is checked on the way). */
async function confirmToken(h: Harness, op: OperationSpec, params: Input): Promise<string> {
  const p = op.preview!;
  const preview = await h.call(op, { ...params, [p.dryRunField]: true });
  const body = h.expectSuccess(op, preview, p.output ?? true, "a preview");
  const token = body[p.confirmTokenField];
  if (typeof token !== "string") throw violation(`${op.id}: a preview must return a confirm token in ${p.confirmTokenField}`, preview);
  return token;
}

/** The request that executes `params` under `key` (previewing first to get a token when the operation asks for one). */
export async function executionInput(h: Harness, op: OperationSpec, params: Input, key: string | undefined): Promise<Input> {
  const input = withKey(op, params, key);
  if (!op.preview) return input;
  return { ...input, [op.preview.dryRunField]: false, [op.preview.confirmTokenField]: await confirmToken(h, op, params) };
}

export async function execute(h: Harness, op: OperationSpec, params: Input, key: string | undefined = randomUUID()): Promise<Exchange> {
  return h.call(op, await executionInput(h, op, params, key));
}

export async function expectNoEffect(h: Harness, op: OperationSpec, before: string | undefined, what: string, exchange: Exchange): Promise<void> {
  const after = await h.snapshot();
  if (before !== after) throw violation(`${op.id}: ${what} must have no effect, but the observed state changed`, exchange);
}

function expectCode(h: Harness, op: OperationSpec, exchange: Exchange, code: string | null, promise: string, field?: string): void {
  if (exchange.status < 400) throw violation(`${op.id}: ${promise}, but it succeeded (${exchange.status})`, exchange);
  const e = h.expectDeclaredError(op, exchange);
  // A derived sample whose expectation went stale is the derivation's fault, not the implementation's.
  if (exchange.derived !== undefined && code !== null && e.code !== code && op.preconditions.some((pre) => pre.error === e.code)) throw h.derivedRefusal(op, exchange, e.code);
  if (code !== null && e.code !== code) throw violation(`${op.id}: ${promise}: expected ${code}, got ${e.code}`, exchange);
  // A format without a field pointer cannot name the field.
  if (field !== undefined && h.errorsNameFields && e.field !== field) throw violation(`${op.id}: ${promise}: the error must name the field ${field}, it names ${String(e.field)}`, exchange);
}

// --- schema conformance -------------------------------------------------------------------------------

/** A call with the fixture's sample parameters succeeds and answers the declared output schema. */
export async function conformance(h: Harness, op: OperationSpec): Promise<CheckResult> {
  await h.fixture.reset();
  const params = sample(h, op);
  if (!params) return noSample(op);
  h.expectSuccess(op, await execute(h, op, params));
}

// --- negative inputs ----------------------------------------------------------------------------------

export interface NegativeCase {
  readonly name: string;
  /** The top-level input field the error must name. */
  readonly field: string;
  readonly apply: (input: Input) => Input;
}

export function resolve(root: Schema, schema: unknown, depth = 0): Record<string, unknown> | null {
  if (!schema || typeof schema !== "object") return null;
  const s = schema as Record<string, unknown>;
  const ref = s.$ref;
  if (typeof ref === "string" && ref.startsWith("#/$defs/") && depth < 8 && typeof root === "object") {
    const defs = root.$defs as Record<string, unknown> | undefined;
    const target = defs && Object.hasOwn(defs, ref.slice(8)) ? defs[ref.slice(8)] : undefined;
    return resolve(root, target, depth + 1);
  }
  return s;
}

function typesOf(s: Record<string, unknown>): string[] {
  if (typeof s.type === "string") return [s.type];
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === "string");
  if (Array.isArray(s.enum)) return [...new Set(s.enum.map((v) => (v === null ? "null" : Number.isInteger(v) ? "integer" : typeof v)))];
  return [];
}

function wrongTypeValue(types: readonly string[]): unknown {
  if (!types.includes("string")) return "not-a-value";
  if (!types.includes("object")) return { unexpected: true };
  return undefined;
}

function notMatching(pattern: string): string | undefined {
  let re: RegExp;
  try {
    re = new RegExp(pattern, "u");
  } catch {
    return undefined;
  }
  return ["!", " ", "~~", "-1", "A", "a", "0"].find((c) => !re.test(c));
}

function set(field: string, value: unknown): (input: Input) => Input {
  return (input) => ({ ...input, [field]: value });
}

/** An object holding `member` alone (defined, so a member named `__proto__` is an ordinary one). */
function memberObject(member: string, value: unknown): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  Object.defineProperty(object, member, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

/** `field`'s object with one member set (the sample's other members kept), as a nested case sends it. */
function setMember(field: string, member: string, value: unknown): (input: Input) => Input {
  return (input) => {
    const current = input[field];
    const object: Record<string, unknown> = current !== null && typeof current === "object" && !Array.isArray(current) ? { ...(current as Record<string, unknown>) } : {};
    Object.defineProperty(object, member, { value, enumerable: true, writable: true, configurable: true });
    return { ...input, [field]: object };
  };
}

/**
 * The longest string a length case sends (1 MiB). Past it the case would test the transport and the
 * memory of both sides rather than the schema (a contract may say `maxLength: 1000000000`).
 */
const LONGEST_PROBE = 1 << 20;

/** Formats a value such as "not-a-value" breaks (ajv-formats asserts them), for members of structured parameters. */
const BROKEN_BY_TEXT = new Set(["date", "date-time", "time", "uuid", "email", "ipv4", "ipv6", "uri"]);

/** What breaks one constraint of a scalar schema `s`, each with the words naming it (after the value's label). */
function constraintBreaks(s: Record<string, unknown>, inPath: boolean): Array<{ what: string; value: unknown }> {
  const out: Array<{ what: string; value: unknown }> = [];
  if (typeof s.minimum === "number") out.push({ what: `below minimum ${s.minimum}`, value: s.minimum - 1 });
  if (typeof s.exclusiveMinimum === "number") out.push({ what: `at exclusive minimum ${s.exclusiveMinimum}`, value: s.exclusiveMinimum });
  if (typeof s.maximum === "number") out.push({ what: `above maximum ${s.maximum}`, value: s.maximum + 1 });
  if (typeof s.exclusiveMaximum === "number") out.push({ what: `at exclusive maximum ${s.exclusiveMaximum}`, value: s.exclusiveMaximum });
  if (typeof s.minLength === "number" && s.minLength > 0 && s.minLength - 1 <= LONGEST_PROBE && !inPath) out.push({ what: `shorter than ${s.minLength}`, value: "a".repeat(s.minLength - 1) });
  if (typeof s.maxLength === "number" && s.maxLength + 1 <= LONGEST_PROBE) out.push({ what: `longer than ${s.maxLength}`, value: "a".repeat(s.maxLength + 1) });
  if (Array.isArray(s.enum) && s.enum.every((v) => typeof v === "string")) out.push({ what: "outside its enum", value: "not-a-declared-value" });
  if (typeof s.pattern === "string") {
    const bad = notMatching(s.pattern);
    if (bad !== undefined) out.push({ what: `not matching ${s.pattern}`, value: bad });
  }
  return out;
}

/** A case the schema forbids that is no fault once serialized, and why it is not generated. */
export interface DroppedCase {
  readonly name: string;
  readonly why: string;
}

const caseSets = new WeakMap<OperationSpec, { cases: NegativeCase[]; dropped: DroppedCase[] }>();

/**
 * Inputs the contract's input schema forbids, one constraint at a time, each naming the top-level field
 * it breaks. Only what the wire can express is generated: a path, query, header or cookie value is
 * serialized by its binding's style and read back as a server reads it (wire-values.ts), and a case
 * whose value is valid once read back (`tags=not-a-value` is the array ["not-a-value"] in form style
 * without explode), or is no serialization of the field at all (`occurred=not-a-value` for a
 * deepObject), is not generated: droppedNegativeCases says why. The members of a structured
 * parameter (an array's items, a deepObject's properties) get cases of their own.
 */
export function negativeCases(op: OperationSpec): NegativeCase[] {
  return negativeCaseSet(op).cases;
}

/** The cases negativeCases leaves out because the wire makes them valid, each with why. */
export function droppedNegativeCases(op: OperationSpec): DroppedCase[] {
  return negativeCaseSet(op).dropped;
}

function negativeCaseSet(op: OperationSpec): { cases: NegativeCase[]; dropped: DroppedCase[] } {
  const known = caseSets.get(op);
  if (known) return known;
  const cases: NegativeCase[] = [];
  const dropped: DroppedCase[] = [];
  caseSets.set(op, { cases, dropped });
  const root = op.input;
  const schema = resolve(root, root);
  if (!schema) return { cases, dropped };
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const binding = new Map(op.bindings.map((b) => [b.field, b.in]));
  /** A case sending `value` (the whole field's value, judged on the wire) through `apply`. */
  const judged = (name: string, field: string, value: unknown, apply: (input: Input) => Input = set(field, value)) => {
    const why = validOnTheWire(op, field, value);
    if (why === null) cases.push({ name, field, apply });
    else dropped.push({ name, why: `${why}: not a fault on the wire, so no case` });
  };
  for (const field of Object.keys(properties).sort()) {
    const s = resolve(root, properties[field]);
    if (!s) continue;
    const where = binding.get(field) ?? "body";
    const types = typesOf(s);
    if (required.has(field) && where !== "path") {
      cases.push({ name: `missing required ${field}`, field, apply: (i) => Object.fromEntries(Object.entries(i).filter(([k]) => k !== field)) });
    }
    const wrong = wrongTypeValue(types);
    if (types.length > 0 && wrong !== undefined && (where === "body" || !types.includes("string"))) judged(`wrong type for ${field}`, field, wrong);
    for (const b of constraintBreaks(s, where === "path")) judged(`${field} ${b.what}`, field, b.value);
    if (where === "body") continue;
    // A structured parameter: its members, as its style writes them.
    if (types.includes("array")) {
      const items = resolve(root, s.items);
      if (items) for (const b of constraintBreaks(items, false)) judged(`an item of ${field} ${b.what}`, field, [b.value]);
    }
    if (types.includes("object")) {
      const members = (s.properties ?? {}) as Record<string, unknown>;
      for (const member of Object.keys(members).sort()) {
        const m = resolve(root, members[member]);
        if (!m) continue;
        const memberTypes = typesOf(m);
        const label = `${field}.${member}`;
        if (memberTypes.length > 0 && !memberTypes.includes("string")) judged(`wrong type for ${label}`, field, memberObject(member, "not-a-value"), setMember(field, member, "not-a-value"));
        else if (typeof m.format === "string" && BROKEN_BY_TEXT.has(m.format)) judged(`${label} not a ${m.format}`, field, memberObject(member, "not-a-value"), setMember(field, member, "not-a-value"));
        for (const b of constraintBreaks(m, false)) judged(`${label} ${b.what}`, field, memberObject(member, b.value), setMember(field, member, b.value));
      }
    }
  }
  if (schema.additionalProperties === false) {
    cases.push({ name: "an extra property", field: "unexpected_property", apply: set("unexpected_property", 1) });
  }
  return { cases, dropped };
}

/** The forbidden input is refused with the operation's invalid-input error naming the field, and changes nothing. */
export async function negativeInput(h: Harness, op: OperationSpec, c: NegativeCase): Promise<CheckResult> {
  await h.fixture.reset();
  const params = sample(h, op);
  if (!params) return noSample(op);
  const before = await h.snapshot();
  // A preview-capable operation is probed as a preview: validation comes before any token is needed.
  let input = withKey(op, params, randomUUID());
  if (op.preview) input = { ...input, [op.preview.dryRunField]: true };
  const sent = c.apply(input);
  const exchange = await h.call(op, sent);
  if (exchange.status < 400) throw violation(`${op.id}: ${c.name} must be refused as invalid input, but it succeeded (${exchange.status})`, exchange);
  const e = h.expectDeclaredError(op, exchange);
  // A malformed or missing expectation matches no current value either: its precondition's refusal is as correct.
  const expectation = op.preconditions.find((pre) => pre.field === c.field);
  // A malformed confirm token authorises nothing: the invalid-token refusal is as correct.
  const token = op.preview && op.preview.confirmTokenField === c.field ? op.preview.invalidTokenError : null;
  if (e.spec.class !== "invalid_input" && e.code !== expectation?.error && e.code !== token) {
    const accepted = `an invalid_input error${expectation ? ` or ${expectation.error} (the precondition on ${expectation.field})` : ""}${token !== null ? ` or ${token} (the confirm token's)` : ""}`;
    throw violation(`${op.id}: ${c.name} must be refused with ${accepted}, got ${e.code} (class ${e.spec.class})`, exchange);
  }
  if (h.errorsNameFields && (e.field === null || (e.field !== c.field && !e.field.startsWith(`${c.field}.`) && !e.field.startsWith(`${c.field}[`)))) {
    throw violation(`${op.id}: ${c.name}: the invalid-input error must name the field ${c.field}, it names ${String(e.field)}`, exchange);
  }
  await expectNoEffect(h, op, before, `a refused input (${c.name})`, exchange);
}

// --- preview / confirm --------------------------------------------------------------------------------

/** A preview answers the preview output and changes nothing. */
export async function previewHasNoEffect(h: Harness, op: OperationSpec): Promise<CheckResult> {
  await h.fixture.reset();
  const params = sample(h, op);
  if (!params) return noSample(op);
  const before = await h.snapshot();
  const exchange = await h.call(op, { ...params, [op.preview!.dryRunField]: true });
  h.expectSuccess(op, exchange, op.preview!.output ?? true, "a preview");
  await expectNoEffect(h, op, before, "a preview", exchange);
}

/** An execution without a confirm token is refused with the declared error and changes nothing. */
export async function executeWithoutToken(h: Harness, op: OperationSpec): Promise<CheckResult> {
  await h.fixture.reset();
  const params = sample(h, op);
  if (!params) return noSample(op);
  const before = await h.snapshot();
  const exchange = await h.call(op, { ...withKey(op, params, randomUUID()), [op.preview!.dryRunField]: false });
  expectCode(h, op, exchange, op.preview!.invalidTokenError, "an execution without a confirm token must be refused");
  await expectNoEffect(h, op, before, "an execution without a confirm token", exchange);
}

/** A token issued for other parameters does not authorise this execution. */
export async function executeWithOtherParametersToken(h: Harness, op: OperationSpec): Promise<CheckResult> {
  await h.fixture.reset();
  const params = sample(h, op);
  if (!params) return noSample(op);
  const other = sample(h, op, 1);
  if (!other) return noSample(op, 1);
  const token = await confirmToken(h, op, other);
  const before = await h.snapshot();
  const p = op.preview!;
  const exchange = await h.call(op, { ...withKey(op, params, randomUUID()), [p.dryRunField]: false, [p.confirmTokenField]: token });
  expectCode(h, op, exchange, p.invalidTokenError, "a confirm token from a preview of other parameters must be refused");
  await expectNoEffect(h, op, before, "an execution with another preview's token", exchange);
}

/** A token past its ttl authorises nothing. */
export async function expiredToken(h: Harness, op: OperationSpec): Promise<CheckResult> {
  if (!h.fixture.advanceTime) {
    const purpose = `move the implementation's clock forward, so a confirm token can expire (${op.preview!.ttlMs} ms)`;
    return noMember("advanceTime(ms)", purpose, { kind: "clock", purpose });
  }
  await h.fixture.reset();
  const sampled = sample(h, op);
  if (!sampled) return noSample(op);
  const p = op.preview!;
  const token = await confirmToken(h, op, sampled);
  await h.fixture.advanceTime(p.ttlMs + 1000);
  const before = await h.snapshot();
  const exchange = await h.call(op, { ...withKey(op, sampled, randomUUID()), [p.dryRunField]: false, [p.confirmTokenField]: token });
  // Time moved for everything: what expired with the token (a hold, a reservation) may be refused first.
  if (exchange.status >= 400) await expectNoEffect(h, op, before, "an execution with an expired token", exchange);
  await expectRefusal(h, op, exchange, p.invalidTokenError, "an expired confirm token must be refused", sampled);
}

/** A single-use token authorises one execution: a second execution with it (under another key) is refused. */
export async function tokenSingleUse(h: Harness, op: OperationSpec): Promise<CheckResult> {
  await h.fixture.reset();
  const sampled = sample(h, op);
  if (!sampled) return noSample(op);
  const prepared = await executionParams(h, op, sampled, false);
  if ("skip" in prepared) return prepared;
  const p = op.preview!;
  const first = await executionInput(h, op, prepared.params, randomUUID());
  h.expectSuccess(op, await h.call(op, first));
  const before = await h.snapshot();
  const exchange = await h.call(op, withKey(op, { ...first }, randomUUID()));
  // The token is bound to the first execution's parameters, whose required expectations are stale now by design.
  const stale = new Map(requiredExpectations(op).map((pre) => [pre.error, `the expectation ${pre.field}, stale since the first execution`]));
  // Effects first: expectRefusal may preview, and a preview's own effects are another check's concern.
  if (exchange.status >= 400) await expectNoEffect(h, op, before, "a second execution with a used token", exchange);
  await expectRefusal(h, op, exchange, p.invalidTokenError, "a used single-use confirm token must be refused", prepared.params, stale);
}

/**
 * `exchange` is refused with `expected` (null: any declared error), or with another refusal a correct
 * server may give before it gets to that one: those in `also` (code → why), and what a preview of
 * `params` answers now (the call moved the target: a reservation released, a record deleted, a hold
 * expired). The failure message lists every refusal accepted.
 */
export async function expectRefusal(h: Harness, op: OperationSpec, exchange: Exchange, expected: string | null, promise: string, params: Input, also: ReadonlyMap<string, string> = new Map()): Promise<void> {
  if (exchange.status < 400) throw violation(`${op.id}: ${promise}, but it succeeded (${exchange.status})`, exchange);
  const refused = h.expectDeclaredError(op, exchange).code;
  if (expected === null || refused === expected || also.has(refused)) return;
  const accepted = new Map<string, string>([[expected, "the promise's own error"], ...also]);
  if (op.preview) {
    const probe = await h.call(op, { ...params, [op.preview.dryRunField]: true });
    if (probe.status >= 400) {
      const now = h.expectDeclaredError(op, probe).code;
      if (now === refused) return;
      if (!accepted.has(now)) accepted.set(now, "what a preview of the same parameters answers now");
    }
  }
  const listed = [...accepted].map(([code, why]) => `${code} (${why})`).join(" or ");
  throw violation(`${op.id}: ${promise}: expected ${listed}, got ${refused}`, exchange);
}

// --- preconditions ------------------------------------------------------------------------------------

/**
 * A stale expectation fails with the precondition's error naming its field, at preview and execution,
 * and changes nothing. The stale value is one the field's own schema allows (wire-values.ts): a value
 * breaking its pattern or format would rightly be refused as invalid input instead.
 */
export async function stalePrecondition(h: Harness, op: OperationSpec, index: number): Promise<CheckResult> {
  const pre = op.preconditions[index]!;
  await h.fixture.reset();
  const params = sample(h, op);
  if (!params) return noSample(op);
  const current = params[pre.field];
  if (typeof current !== "string" && typeof current !== "number") return { skip: `${sampleName(op.id, 0)} has no ${pre.field} (a number or a string) — add the current expectation to the sample` };
  const staleValue = otherAllowedValues(op, pre.field, current, "stale", 1)[0]?.value;
  if (staleValue === undefined) return { skip: noOtherValue(op, pre.field, current) };
  const staleParams = { ...params, [pre.field]: staleValue };
  const before = await h.snapshot();
  if (op.preview) {
    const preview = await h.call(op, { ...staleParams, [op.preview.dryRunField]: true });
    expectCode(h, op, preview, pre.error, `a preview with a stale ${pre.field} must fail`, pre.field);
    // Execute with a token for the current parameters but the stale expectation: still refused.
    const token = await confirmToken(h, op, params);
    const exchange = await h.call(op, { ...withKey(op, staleParams, randomUUID()), [op.preview.dryRunField]: false, [op.preview.confirmTokenField]: token });
    h.expectDeclaredError(op, exchange);
    await expectNoEffect(h, op, before, `an execution with a stale ${pre.field}`, exchange);
    return;
  }
  const exchange = await h.call(op, withKey(op, staleParams, randomUUID()));
  expectCode(h, op, exchange, pre.error, `an execution with a stale ${pre.field} must fail`, pre.field);
  await expectNoEffect(h, op, before, `an execution with a stale ${pre.field}`, exchange);
}

/**
 * Cases that make two executions drop optional expectations: the first execution makes a value
 * expectation stale by design, which would hide the promise under test behind a precondition error.
 */
function withoutOptionalExpectations(op: OperationSpec, params: Input): Input {
  const required = requiredInputs(op);
  const out = { ...params };
  for (const pre of op.preconditions) if (!required.has(pre.field)) delete out[pre.field];
  return out;
}

function requiredInputs(op: OperationSpec): Set<string> {
  const root = resolve(op.input, op.input) ?? {};
  return new Set(Array.isArray(root.required) ? (root.required as string[]) : []);
}

/** The expectations a caller cannot leave out (required input fields): a second execution must re-read them. */
function requiredExpectations(op: OperationSpec): OperationSpec["preconditions"] {
  const required = requiredInputs(op);
  return op.preconditions.filter((pre) => pre.required === true || required.has(pre.field));
}

/** The target as `read` shows it, addressed by the fields of `params` its input takes; null when it cannot be addressed. */
export async function readTarget(h: Harness, read: OperationSpec, params: Input): Promise<Record<string, unknown> | null> {
  const s = resolve(read.input, read.input) ?? {};
  const properties = s.properties && typeof s.properties === "object" ? Object.keys(s.properties) : [];
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  const input: Input = {};
  for (const f of properties) if (Object.hasOwn(params, f)) input[f] = params[f];
  if (required.some((f) => !Object.hasOwn(input, f))) return null;
  const exchange = await h.call(read, input);
  return h.expectSuccess(read, exchange, read.output, `reading back the target with ${read.id}`);
}

/** Parameters to send, or why the check cannot build them. */
export type Prepared = { readonly params: Input } | { readonly skip: string };

/**
 * `params` as a correct caller sends them for an execution: every expectation it carries (a
 * precondition's field) set to the target's current value of what it `compares`, read with the
 * contract's `target.readWith`. `afterEffects`: earlier executions may have changed the target, so
 * the read is needed and its absence is a skip reason; otherwise (right after a reset) the sampled
 * expectation stands when the target cannot be read.
 */
export async function withFreshExpectations(h: Harness, op: OperationSpec, params: Input, afterEffects: boolean): Promise<Prepared> {
  const carried = op.preconditions.filter((pre) => Object.hasOwn(params, pre.field));
  if (carried.length === 0) return { params };
  const fields = carried.map((pre) => pre.field).join(", ");
  const read = op.readWith ? h.contract.operations.find((o) => o.id === op.readWith) : undefined;
  const target = read ? await readTarget(h, read, params) : null;
  const out = { ...params };
  for (const pre of carried) {
    const compares = pre.compares ?? (pre.kind === "revision" ? "revision" : undefined);
    if (target && compares !== undefined && Object.hasOwn(target, compares)) {
      out[pre.field] = target[compares];
      continue;
    }
    if (!afterEffects) continue;
    if (!read) return { skip: `${op.id}'s expectation ${fields} goes stale at the first execution and the contract names no read of its target to re-read it with — declare target.readWith` };
    if (!target) return { skip: `${read.id} (target.readWith) cannot be addressed from ${sampleName(op.id, 0)} — give the sample the fields ${read.id} requires` };
    return { skip: `${read.id} (target.readWith) does not show ${compares ?? "the compared value"}, so ${pre.field} cannot be re-read between executions — declare the precondition's compares` };
  }
  return { params: out };
}

/** The parameters of a new execution: optional expectations left out, required ones re-read from the target. */
function executionParams(h: Harness, op: OperationSpec, sampled: Input, afterEffects: boolean): Promise<Prepared> {
  return withFreshExpectations(h, op, withoutOptionalExpectations(op, sampled), afterEffects);
}

// --- idempotency --------------------------------------------------------------------------------------

/** The same key twice: one effect, and the second answer is the first one replayed. */
export async function sameKeyReplays(h: Harness, op: OperationSpec): Promise<CheckResult> {
  await h.fixture.reset();
  const sampled = sample(h, op);
  if (!sampled) return noSample(op);
  const prepared = await withFreshExpectations(h, op, sampled, false);
  if ("skip" in prepared) return prepared;
  const request = await executionInput(h, op, prepared.params, randomUUID());
  const first = await h.call(op, request);
  h.expectSuccess(op, first);
  const once = await h.snapshot();
  // The very same request (key, expectations and token): answered from the record, before any of them is checked.
  const second = await h.call(op, request);
  h.expectSuccess(op, second, op.output, "the recorded outcome replayed");
  if (JSON.stringify(second.body) !== JSON.stringify(first.body)) throw violation(`${op.id}: a retry under the same key must replay the first response`, second);
  if (second.headers.get("idempotent-replayed") !== "true") throw violation(`${op.id}: a replayed response must carry Idempotent-Replayed: true`, second);
  await expectNoEffect(h, op, once, "a retry under the same key", second);
}

/**
 * Other parameters under a used key are refused with the mismatch error and change nothing. The
 * other parameters are what a correct caller would send after the first execution: their
 * expectations re-read from the target (the first execution made the sampled ones stale), and
 * previewed for a token of their own where the operation asks for one.
 */
export async function changedParametersRejected(h: Harness, op: OperationSpec): Promise<CheckResult> {
  await h.fixture.reset();
  const sampled = sample(h, op);
  if (!sampled) return noSample(op);
  const otherSampled = sample(h, op, 1);
  if (!otherSampled) return noSample(op, 1);
  const first = await executionParams(h, op, sampled, false);
  if ("skip" in first) return first;
  const key = randomUUID();
  h.expectSuccess(op, await execute(h, op, first.params, key));
  const second = await executionParams(h, op, otherSampled, true);
  if ("skip" in second) return second;
  const other = second.params;
  if (canonical(other) === canonical(first.params)) {
    return { skip: `${sampleName(op.id, 1)} asks for the same call as variant 0 once its expectations are re-read — give variant 1 other parameters (another value to set, another target)` };
  }
  const before = await h.snapshot();
  const exchange = await h.call(op, await executionInput(h, op, other, key));
  expectCode(h, op, exchange, op.idempotency!.mismatchError, "other parameters under a used operation key must be refused");
  await expectNoEffect(h, op, before, "other parameters under a used key", exchange);
}

/** JSON with sorted keys: equal parameters compare equal whatever their order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** Two concurrent calls with the same key: one executes, the other gets its outcome; one effect. */
export async function concurrentSameKey(h: Harness, op: OperationSpec): Promise<CheckResult> {
  if (!h.fixture.observe) return noObserve();
  await h.fixture.reset();
  const sampled = sample(h, op);
  if (!sampled) return noSample(op);
  const measured = await executionParams(h, op, sampled, false);
  if ("skip" in measured) return measured;
  // The effect of one call, measured on a fresh state.
  const fresh = await h.snapshot();
  h.expectSuccess(op, await execute(h, op, measured.params));
  const single = await h.snapshot();
  await h.fixture.reset();
  const again = await h.snapshot();
  const prepared = await executionParams(h, op, sampled, false);
  if ("skip" in prepared) return prepared;
  const request = await executionInput(h, op, prepared.params, randomUUID());
  const [a, b] = await Promise.all([h.call(op, request), h.call(op, request)]);
  h.expectSuccess(op, a);
  h.expectSuccess(op, b);
  if (JSON.stringify(a.body) !== JSON.stringify(b.body)) throw violation(`${op.id}: concurrent calls under one key must get the same outcome`, b);
  const after = await h.snapshot();
  if (!sameEffect(fresh, single, again, after)) throw violation(`${op.id}: concurrent calls under one key must have one effect`, b);
}

/**
 * Whether `before → after` made as much change as `first → firstAfter`: equal shapes when both started
 * from the same state (a real reset); else, when reset() does not restore the data (contractgen test
 * without --reset-command), an equal growth of the snapshot's shape (one record each).
 */
function sameEffect(first: string | undefined, firstAfter: string | undefined, before: string | undefined, after: string | undefined): boolean {
  if (sameShape(first, before)) return sameShape(firstAfter, after);
  const size = (s: string | undefined): number => shapeOf(s).length;
  return size(firstAfter) - size(first) === size(after) - size(before);
}

function shapeOf(s: string | undefined): string {
  return JSON.stringify(JSON.parse(s ?? "null", (_k, v: unknown) => (Array.isArray(v) || v === null || typeof v === "object" ? v : 0)));
}

/** Snapshots of two runs differ in generated ids and times; one effect each means equally many records. */
function sameShape(a: string | undefined, b: string | undefined): boolean {
  const shape = (s: string | undefined): string => JSON.stringify(JSON.parse(s ?? "null", (_k, v: unknown) => (Array.isArray(v) || v === null || typeof v === "object" ? v : 0)));
  return shape(a) === shape(b);
}

/**
 * Why two executions with equal parameters cannot both succeed against a correct implementation, from
 * the contract; null when they can. An operation that removes its target (DELETE) finds nothing the
 * second time; a required expectation is stale by design after the first execution (re-reading it
 * would make the parameters unequal, and the promise untested).
 */
export function whyNotTwoEffects(op: OperationSpec): string | null {
  if (op.method === "DELETE") {
    return `${op.id} removes its target (DELETE${op.destructive ? ", destructive" : ""}): after the first execution a second one with equal parameters has nothing to act on, so two keys cannot give two effects`;
  }
  const stale = requiredExpectations(op);
  if (stale.length > 0) {
    const named = stale.map((pre) => `${pre.field} (compares ${pre.compares ?? "revision"})`).join(", ");
    return `${op.id} requires the expectation ${named}: the first execution makes it stale, so a second execution with equal parameters must fail with ${stale[0]!.error}; two keys with equal parameters cannot give two effects`;
  }
  return null;
}

/** Two keys with equal parameters are two intents: two effects (where the contract lets both succeed). */
export async function distinctKeysTwoEffects(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const why = whyNotTwoEffects(op);
  if (why !== null) return { skip: why };
  if (!h.fixture.observe) return noObserve();
  await h.fixture.reset();
  const sampled = sample(h, op);
  if (!sampled) return noSample(op);
  const params = withoutOptionalExpectations(op, sampled);
  const s0 = await h.snapshot();
  h.expectSuccess(op, await execute(h, op, params, randomUUID()));
  const s1 = await h.snapshot();
  const second = await execute(h, op, params, randomUUID());
  h.expectSuccess(op, second);
  const s2 = await h.snapshot();
  if (s0 === s1 || s1 === s2) throw violation(`${op.id}: two calls with distinct operation keys must have two effects`, second);
}

// --- pagination ---------------------------------------------------------------------------------------

/** Walk every page with a small page size: each page conforms, the last cursor is null, the totals add up. */
export async function traversal(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const p = op.pagination!;
  if (p.style !== undefined && p.style !== "cursor") {
    await h.fixture.reset();
    const params = sample(h, op);
    return params ? styledTraversal(h, op, params) : noSample(op);
  }
  if (p.cursorField === null || p.nextCursorField === null || p.itemsField === null || p.limitField === null || p.limitMax === null) return { skip: "the cursor pagination is incompletely described" };
  await h.fixture.reset();
  const params = sample(h, op);
  if (!params) return noSample(op);
  const limit = Math.min(2, p.limitMax);
  let cursor: unknown = undefined;
  let received = 0;
  let declaredTotal: unknown = undefined;
  // Pages seen: a page repeating an earlier one, or more pages than the declared total needs, never ends.
  const seenPages = new Map<string, number>();
  for (let page = 0; ; page++) {
    if (page > 10_000) throw violation(`${op.id}: more than 10000 pages: the cursor never ends`);
    if (typeof declaredTotal === "number" && (received > declaredTotal || page >= declaredTotal + 2)) {
      throw violation(`${op.id}: the cursor does not advance to the end: after ${page} pages (${received} items) ${p.nextCursorField} still says more follow, but the declared ${p.totalField} is ${declaredTotal}`);
    }
    const input: Input = { ...params, [p.limitField]: limit };
    if (cursor !== undefined) input[p.cursorField] = cursor;
    const exchange = await h.call(op, input);
    const body = h.expectSuccess(op, exchange, op.output, `page ${page + 1}`);
    const items = body[p.itemsField];
    if (!Array.isArray(items)) throw violation(`${op.id}: a page must hold its items in ${p.itemsField}`, exchange);
    if (items.length > limit) throw violation(`${op.id}: a page holds ${items.length} items, more than the ${limit} asked for`, exchange);
    received += items.length;
    const repeated = items.length > 0 ? seenPages.get(JSON.stringify(items)) : undefined;
    if (repeated !== undefined) throw violation(`${op.id}: the cursor does not advance: page ${page + 1} repeats page ${repeated}`, exchange);
    if (items.length > 0) seenPages.set(JSON.stringify(items), page + 1);
    if (p.partialField && body[p.partialField] === true) throw violation(`${op.id}: page ${page + 1} is partial on a healthy data set`, exchange);
    if (p.errorsField && Array.isArray(body[p.errorsField]) && (body[p.errorsField] as unknown[]).length > 0) throw violation(`${op.id}: page ${page + 1} reports errors on a healthy data set`, exchange);
    if (p.totalField) {
      if (declaredTotal !== undefined && body[p.totalField] !== declaredTotal) throw violation(`${op.id}: the declared total changed between pages`, exchange);
      declaredTotal = body[p.totalField];
    }
    const next = body[p.nextCursorField];
    if (next === null || next === undefined) {
      if (next === undefined) throw violation(`${op.id}: the last page must say ${p.nextCursorField}: null`, exchange);
      if (p.totalField && declaredTotal !== received) {
        throw violation(`${op.id}: the traversal received ${received} items but the pages declare ${p.totalField} ${String(declaredTotal)}`, exchange);
      }
      if (received === 0) return { skip: `${sampleName(op.id, 0)} matches no records after fixture.reset() — seed records in reset(), or give filters that match some` };
      return;
    }
    if (items.length === 0) throw violation(`${op.id}: an empty page must be the last one (${p.nextCursorField} null)`, exchange);
    cursor = next;
  }
}

export type { Schema };
