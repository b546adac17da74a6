/**
 * Promises that hold across calls and over time (issue 39): a deleted object stays gone, an omitted
 * dry-run flag previews when the contract says so, a precondition and a state-dependent refusal are
 * checked again at execution when the state moved after the preview, a key is kept for its declared
 * retention, a preview needs the scopes of its execution, and a transient refusal after a commit
 * leaves the key to replay the recorded outcome. Same conventions as checks.ts: reset first, return a
 * skip reason naming what would enable the check, or throw a ContractViolation naming the promise.
 */
import { randomUUID } from "node:crypto";
import { type CheckResult, execute, executionInput, expectNoEffect, noMember, noSample, resolve, sample, withFreshExpectations, withKey } from "./checks.js";
import { noCredentialWithout } from "./checks-errors.js";
import { ContractViolation, enablerWording, type Exchange, type Harness, type Input, type OperationSpec, violation, sampleName } from "./harness.js";

type Rec = Record<string, unknown>;

function isRecord(v: unknown): v is Rec {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function shown(v: unknown): string {
  return v === undefined ? "absent" : JSON.stringify(v);
}

function classOf(h: Harness, code: string): string | undefined {
  return h.contract.taxonomy.get(code)?.class;
}

/** The code of an error answer the operation declares, or null (a success, or an undeclared answer). */
function declaredCode(h: Harness, op: OperationSpec, exchange: Exchange): string | null {
  if (exchange.status < 400) return null;
  try {
    return h.expectDeclaredError(op, exchange).code;
  } catch (e) {
    if (e instanceof ContractViolation) return null;
    throw e;
  }
}

/** The answer is a refusal with one of `accepted` (a declared error of the operation). */
function expectRefused(h: Harness, op: OperationSpec, exchange: Exchange, accepted: readonly string[], promise: string): void {
  if (exchange.status < 400) throw violation(`${promise}, but it succeeded (${exchange.status})`, exchange);
  const e = h.expectDeclaredError(op, exchange);
  if (!accepted.includes(e.code)) throw violation(`${promise}, got ${e.code} (class ${e.spec.class})`, exchange);
}

// --- the contract's facts -------------------------------------------------------------------------------

/** The input fields `op` sends in its path (its identifiers), sorted. */
export function identifiers(op: OperationSpec): string[] {
  return op.bindings.filter((b) => b.in === "path").map((b) => b.field).sort();
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => name === b[i]);
}

/** The reads taking exactly the identifiers `op` takes: its `target.readWith` first, then GET reads at its path. */
function readsOf(h: Harness, op: OperationSpec): OperationSpec[] {
  const ids = identifiers(op);
  if (ids.length === 0) return [];
  const declared = op.readWith ? h.contract.operations.find((o) => o.id === op.readWith) : undefined;
  const candidates = [...(declared ? [declared] : []), ...h.contract.operations.filter((o) => o.method === "GET" && o.path === op.path)];
  return candidates.filter((o) => o.kind === "read" && o.id !== op.id && sameNames(identifiers(o), ids));
}

/** The read showing the target of `op` (to tell whether a call changed it), or null. */
export function targetRead(h: Harness, op: OperationSpec): OperationSpec | null {
  return readsOf(h, op)[0] ?? null;
}

/**
 * The read showing the object a DELETE removes, or null when `op` is no such delete: a DELETE whose
 * path ends in its identifier (an item, not a collection or a part: `/invoices/{id}/refunds` deletes
 * no invoice) and a read taking exactly its identifiers (so `/customers/{id}/tags/{tag}` is never
 * taken for the removal of `/customers/{id}`).
 */
export function deletedObjectRead(h: Harness, op: OperationSpec): OperationSpec | null {
  if (op.method !== "DELETE" || !/\/\{[^{}/]+\}\/?$/.test(op.path)) return null;
  return readsOf(h, op)[0] ?? null;
}

/** Other mutations acting on the target of `op`: the same `target.readWith`, or the same path with an identifier. */
function sameTargetMutations(h: Harness, op: OperationSpec): OperationSpec[] {
  return h.contract.operations.filter((o) => {
    if (o.id === op.id || o.kind !== "mutating") return false;
    if (op.readWith && o.readWith === op.readWith) return true;
    return o.path === op.path && identifiers(o).length > 0;
  });
}

/**
 * The refusals a preview of `op` may give because of the state, not of the call: its conflict-class
 * codes other than the confirm-token, key-mismatch and precondition errors (each checked elsewhere),
 * and its not_found-class codes when another operation can delete the target.
 */
export function stateRefusalCodes(h: Harness, op: OperationSpec): string[] {
  const elsewhere = new Set<string | null | undefined>([op.preview?.invalidTokenError, op.idempotency?.mismatchError, ...op.preconditions.map((p) => p.error)]);
  const deletable = sameTargetMutations(h, op).some((o) => o.method === "DELETE");
  return op.errors.filter((code) => !elsewhere.has(code) && (classOf(h, code) === "conflict" || (deletable && classOf(h, code) === "not_found")));
}

