/**
 * The lost-response check on its own (checks-process.ts, proxy.ts), against a small keyed
 * implementation that commits slowly: the check must wait for the implementation's answer to reach
 * its proxy, whenever the client's own call gives up, and still catch an implementation that executes
 * the retry again.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { lostResponseRetriedElsewhere } from "../../src/tests-runtime/checks-process.js";
import { type ContractSpec, type Fixture, Harness, type OperationSpec } from "../../src/tests-runtime/harness.js";
import { startDroppingProxy } from "../../src/tests-runtime/proxy.js";

const create: OperationSpec = {
  id: "create_thing",
  method: "POST",
  path: "/things",
  bindings: [{ field: "idempotency_key", in: "header", name: "Idempotency-Key" }],
  successStatus: 201,
  kind: "mutating",
  input: { type: "object", required: ["name"], properties: { name: { type: "string" }, idempotency_key: { type: "string" } } },
  output: { type: "object", required: ["id"], properties: { id: { type: "string" }, name: { type: "string" } } },
  errors: [],
  idempotency: { keyField: "idempotency_key", mismatchError: null },
  preview: null,
  preconditions: [],
  pagination: null,
  scopes: [],
};
const contract: ContractSpec = { name: "things", version: "1.0.0", auth: { type: "none", header: null }, taxonomy: new Map(), operations: [create] };

/** The implementation: it commits `commitAfterMs` after a request arrives, then answers; a key seen before is replayed (unless it forgets keys). */
const platform = { commitAfterMs: 0, forgetsKeys: false, things: [] as Array<{ id: string; name: string }>, answers: new Map<string, string>() };

function bodyOf(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (text += c));
    req.on("end", () => resolve(text));
  });
}

