/**
 * Idempotency across a lost response and a second process: the suite's loopback proxy (proxy.ts)
 * forwards a keyed execution, lets the implementation commit it and drops the answer; a second
 * process then sends the same request (same operation key, same confirm token) straight to the
 * implementation. The promise: exactly one effect, and the retry gets the recorded outcome.
 */
import { randomUUID } from "node:crypto";
import { type CheckResult, noSample, withFreshExpectations } from "./checks.js";
import { ContractViolation, type Exchange, type Fixture, Harness, type Input, type OperationSpec, violation } from "./harness.js";
import { type RecordedAnswer, type RecordedRequest, retryFromSecondProcess, startDroppingProxy } from "./proxy.js";

/** Beyond the request's time limit, how long the proxy's exchange may take to end (reading the request, closing). */
const EXCHANGE_GRACE_MS = 2_000;

/** `promise`'s value, or null once `ms` have passed. */
async function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The same harness, sending to `url` instead of the fixture's base URL (everything else from the fixture). */
function harnessAt(h: Harness, url: string): Harness {
  const fixture = Object.create(h.fixture, { baseUrl: { get: () => url } }) as Fixture;
  return new Harness(h.contract, fixture);
}

function parsed(text: string): unknown {
  try {
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    return text;
  }
}

function exchangeOf(request: RecordedRequest, answer: RecordedAnswer): Exchange {
  return {
    request: { method: request.method, url: request.url, body: parsed(request.body.toString("utf8")) },
    status: answer.status,
    headers: new Headers(answer.headers.map(([k, v]) => [k, v] as [string, string])),
    body: parsed(answer.body),
  };
}

/** Sample parameters, plus the operation key and (for a previewable operation) a token from a preview of them. */
async function keyedExecution(h: Harness, op: OperationSpec, params: Input): Promise<Input> {
  const input: Input = { ...params, [op.idempotency!.keyField]: randomUUID() };
  const p = op.preview;
  if (!p) return input;
  const preview = await h.call(op, { ...params, [p.dryRunField]: true });
  const body = h.expectSuccess(op, preview, p.output ?? true, "a preview");
  const token = body[p.confirmTokenField];
  if (typeof token !== "string") throw violation(`${op.id}: a preview must return a confirm token in ${p.confirmTokenField}`, preview);
  return { ...input, [p.dryRunField]: false, [p.confirmTokenField]: token };
}

/**
 * Lost response after commit, then a retry from a second process with the same key (and token):
 * the retry answers the committed outcome (same body, `Idempotent-Replayed: true`) and the observed
 * state is the state after one call.
 */
export async function lostResponseRetriedElsewhere(h: Harness, op: OperationSpec): Promise<CheckResult> {
  await h.fixture.reset();
  const sampled = h.fixture.sampleInput(op.id, 0);
  if (!sampled) return noSample(op);
  const prepared = await withFreshExpectations(h, op, { ...sampled }, false);
  if ("skip" in prepared) return prepared;
  const request = await keyedExecution(h, op, prepared.params);
  const proxy = await startDroppingProxy(() => h.fixture.baseUrl, h.limits);
  try {
    const dropped = proxy.dropNext();
    let clientFailure: unknown = null;
    try {
      const answered = await harnessAt(h, proxy.url).call(op, request);
      throw violation(`${op.id}: the suite's proxy was to drop this answer (suite fault)`, answered);
    } catch (e) {
      if (e instanceof ContractViolation) throw e;
      // The connection was dropped after the implementation answered: the caller cannot know the outcome.
      clientFailure = e;
    }
    // The client's call can end first (its time limit started before the proxy forwarded): the
    // implementation is done, and its effect committed, only when the proxy's exchange has ended.
    const lost = await withinMs(dropped, h.limits.requestTimeoutMs + EXCHANGE_GRACE_MS);
    if (!lost?.answer) {
      const what = lost ? lost.request.method : `nothing forwarded; the call ended with: ${clientFailure instanceof Error ? clientFailure.message : String(clientFailure)}`;
      throw violation(`${op.id}: the implementation did not answer the request the proxy forwarded (${what})`);
    }
    const committed = exchangeOf(lost.request, lost.answer);
    h.expectSuccess(op, committed, op.output, "a successful call (the answer the proxy dropped)");
    // The state after exactly one call: the effect of the lost call.
    const once = await h.snapshot();
    const retry = exchangeOf(lost.request, await retryFromSecondProcess(lost.request, h.limits));
    h.expectSuccess(op, retry, op.output, "the recorded outcome (a retry from a second process after a lost response)");
    if (retry.headers.get("idempotent-replayed") !== "true") {
      throw violation(`${op.id}: a retry from a second process under the same key must be answered from the record, with Idempotent-Replayed: true`, retry);
    }
    if (JSON.stringify(retry.body) !== JSON.stringify(committed.body)) {
      throw violation(`${op.id}: a retry after a lost response must get the outcome the implementation committed: ${JSON.stringify(committed.body)?.slice(0, 500)}`, retry);
    }
    const after = await h.snapshot();
    if (after !== once) throw violation(`${op.id}: a retry under the same key after a lost response must not have a second effect (the observed state changed)`, retry);
  } finally {
    await proxy.close();
  }
}