function inputFields(op: OperationSpec): { properties: string[]; required: string[] } {
  const s = resolve(op.input, op.input) ?? {};
  return { properties: isRecord(s.properties) ? Object.keys(s.properties) : [], required: Array.isArray(s.required) ? (s.required as string[]) : [] };
}

/** The expectations a caller cannot leave out. */
function requiredExpectations(op: OperationSpec): OperationSpec["preconditions"] {
  const required = new Set(inputFields(op).required);
  return op.preconditions.filter((pre) => pre.required === true || required.has(pre.field));
}

/** `params` without the expectations a caller may leave out (an execution makes them stale by design). */
function withoutOptionalExpectations(op: OperationSpec, params: Input): Input {
  const required = new Set(requiredExpectations(op).map((pre) => pre.field));
  const out = { ...params };
  for (const pre of op.preconditions) if (!required.has(pre.field)) delete out[pre.field];
  return out;
}

// --- reading the target -------------------------------------------------------------------------------

/** The read's input, from the fields of `params` it takes; the required fields missing when it cannot be built. */
function addressOf(read: OperationSpec, params: Input): { input: Input } | { missing: string[] } {
  const { properties, required } = inputFields(read);
  const input: Input = {};
  for (const f of properties) if (Object.hasOwn(params, f)) input[f] = params[f];
  const missing = required.filter((f) => !Object.hasOwn(input, f));
  return missing.length > 0 ? { missing } : { input };
}

/** The target read back: the record, or "gone" when the read answers a not_found-class error. */
async function readBack(h: Harness, read: OperationSpec, address: Input, when: string): Promise<Rec | "gone"> {
  const exchange = await h.call(read, address);
  if (exchange.status >= 400 && h.expectDeclaredError(read, exchange).spec.class === "not_found") return "gone";
  const body = h.expectSuccess(read, exchange, read.output, `reading the target with ${read.id} ${when}`);
  if (!isRecord(body)) throw violation(`${read.id}: the target read ${when} is not an object`, exchange);
  return body;
}

/** A preview of `params`: its confirm token (the answer checked against the preview output). */
async function previewToken(h: Harness, op: OperationSpec, params: Input, what: string): Promise<string> {
  const p = op.preview!;
  const exchange = await h.call(op, { ...params, [p.dryRunField]: true });
  const body = h.expectSuccess(op, exchange, p.output ?? true, what);
  const token = isRecord(body) ? body[p.confirmTokenField] : undefined;
  if (typeof token !== "string") throw violation(`${op.id}: a preview must return a confirm token in ${p.confirmTokenField}`, exchange);
  return token;
}

/** The execution of `params` with `token`, under a fresh operation key. */
function confirmation(op: OperationSpec, params: Input, token: string): Input {
  const p = op.preview!;
  return { ...withKey(op, params, randomUUID()), [p.dryRunField]: false, [p.confirmTokenField]: token };
}

/**
 * What can show that a call changed nothing: the fixture's snapshot or, without observe(), the target
 * as its read shows it (null when neither is available: only the answer is judged).
 */
async function stateOf(h: Harness, read: OperationSpec | null, params: Input): Promise<string | null> {
  const snapshot = await h.snapshot();
  if (snapshot !== undefined) return snapshot;
  if (!read) return null;
  const address = addressOf(read, params);
  return "input" in address ? JSON.stringify(await readBack(h, read, address.input, "to compare")) : null;
}

async function expectUnchanged(h: Harness, op: OperationSpec, read: OperationSpec | null, params: Input, before: string | null, what: string, exchange: Exchange): Promise<void> {
  if (before === null) return;
  if ((await stateOf(h, read, params)) !== before) {
    throw violation(`${op.id}: ${what} must execute nothing, but the ${h.fixture.observe ? "observed state" : `target as ${read!.id} shows it`} changed`, exchange);
  }
}

// --- moving the state between a preview and its confirm -----------------------------------------------

/** A call that changes the target of the check's operation (its own execution, or another operation's). */
interface Mover {
  /** What it is, for messages ("another execution of refund_invoice"). */
  readonly name: string;
  /** How often it may run in a row. */
  readonly times: number;
  /** Run it once; false when it did not succeed (it moves nothing then). */
  run(): Promise<boolean>;
}

/**
 * How often a check executes the sample again to reach a state-dependent refusal (a balance used up,
 * a quota): each is a real effect on the implementation, so few.
 */
const REPEATS = 16;

/**
 * `call`'s outcome as a mover sees it: succeeded or not (null: not sent). A refused or unexpected
 * setup call is no violation of the check's promise: the mover just moved nothing.
 */
async function succeeded(call: () => Promise<Exchange | null>): Promise<boolean> {
  try {
    const exchange = await call();
    return exchange !== null && exchange.status >= 200 && exchange.status < 300;
  } catch (e) {
    if (e instanceof ContractViolation) return false;
    throw e;
  }
}