const server = createServer(async (req, res) => {
  const body = await bodyOf(req);
  const key = String(req.headers["idempotency-key"] ?? "");
  const recorded = platform.forgetsKeys ? undefined : platform.answers.get(key);
  if (recorded !== undefined) {
    res.writeHead(201, { "content-type": "application/json", "idempotent-replayed": "true" }).end(recorded);
    return;
  }
  await new Promise((resolve) => setTimeout(resolve, platform.commitAfterMs));
  const thing = { id: `thing_${platform.things.length + 1}`, name: (JSON.parse(body) as { name: string }).name };
  platform.things.push(thing);
  platform.answers.set(key, JSON.stringify(thing));
  res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify(thing));
});
let url = "";
beforeAll(async () => {
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

const fixture: Fixture = {
  get baseUrl() {
    return url;
  },
  async reset() {
    platform.things = [];
    platform.answers.clear();
  },
  sampleInput: () => ({ name: `thing ${randomUUID()}` }),
  observe: async () => platform.things,
};

const LIMIT = "CONTRACT_REQUEST_TIMEOUT_MS";
const limitBefore = process.env[LIMIT];
afterEach(() => {
  if (limitBefore === undefined) delete process.env[LIMIT];
  else process.env[LIMIT] = limitBefore;
  platform.forgetsKeys = false;
});

/**
 * A harness whose proxy and retry keep a 5 s limit while the client's call through the proxy (a
 * harness the check makes, reading the limit at its first call) has `clientLimitMs`.
 */
async function harnessWithClientLimit(clientLimitMs: number): Promise<Harness> {
  process.env[LIMIT] = "5000";
  const h = new Harness(contract, fixture);
  // An answered call: the suite counts calls that timed out (as the client's call here does) and
  // stops sending an operation after two in a row (harness.ts).
  expect((await h.call(create, { name: "answered", idempotency_key: randomUUID() })).status).toBe(201);
  process.env[LIMIT] = String(clientLimitMs);
  return h;
}

describe("a response lost after commit, retried from a second process", () => {
  /*
   * The client's time limit starts before the proxy's (the proxy's starts when it forwards), so an
   * implementation answering just inside the limit can outlast the client's call: the check read the
   * proxy's record as soon as that call failed, found nothing yet and reported "nothing forwarded" on
   * a correct implementation (and a state snapshot taken then would precede the commit). Reproduced by
   * giving the client a 150 ms limit against a commit after 400 ms. Before the check waited for the
   * proxy's exchange: 3/3 repetitions failed (~3 s).
   */
  it("waits for the implementation's answer when the client's call gives up first (3 repetitions)", async () => {
    platform.commitAfterMs = 400;
    const failed: string[] = [];
    for (let rep = 0; rep < 3; rep++) {
      try {
        await lostResponseRetriedElsewhere(await harnessWithClientLimit(150), create);
        expect(platform.things).toHaveLength(1);
      } catch (e) {
        failed.push(`repetition ${rep + 1}: ${(e as Error).message.split("\n")[0]}`);
      }
    }
    expect(failed, `${failed.length}/3 repetitions`).toEqual([]);
  });

  it("still fails an implementation that executes the retry again", async () => {
    platform.commitAfterMs = 400;
    platform.forgetsKeys = true;
    await expect(lostResponseRetriedElsewhere(await harnessWithClientLimit(150), create)).rejects.toThrow(/must be answered from the record, with Idempotent-Replayed: true/);
    expect(platform.things).toHaveLength(2);
  });

  it("passes a prompt, correct implementation", async () => {
    platform.commitAfterMs = 0;
    const h = await harnessWithClientLimit(5000);
    await lostResponseRetriedElsewhere(h, create);
    expect(platform.things).toHaveLength(1);
  });

  /*
   * A check that ended before its proxy's forward did (a violation, or the early reading above) closed
   * the proxy at once, and the implementation committed afterwards, into the next check's state: a
   * correct implementation then failed the next check with "a second effect". Before close() waited
   * for the forwards under way: 3/3 repetitions closed with nothing committed yet (~2 s).
   */
  it("closing the proxy waits for a forward under way (3 repetitions)", async () => {
    platform.commitAfterMs = 400;
    const failed: string[] = [];
    for (let rep = 0; rep < 3; rep++) {
      await fixture.reset();
      const proxy = await startDroppingProxy(() => url, { requestTimeoutMs: 5000, maxResponseBytes: 1 << 20 });
      void proxy.dropNext();
      const headers = { "content-type": "application/json", "idempotency-key": randomUUID() };
      await fetch(`${proxy.url}/things`, { method: "POST", headers, body: '{"name":"slow"}', signal: AbortSignal.timeout(100) }).catch(() => undefined);
      await proxy.close();
      if (platform.things.length !== 1) failed.push(`repetition ${rep + 1}: closed with ${platform.things.length} things committed`);
    }
    expect(failed, `${failed.length}/3 repetitions`).toEqual([]);
  });

  /*
   * The proxy took its drop when a request's body had been read, so of two requests the one whose body
   * ended first was dropped, not the one that arrived first (the check sends one request, so this
   * never showed there; the order is forced here: the second request is sent after the first has
   * arrived, and the first's body ends last). Before the drop was taken on arrival: 3/3 repetitions
   * dropped the second request (~0.1 s).
   */
  it("drops the request that arrives next, not the one whose body ends first (3 repetitions)", async () => {
    platform.commitAfterMs = 0;
    const failed: string[] = [];
    for (let rep = 0; rep < 3; rep++) {
      let arrived = () => {};
      const first = new Promise<void>((resolve) => (arrived = resolve));
      let arrivals = 0;
      const proxy = await startDroppingProxy(() => {
        if (++arrivals === 1) arrived();
        return url;
      }, { requestTimeoutMs: 5000, maxResponseBytes: 1 << 20 });
      try {
        void proxy.dropNext();
        const slow = request(`${proxy.url}/things`, { method: "POST", headers: { "content-type": "application/json", "idempotency-key": randomUUID() } });
        const slowEnded = new Promise<string>((resolve) => {
          slow.on("response", (res) => resolve(`answered ${res.statusCode}`));
          slow.on("error", () => resolve("dropped"));
        });
        slow.write('{"name":');
        await first;
        const quick = await fetch(`${proxy.url}/things`, { method: "POST", headers: { "content-type": "application/json", "idempotency-key": randomUUID() }, body: '{"name":"quick"}' }).then(
          (res) => `answered ${res.status}`,
          () => "dropped",
        );
        slow.end('"slow"}');
        const outcomes = [await slowEnded, quick];
        if (outcomes.join() !== "dropped,answered 201") failed.push(`repetition ${rep + 1}: first ${outcomes[0]}, second ${outcomes[1]}`);
      } finally {
        await proxy.close();
      }
    }
    expect(failed, `${failed.length}/3 repetitions`).toEqual([]);
  });
});
