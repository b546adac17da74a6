/**
 * The contract suite's own HTTP caller over the http format extensions: a whole-body field goes on
 * the wire as the body itself, a 204 is the result null, and a success status the contract does not
 * list is a violation.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContractViolation, Harness, type OperationSpec } from "../../src/tests-runtime/harness.js";

let server: Server;
let reply: { status: number; body?: string } = { status: 200 };
const seen: Array<{ method: string; url: string; body: string }> = [];
let harness: Harness;

const base = {
  kind: "mutating",
  errors: [],
  idempotency: null,
  preview: null,
  preconditions: [],
  pagination: null,
} as const;

const addLabels: OperationSpec = {
  ...base,
  id: "add_labels",
  method: "POST",
  path: "/issues/{issue}/labels",
  bindings: [
    { field: "issue", in: "path", name: "issue" },
    { field: "labels", in: "body", name: "labels" },
  ],
  successStatus: 200,
  successStatuses: [200, 201],
  body: "labels",
  input: { type: "object" },
  output: { type: "array", items: { type: "string" } },
};

const lock: OperationSpec = {
  ...base,
  id: "lock_issue",
  method: "PUT",
  path: "/issues/{issue}/lock",
  bindings: [{ field: "issue", in: "path", name: "issue" }],
  successStatus: 200,
  successStatuses: [200, 204],
  body: null,
  input: { type: "object" },
  output: { anyOf: [{ type: "object" }, { type: "null" }] },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(reply.status, reply.body !== undefined ? { "content-type": "application/json" } : {});
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  harness = new Harness(
    { name: "labels", version: "1.0.0", auth: { type: "none", header: null }, taxonomy: new Map(), operations: [addLabels, lock] },
    { baseUrl, reset: async () => {}, sampleInput: () => undefined },
  );
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("the suite's HTTP caller", () => {
  it("sends a whole-body field as the body itself; an unbound extra field goes to the query", async () => {
    reply = { status: 201, body: '["bug"]' };
    const exchange = await harness.call(addLabels, { issue: 4, labels: ["bug"], extra: 1 });
    expect(seen[seen.length - 1]).toEqual({ method: "POST", url: "/issues/4/labels?extra=1", body: '["bug"]' });
    expect(harness.expectSuccess(addLabels, exchange)).toEqual(["bug"]);
  });

  it("reads a 204 as the result null", async () => {
    reply = { status: 204 };
    expect(harness.expectSuccess(lock, await harness.call(lock, { issue: 4 }))).toBeNull();
  });

  it("reports a 2xx the contract does not list", async () => {
    reply = { status: 202, body: "{}" };
    const exchange = await harness.call(lock, { issue: 4 });
    expect(() => harness.expectSuccess(lock, exchange)).toThrow(ContractViolation);
    expect(() => harness.expectSuccess(lock, exchange)).toThrow("lock_issue: expected a successful call with status 200 or 204, got 202, which the contract does not list");
  });
});