/** `effects.idempotent: natural`: a call that would change nothing succeeds without checking its expectations. */
function naturallyIdempotent(op: OperationSpec): boolean {
  return op.behaviour?.idempotent === "natural";
}

/** The sample of `op` executed again, under a fresh key (and with a fresh token). */
function selfMover(h: Harness, op: OperationSpec, params: Input, times: number): Mover {
  return { name: `another execution of ${op.id} with the same parameters`, times, run: () => succeeded(() => execute(h, op, params)) };
}

/**
 * The other sample of `op` (variant 1) executed, its expectations read afresh: for an operation whose
 * repeat with equal parameters is a no-op (natural idempotency), what moves its target.
 */
function otherSampleMover(h: Harness, op: OperationSpec, params: Input): Mover[] {
  const other = sample(h, op, 1);
  if (!other || identifiers(op).some((id) => other[id] !== params[id])) return [];
  return [
    {
      name: `an execution of ${op.id} with ${sampleName(op.id, 1)}`,
      times: 1,
      run: () =>
        succeeded(async () => {
          const fresh = await withFreshExpectations(h, op, other, true);
          return "params" in fresh ? execute(h, op, fresh.params) : null;
        }),
    },
  ];
}

/**
 * The other mutations of the same target, each addressed at the target of `params` (its identifiers
 * replacing those of the operation's own sample) with its expectations read afresh.
 */
function otherMovers(h: Harness, op: OperationSpec, params: Input, keep: (o: OperationSpec) => boolean): Mover[] {
  return sameTargetMutations(h, op)
    .filter(keep)
    .map((o) => ({
      name: `${o.id} on the same target`,
      times: 1,
      run: () =>
        succeeded(async () => {
          const input: Input = { ...(sample(h, o) ?? {}) };
          for (const id of identifiers(o)) {
            if (!Object.hasOwn(params, id)) return null;
            input[id] = params[id];
          }
          if (inputFields(o).required.some((f) => f !== o.idempotency?.keyField && !Object.hasOwn(input, f))) return null;
          const fresh = await withFreshExpectations(h, o, input, true);
          return "params" in fresh ? execute(h, o, fresh.params) : null;
        }),
    }));
}

// --- 1. use after delete ------------------------------------------------------------------------------

/** At most this many pages of a list are read to find the deleted object on it. */
const LIST_PAGES = 20;

/** The URL of an RFC 8288 `Link` header's rel="next", or null. */
function nextLink(header: string | null): string | null {
  for (const part of (header ?? "").split(",")) {
    const match = /<([^>]*)>(.*)/.exec(part.trim());
    if (match && /;\s*rel="?([^";]*\s)?next(\s[^";]*)?"?/i.test(match[2]!)) return match[1]!.trim();
  }
  return null;
}

/** The items of `list` for `params`, page after page (at most LIST_PAGES, the largest pages the contract allows). */
async function listedItems(h: Harness, list: OperationSpec, params: Input): Promise<unknown[]> {
  const p = list.pagination!;
  const style = p.style ?? "cursor";
  const items: unknown[] = [];
  let position: unknown = style === "page" ? (p.firstPage ?? 1) : style === "offset" ? 0 : undefined;
  let url: string | undefined;
  for (let page = 1; page <= LIST_PAGES; page++) {
    const input: Input = { ...params };
    if (p.limitField !== null && p.limitMax !== null) input[p.limitField] = p.limitMax;
    if (style === "cursor" && position !== undefined && p.cursorField !== null) input[p.cursorField] = position;
    if (style === "page" && p.pageField) input[p.pageField] = position;
    if (style === "offset" && p.offsetField) input[p.offsetField] = position;
    const exchange = await h.call(list, input, url !== undefined ? { url } : {});
    const body: unknown = h.expectSuccess(list, exchange, list.output, `page ${page} of ${list.id}`);
    const pageItems = p.itemsField === null ? body : isRecord(body) ? body[p.itemsField] : undefined;
    // The paging checks judge the page's shape; here a page without items ends the walk.
    if (!Array.isArray(pageItems)) break;
    items.push(...(pageItems as unknown[]));
    const record: Rec = isRecord(body) ? body : {};
    if (style === "cursor" || style === "next-link") {
      const next = style === "cursor" ? record[p.nextCursorField ?? ""] : p.nextLink === "header" ? nextLink(exchange.headers.get("link")) : record[p.nextLink?.field ?? ""];
      if (typeof next !== "string" || next === "") break;
      if (style === "cursor") position = next;
      else url = next;
    } else {
      if (pageItems.length === 0 || (p.limitMax !== null && p.limitField !== null && pageItems.length < p.limitMax)) break;
      position = style === "page" ? (position as number) + 1 : (position as number) + pageItems.length;
    }
  }
  return items;
}

