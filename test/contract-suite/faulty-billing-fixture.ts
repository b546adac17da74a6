/**
 * The billing fixture with one fault seeded (CONTRACT_FAULT), to prove the generated suite bites.
 * A loopback proxy in front of the correct platform tampers with its answers the way a faulty
 * implementation would (the platforms' own fault switches are another helper's work).
 */
import { randomUUID } from "node:crypto";
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fixture as reference } from "../../examples/billing/contract-fixture.js";
import type { Fixture } from "../../src/tests-runtime/harness.js";

type Tamper = (path: string, status: number, headers: Headers, body: unknown) => { status: number; headers: Headers; body: unknown };

const TAMPERS: Readonly<Record<string, Tamper>> = {
  // Stops pagination after the first page while reporting the traversal complete.
  "early-end": (path, status, headers, body) => {
    if (status === 200 && path === "/customers" && body && typeof body === "object") (body as Record<string, unknown>).next_cursor = null;
    return { status, headers, body };
  },
  // Answers a declared error with a code the contract does not list.
  "undeclared-code": (_p, status, headers, body) => {
    const b = body as { error?: { code?: string } };
    if (status >= 400 && b?.error) b.error.code = "SOMETHING_WENT_WRONG";
    return { status, headers, body };
  },
  // Leaves a required field out of a customer.
  "drops-output-field": (path, status, headers, body) => {
    if (status < 300 && path.startsWith("/customers/") && body && typeof body === "object") delete (body as Record<string, unknown>).email;
    return { status, headers, body };
  },
  // Replays without saying so.
  "unmarked-replay": (_p, status, headers, body) => {
    headers.delete("idempotent-replayed");
    return { status, headers, body };
  },
  // Names no field on invalid input.
  "invalid-input-without-field": (_p, status, headers, body) => {
    const b = body as { error?: { code?: string; field?: string | null } };
    if (status === 400 && b?.error) b.error.field = null;
    return { status, headers, body };
  },
};

const fault = process.env.CONTRACT_FAULT ?? "";

/** Faults on the way in: the platform then behaves as one that ignores what was removed. */
const REQUEST_TAMPERS: Readonly<Record<string, (headers: Headers) => void>> = {
  // Ignores the operation key: every call looks like a new intent.
  "ignores-key": (headers) => {
    if (headers.has("idempotency-key")) headers.set("idempotency-key", randomUUID());
  },
};

function withProxy(inner: Fixture, tamper: Tamper, tamperRequest?: (headers: Headers) => void): Fixture {
  const proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "host" && k !== "content-length") headers.set(k, v);
      tamperRequest?.(headers);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      fetch(`${inner.baseUrl}${req.url ?? "/"}`, { method: req.method ?? "GET", headers, ...(body ? { body } : {}) })
        .then(async (r) => {
          const text = await r.text();
          const out = tamper(new URL(req.url ?? "/", "http://x").pathname, r.status, new Headers(r.headers), text ? JSON.parse(text) : undefined);
          const h: Record<string, string> = {};
          out.headers.forEach((v, k) => {
            if (k !== "content-length" && k !== "transfer-encoding" && k !== "connection") h[k] = v;
          });
          res.writeHead(out.status, h).end(out.body === undefined ? "" : JSON.stringify(out.body));
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  let url = "";
  return {
    get baseUrl() {
      return url;
    },
    token: inner.token,
    async reset() {
      await inner.reset();
      if (!url) {
        await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
        url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      }
    },
    async stop() {
      await inner.stop?.();
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
    sampleInput: (op, variant) => inner.sampleInput(op, variant),
    observe: () => inner.observe!(),
    // "accepts-expired-token": the platform's clock ignores time passing, so no token ever expires.
    advanceTime: (ms) => (fault === "accepts-expired-token" ? Promise.resolve() : inner.advanceTime!(ms)),
  };
}

function faulty(): Fixture {
  if (fault === "accepts-expired-token") return withProxy(reference, (_p, status, headers, body) => ({ status, headers, body }));
  const tamperRequest = REQUEST_TAMPERS[fault];
  if (tamperRequest) return withProxy(reference, (_p, status, headers, body) => ({ status, headers, body }), tamperRequest);
  const tamper = TAMPERS[fault];
  if (!tamper) throw new Error(`unknown CONTRACT_FAULT ${fault}`);
  return withProxy(reference, tamper);
}

export const fixture = faulty();