/**
 * Whether a list item is the target `record` (as its read showed it): it has a property of the
 * record with the record's value, and that value is one of the identifiers the delete was sent.
 * An item merely referring to the target (an invoice's customer_id) is not it.
 */
function isTarget(item: unknown, record: Rec, ids: readonly string[]): boolean {
  if (!isRecord(item)) return false;
  return Object.keys(item).some((k) => {
    const v = item[k];
    return (typeof v === "string" || typeof v === "number") && Object.hasOwn(record, k) && record[k] === v && ids.includes(String(v));
  });
}

/** Whether the read's output declares a `deleted` flag: a tombstone (`deleted: true`) then also says the object is gone. */
function hasTombstone(read: OperationSpec): boolean {
  const s = resolve(read.output, read.output);
  return !!s && isRecord(s.properties) && Object.hasOwn(s.properties, "deleted");
}

/**
 * After a successful delete, reading the target answers the read's not_found-class error (or a
 * tombstone, `deleted: true`, where the read's output declares that flag), and every list that
 * showed the object before (its sample, or an input the contract alone makes safe) shows it no more.
 */
export async function useAfterDelete(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const read = deletedObjectRead(h, op);
  if (!read) return { skip: `no read of the object ${op.id} deletes: declare target.readWith (a read taking exactly its identifiers ${identifiers(op).join(", ") || "(none)"}), or a GET at ${op.path}` };
  const gone = read.errors.filter((c) => classOf(h, c) === "not_found");
  const tombstone = hasTombstone(read);
  if (gone.length === 0 && !tombstone) return { skip: `${read.id} declares no not_found-class error to answer for a deleted object — declare the one it answers (e.g. a 404 code)` };
  await h.fixture.reset();
  const sampled = sample(h, op);
  if (!sampled) return noSample(op);
  const prepared = await withFreshExpectations(h, op, sampled, false);
  if ("skip" in prepared) return prepared;
  const params = prepared.params;
  const address = addressOf(read, params);
  if (!("input" in address)) return { skip: `${sampleName(op.id, 0)} does not address the object for ${read.id} — give it ${address.missing.join(", ")}` };
  const record = await readBack(h, read, address.input, "before the delete");
  if (record === "gone") return { skip: `${read.id} answers not found for the object of ${sampleName(op.id, 0)} before any call — give a sample whose object exists after reset()` };
  const ids = identifiers(op).map((f) => String(params[f]));
  // The lists that show the object now (each read from its sample, or the input the contract makes safe).
  const lists: Array<{ list: OperationSpec; input: Input }> = [];
  for (const list of h.contract.operations) {
    if (list.kind !== "read" || !list.pagination) continue;
    const input = sample(h, list);
    if (input && (await listedItems(h, list, input)).some((item) => isTarget(item, record, ids))) lists.push({ list, input });
  }
  const deleted = await execute(h, op, params);
  h.expectSuccess(op, deleted, op.output, "a successful delete");
  if (deleted.status === 202) return { skip: `${op.id} accepted the delete (202) without saying it is done: the object may be read until it completes — give a sample the implementation deletes at once` };
  const after = await h.call(read, address.input);
  const answers = [...(gone.length > 0 ? [`${gone.join(" or ")} (class not_found)`] : []), ...(tombstone ? ["a tombstone (deleted: true)"] : [])].join(" or ");
  const promise = `${op.id}: use after delete: after a successful delete, reading the object with ${read.id} must answer ${answers}`;
  if (after.status < 400) {
    const body = h.expectSuccess(read, after, read.output, `reading the deleted object with ${read.id}`);
    if (!(tombstone && isRecord(body) && body.deleted === true)) throw violation(`${promise}, but it still answers the object (${after.status})`, after);
  } else {
    const e = h.expectDeclaredError(read, after);
    if (e.spec.class !== "not_found") throw violation(`${promise}, got ${e.code} (class ${e.spec.class})`, after);
  }
  for (const { list, input } of lists) {
    const still = (await listedItems(h, list, input)).find((item) => isTarget(item, record, ids));
    if (still !== undefined) {
      throw violation(`${op.id}: use after delete: ${list.id} showed the object (${ids.join(", ")}) before the delete and must not show it after a successful one, but it still lists ${JSON.stringify(still).slice(0, 300)}`);
    }
  }
}

// --- 2. the dry-run default ----------------------------------------------------------------------------

/**
 * `preview.default: true`: a call without the dry-run field previews and executes nothing. Tried as a
 * caller who forgot the flag (no key, no token: the answer must be a preview) and as one who forgot
 * it but holds a confirm token of these very parameters and a key (a preview again, or a refusal;
 * never an execution). Nothing may change either way, as observe() or, without it, the target's read shows.
 */
export async function dryRunDefaultHonoured(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const p = op.preview;
  if (!p) return { skip: "the operation has no preview" };
  if (op.stateful?.defaultDryRun === false) return { skip: `${op.id} executes when ${p.dryRunField} is omitted (preview.default false)` };
  await h.fixture.reset();
  const sampled = sample(h, op);
  if (!sampled) return noSample(op);
  const prepared = await withFreshExpectations(h, op, sampled, false);
  if ("skip" in prepared) return prepared;
  const params = prepared.params;
  const read = targetRead(h, op);
  const promise = `${op.id}: preview.default is true: a call without ${p.dryRunField}`;
  const before = await stateOf(h, read, params);
  // A caller who forgot the flag sends what a preview needs: the key only where the input requires it.
  const keyRequired = op.idempotency !== null && inputFields(op).required.includes(op.idempotency.keyField);
  const plain = await h.call(op, keyRequired ? withKey(op, params, randomUUID()) : params);
  if (plain.status >= 400) {
    const e = h.expectDeclaredError(op, plain);
    // A derived input the preview refuses (no stock for it) says nothing of the dry-run default.
    if (plain.derived !== undefined && e.spec.class !== "permission" && e.spec.class !== "unauthenticated") throw h.derivedRefusal(op, plain, e.code);
    throw violation(`${promise} must answer a preview, but it was refused with ${e.code} (class ${e.spec.class}), as an execution would be`, plain);
  }
  const body = h.expectSuccess(op, plain, p.output ?? true, `a preview (${p.dryRunField} omitted)`);
  if (!isRecord(body) || typeof body[p.confirmTokenField] !== "string") throw violation(`${promise} must answer a preview, with a confirm token in ${p.confirmTokenField}`, plain);
  await expectUnchanged(h, op, read, params, before, `a call without ${p.dryRunField}`, plain);
  const token = await previewToken(h, op, params, "a preview");
  const withToken = await h.call(op, { ...withKey(op, params, randomUUID()), [p.confirmTokenField]: token });
  if (withToken.status < 400) {
    const answer = h.expectSuccess(op, withToken, p.output ?? true, `a preview (${p.dryRunField} omitted, a confirm token given)`);
    if (!isRecord(answer) || typeof answer[p.confirmTokenField] !== "string") throw violation(`${promise} but with a confirm token must still answer a preview (or be refused), not execute`, withToken);
  } else {
    // Refusing a token on a preview is the server's choice: it executes nothing either.
    h.expectDeclaredError(op, withToken);
  }
  await expectUnchanged(h, op, read, params, before, `a call without ${p.dryRunField} carrying a confirm token`, withToken);
}

// --- 3. a precondition re-checked at execution ----------------------------------------------------------

/**
 * Preview with the current expectation, take the token, move the compared value of the target with
 * the contract's own operations (another execution of the sample, or another mutation of the same
 * target, never a delete), then confirm with the token and the now stale expectation: refused with
 * the precondition's error (or another carried expectation's, or the confirm-token error of a server
 * binding its tokens to the state), and nothing changes.
 */
export async function preconditionRecheckedAtExecution(h: Harness, op: OperationSpec, index: number): Promise<CheckResult> {
  const p = op.preview;
  const pre = op.preconditions[index];
  if (!p || !pre) return { skip: "the operation has no preview or no such precondition" };
  const compares = pre.compares ?? (pre.kind === "revision" ? "revision" : undefined);
  const read = op.readWith ? (h.contract.operations.find((o) => o.id === op.readWith) ?? null) : null;
  await h.fixture.reset();
  const sampled = sample(h, op);
  if (!sampled) return noSample(op);
  const params: Input = { ...sampled };
  let address: Input | null = null;
  let current: unknown;
  if (read && compares !== undefined) {
    const a = addressOf(read, params);
    if (!("input" in a)) return { skip: `${sampleName(op.id, 0)} does not address the target for ${read.id} (target.readWith) — give it ${a.missing.join(", ")}` };
    const target = await readBack(h, read, a.input, "before the preview");
    if (target === "gone") return { skip: `${read.id} answers not found for the target of ${sampleName(op.id, 0)} — give a sample whose target exists after reset()` };
    current = target[compares];
    // A read not showing the compared value cannot tell whether it moved: a preview then tells.
    if (current !== undefined) {
      params[pre.field] = current;
      address = a.input;
    }
  }
  if (!Object.hasOwn(params, pre.field)) {
    return { skip: `${sampleName(op.id, 0)} carries no ${pre.field} and ${read ? `${read.id} shows no ${compares ?? "compared value"}` : "the contract names no read of the target (target.readWith)"} — add the current expectation to the sample` };
  }
  // Repeating a naturally idempotent call changes nothing: its other sample moves the target instead.
  const own = op.method === "DELETE" ? [] : naturallyIdempotent(op) ? otherSampleMover(h, op, params) : [selfMover(h, op, params, 1)];
  const movers = [...own, ...otherMovers(h, op, params, (o) => o.method !== "DELETE")];
  for (const [i, mover] of movers.entries()) {
    if (i > 0) await h.fixture.reset();
    const token = await previewToken(h, op, params, "a preview with the current expectation");
    if (!(await mover.run())) continue;
    // Moved: the read shows another value (the target still there), or, without a read, a preview now fails on the expectation.
    if (address !== null) {
      const now = await readBack(h, read!, address, `after ${mover.name}`);
      if (now === "gone" || JSON.stringify(now[compares!]) === JSON.stringify(current)) continue;
    } else if (declaredCode(h, op, await h.call(op, { ...params, [p.dryRunField]: true })) !== pre.error) {
      continue;
    }
    // Besides the precondition's error: another carried expectation's, a refusal the moved state may
    // cause first (a conflict), or the token error of a server binding its tokens to the state.
    const carried = op.preconditions.filter((o) => Object.hasOwn(params, o.field)).map((o) => o.error);
    const accepted = [...new Set([pre.error, ...carried, ...stateRefusalCodes(h, op), ...(p.invalidTokenError ? [p.invalidTokenError] : [])])];
    const before = await stateOf(h, read, params);
    const exchange = await h.call(op, confirmation(op, params, token));
    const promise = `${op.id}: a precondition is re-checked at execution: after ${mover.name} moved ${compares ?? "the compared value"} between the preview and the confirm, the execution with the preview's token and the now stale ${pre.field} ${shown(params[pre.field])} must be refused with ${accepted.join(" or ")}`;
    // Natural idempotency: a call that changes nothing may succeed whatever it expected.
    if (exchange.status < 300 && naturallyIdempotent(op) && before !== null && (await stateOf(h, read, params)) === before) return;
    expectRefused(h, op, exchange, accepted, promise);
    await expectUnchanged(h, op, read, params, before, `an execution with a stale ${pre.field}`, exchange);
    return;
  }
  const others = otherMovers(h, op, params, (o) => o.method !== "DELETE").map((m) => m.name);
  return {
    skip: `no call the contract and the samples give moved ${compares ?? "the compared value"} of ${op.id}'s target${movers.length > 0 ? ` (tried: ${movers.map((m) => m.name).join("; ")})` : ""} — give a sample of a mutation of the same target that changes ${compares ?? "it"}${others.length === 0 ? " (declare its target.readWith as that of " + op.id + ")" : ""}`,
  };
}

// --- 4. preview-time refusals repeated at execution -------------------------------------------------

/**
 * A state-dependent refusal a preview gives (stateRefusalCodes: a conflict, a not-found) is given at
 * execution too when the state changed after the preview: preview the sample, take the token, then
 * change the state with the contract's own operations (the sample executed again until a preview of
 * it is refused, or another mutation of the same target, a delete included) and confirm with the
 * token: refused (the code the preview now gives, another state-dependent one, the confirm-token error
 * of a server binding tokens to the state, or a required expectation's error), nothing changed.
 */
export async function refusalRepeatedAtExecution(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const p = op.preview;
  if (!p) return { skip: "the operation has no preview" };
  const codes = stateRefusalCodes(h, op);
  if (codes.length === 0) return { skip: `${op.id} declares no conflict-class error beyond its confirm-token, key and precondition errors, and no deletable target` };
  await h.fixture.reset();
  const sampled = sample(h, op);
  if (!sampled) return noSample(op);
  const prepared = await withFreshExpectations(h, op, withoutOptionalExpectations(op, sampled), false);
  if ("skip" in prepared) return prepared;
  const params = prepared.params;
  const required = requiredExpectations(op);
  const token = await previewToken(h, op, params, "a preview of the sample");
  // Its own execution repeated, unless a required expectation goes stale at the first one (its error would come first).
  // A naturally idempotent repeat changes nothing after the first: once is enough to tell.
  const movers = [...(required.length === 0 ? [selfMover(h, op, params, naturallyIdempotent(op) ? 1 : REPEATS)] : []), ...otherMovers(h, op, params, () => true)];
  let reached: { code: string; how: string } | null = null;
  search: for (const mover of movers) {
    for (let n = 1; n <= mover.times; n++) {
      if (!(await mover.run())) break;
      const probe = await h.call(op, { ...params, [p.dryRunField]: true });
      const code = declaredCode(h, op, probe);
      if (code !== null && codes.includes(code)) {
        reached = { code, how: mover.times > 1 ? `${n} × ${mover.name}` : mover.name };
        break search;
      }
      if (probe.status >= 400) break;
    }
  }
  if (reached === null) {
    const tried = movers.map((m) => (m.times > 1 ? `up to ${m.times} × ${m.name}` : m.name)).join("; ");
    const why = required.length > 0 ? `${op.id} requires ${required.map((r) => r.field).join(", ")}, so its own execution cannot be repeated` : `tried ${tried}`;
    const worded = enablerWording({ kind: "sample", operation: op.id, variant: 1 });
    if (worded !== undefined) return { skip: `no call the samples give made a preview of ${op.id}'s first sample answer ${codes.join(" or ")} (${why}) — a second sample of a mutation of the same target that leads there: ${worded}` };
    return { skip: `no call the samples give made a preview of ${sampleName(op.id, 0)} answer ${codes.join(" or ")} (${why}) — give a sample of a mutation of the same target that leads there` };
  }
  const accepted = [...new Set([...codes, ...(p.invalidTokenError ? [p.invalidTokenError] : []), ...required.map((r) => r.error)])];
  const before = await stateOf(h, targetRead(h, op), params);
  const exchange = await h.call(op, confirmation(op, params, token));
  const promise = `${op.id}: a refusal a preview gives is given at execution too: after ${reached.how} a preview of the sample answers ${reached.code}; the execution with the token issued before must be refused with ${accepted.join(" or ")}`;
  expectRefused(h, op, exchange, accepted, promise);
  await expectUnchanged(h, op, targetRead(h, op), params, before, `an execution the state no longer allows`, exchange);
}

// --- 5. key retention --------------------------------------------------------------------------------

/** `ms` in the largest unit it has at least one of, to two decimals (85536000 → "23.76 h"). */
function duration(ms: number): string {
  const [size, unit] = ms >= 3_600_000 ? [3_600_000, "h"] : ms >= 60_000 ? [60_000, "min"] : [1000, "s"];
  return `${Number((ms / size).toFixed(2))} ${unit}`;
}

/** How long before the end of a retention the retry is sent: 1 % of it, at least a minute, at most a tenth. */
function marginOf(retentionMs: number): number {
  return Math.min(Math.floor(retentionMs / 10), Math.max(60_000, Math.floor(retentionMs / 100)));
}

/**
 * Within `idempotency.retention` a retry under the same key still replays: execute, move the
 * implementation's clock to just before the retention ends, send the same request again: the recorded
 * outcome, replayed, and no second effect. (After the retention the key may be forgotten: not checked.)
 * A server checking the (now expired) confirm token before the key gets the token renewed by a new
 * preview of the same parameters, under the same key.
 */
export async function keyRetained(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const retention = op.stateful?.keyRetentionMs ?? null;
  if (!op.idempotency || retention === null) return { skip: "the operation declares no key retention (idempotency.retention)" };
  const late = retention - marginOf(retention);
  if (!h.fixture.advanceTime) {
    const purpose = `move the implementation's clock forward, so a key can be retried just before its retention (${duration(retention)}) ends`;
    return noMember("advanceTime(ms)", purpose, { kind: "clock", purpose });
  }
  await h.fixture.reset();
  const sampled = sample(h, op);
  if (!sampled) return noSample(op);
  // Optional expectations left out: a new preview of the parameters must still be possible after the execution.
  const prepared = await withFreshExpectations(h, op, withoutOptionalExpectations(op, sampled), false);
  if ("skip" in prepared) return prepared;
  const request = await executionInput(h, op, prepared.params, randomUUID());
  const first = await h.call(op, request);
  h.expectSuccess(op, first);
  const once = await h.snapshot();
  await h.fixture.advanceTime(late);
  let retry = await h.call(op, request);
  const p = op.preview;
  if (p && p.invalidTokenError !== null && declaredCode(h, op, retry) === p.invalidTokenError) {
    const renewed = await h.call(op, { ...prepared.params, [p.dryRunField]: true });
    const body = renewed.status < 300 ? h.expectSuccess(op, renewed, p.output ?? true, "a preview") : null;
    if (!isRecord(body) || typeof body[p.confirmTokenField] !== "string") {
      return {
        skip: `the implementation refuses the expired confirm token before it looks the key up, and a new preview of the parameters is refused after their execution (${renewed.status}): the retry under the same key cannot reach the recorded outcome — answer a recorded key before checking the token (docs/wire-protocol.md, preview and confirm, rule 3)`,
      };
    }
    retry = await h.call(op, { ...request, [p.confirmTokenField]: body[p.confirmTokenField] });
  }
  const promise = `${op.id}: keys are retained ${duration(retention)} (idempotency.retention): a retry under the same key ${duration(late)} after the first call must replay the recorded outcome`;
  if (retry.status >= 400) {
    const code = declaredCode(h, op, retry);
    throw violation(`${promise}, but it was refused${code !== null ? ` with ${code}` : ` (${retry.status})`}`, retry);
  }
  h.expectSuccess(op, retry, op.output, "the recorded outcome replayed");
  if (retry.headers.get("idempotent-replayed") !== "true") throw violation(`${promise} (Idempotent-Replayed: true), but it was executed anew: the key was forgotten early`, retry);
  if (JSON.stringify(retry.body) !== JSON.stringify(first.body)) throw violation(`${promise}: ${JSON.stringify(first.body)?.slice(0, 500)}`, retry);
  await expectNoEffect(h, op, once, `a retry under a retained key`, retry);
}

// --- 6. scopes required at preview ---------------------------------------------------------------------

/**
 * A preview needs the scopes its execution needs: a credential lacking `scope` previews nothing. The
 * preview is refused with the permission class (a code the operation lists), carries no confirm
 * token, and changes nothing.
 */
export async function scopeRequiredAtPreview(h: Harness, op: OperationSpec, scope: string): Promise<CheckResult> {
  const p = op.preview;
  if (!p) return { skip: "the operation has no preview" };
  const limited = h.fixture.tokenWithout?.(scope);
  if (limited === undefined) {
    return noCredentialWithout(h, scope);
  }
  await h.fixture.reset();
  const sampled = sample(h, op);
  if (!sampled) return noSample(op);
  const prepared = await withFreshExpectations(h, op, sampled, false);
  if ("skip" in prepared) return prepared;
  const params = prepared.params;
  const before = await h.snapshot();
  const exchange = await h.call(op, { ...params, [p.dryRunField]: true }, { token: limited });
  const promise = `${op.id}: a preview needs the scopes its execution needs: a preview with a credential lacking ${scope} must be refused as permission, issuing no confirm token`;
  const body = exchange.body;
  if (exchange.status < 400) {
    const issued = isRecord(body) && typeof body[p.confirmTokenField] === "string";
    throw violation(`${promise}, but it answered ${exchange.status}${issued ? ` with a confirm token in ${p.confirmTokenField}` : ""}`, exchange);
  }
  const e = h.expectDeclaredError(op, exchange);
  if (e.spec.class !== "permission") throw violation(`${promise}, got ${e.code} (class ${e.spec.class})`, exchange);
  if (isRecord(body) && body[p.confirmTokenField] !== undefined) throw violation(`${promise}, but the refusal carries ${p.confirmTokenField}`, exchange);
  await expectNoEffect(h, op, before, `a preview lacking ${scope}`, exchange);
}

// --- 7. a transient refusal after commit, then retry_same_key ----------------------------------------------

/** The operation's transient-class codes whose recovery is a retry under the same key. */
export function retrySameKeyCodes(h: Harness, op: OperationSpec): string[] {
  return op.errors.filter((c) => h.contract.taxonomy.get(c)?.class === "transient" && h.contract.taxonomy.get(c)?.action === "retry_same_key");
}

/**
 * The implementation commits an execution and then answers a transient error (fixture.failAfterCommit):
 * the caller does as the error says (retry_same_key) and must get the recorded outcome, replayed, with
 * one effect — not a refusal, not a second execution.
 */
export async function transientAfterCommitReplays(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const transient = retrySameKeyCodes(h, op);
  if (!op.idempotency || transient.length === 0) return { skip: "the operation takes no key or declares no transient error whose action is retry_same_key" };
  if (!h.fixture.failAfterCommit) {
    const purpose = `make the next execution of ${op.id} commit, then answer ${transient.join(" or ")}, so the retry under the same key can be checked`;
    return noMember("failAfterCommit(operation)", purpose, { kind: "failAfterCommit", operation: op.id, purpose });
  }
  await h.fixture.reset();
  const sampled = sample(h, op);
  if (!sampled) return noSample(op);
  const prepared = await withFreshExpectations(h, op, sampled, false);
  if ("skip" in prepared) return prepared;
  const request = await executionInput(h, op, prepared.params, randomUUID());
  const before = await h.snapshot();
  if (!(await h.fixture.failAfterCommit(op.id))) return { skip: `fixture.failAfterCommit(${JSON.stringify(op.id)}) resolved false — make it arm a transient failure after the next commit of ${op.id}` };
  const first = await h.call(op, request);
  if (first.status < 400) return { skip: `fixture.failAfterCommit(${JSON.stringify(op.id)}) was armed but the execution succeeded (${first.status}) — make the next execution answer ${transient.join(" or ")} after committing` };
  const e = h.expectDeclaredError(op, first);
  if (e.spec.class !== "transient") throw violation(`${op.id}: an execution failing after its commit (fixture.failAfterCommit) must answer a transient error (${transient.join(" or ")}), got ${e.code} (class ${e.spec.class})`, first);
  const once = await h.snapshot();
  const retry = await h.call(op, request);
  const promise = `${op.id}: after ${e.code} (action ${e.spec.action}) answered past the commit, a retry under the same key must get the recorded outcome`;
  if (retry.status >= 400) {
    const code = declaredCode(h, op, retry);
    throw violation(`${promise}, but it was refused${code !== null ? ` with ${code}` : ` (${retry.status})`}`, retry);
  }
  h.expectSuccess(op, retry, op.output, "the recorded outcome");
  // observe() showing no effect after the refusal: the failure came before the commit after all, and the retry executes it.
  if (before !== undefined && once === before) return;
  if (retry.headers.get("idempotent-replayed") !== "true") throw violation(`${promise}, replayed (Idempotent-Replayed: true), but it was executed anew`, retry);
  await expectNoEffect(h, op, once, `a retry after ${e.code}`, retry);
}
