/**
 * The generated suite's adapter parity (src/tests-runtime/parity.ts) with billing's generated adapters
 * (generated-examples/billing.v2/tests/adapters.ts) against the billing reference platform: the real
 * adapters agree, and a deliberately broken CLI or MCP server (one answer changed on its way out) is
 * reported, naming the adapter, the case and both answers.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { fixture } from "../../examples/billing/contract-fixture.js";
import { CONTRACT_SPEC } from "../../generated-examples/billing.v2/tests/contract.js";
import { ADAPTERS } from "../../generated-examples/billing.v2/tests/adapters.js";
import { Harness } from "../../src/tests-runtime/harness.js";
import { adapterParity, comparable, disagreement, type Outcome, type ParityAdapters, varyingPaths } from "../../src/tests-runtime/parity.js";

const h = new Harness(CONTRACT_SPEC, fixture);
afterAll(() => fixture.stop?.());

describe("parity comparison", () => {
  it("masks what varies between two runs, instants, tokens and cursors; keeps the rest, keys in any order", () => {
    const a: Outcome = { ok: true, result: { id: "cus_1", created_at: "2026-12-01T10:00:00Z", name: "Ada", confirm_token: "t1", n: 1 } };
    const b: Outcome = { ok: true, result: { id: "cus_2", created_at: "2026-12-01T10:00:01Z", name: "Ada", confirm_token: "t2", n: 1 } };
    const varying = varyingPaths(a.result, b.result, "/0/result");
    expect([...varying].sort()).toEqual(["/0/result/confirm_token", "/0/result/created_at", "/0/result/id"]);
    const masked = new Set(["confirm_token"]);
    const cli: Outcome = { ok: true, result: { n: 1, name: "Ada", id: "cus_3", confirm_token: "t3", created_at: "2026-12-01T10:00:02.5Z" } };
    expect(disagreement([comparable(a, varying, masked, "/0")], [comparable(cli, varying, masked, "/0")])).toBeNull();
    const renamed: Outcome = { ok: true, result: { ...(cli.result as object), name: "Ada Lovelace" } };
    expect(disagreement([comparable(a, varying, masked, "/0")], [comparable(renamed, varying, masked, "/0")])).toMatchObject({ step: 0 });
  });

  it("compares errors by code, class, action, field, outcome and details, not by message", () => {
    const sdk: Outcome = { ok: false, error: { code: "CUSTOMER_NOT_FOUND", class: "not_found", action: "verify_identifier", field: null, message: "one wording" } };
    const same: Outcome = { ok: false, error: { code: "CUSTOMER_NOT_FOUND", class: "not_found", action: "verify_identifier", field: null, message: "another" } };
    const transient: Outcome = { ok: false, error: { ...same.error, class: "transient" } };
    const none = new Set<string>();
    expect(disagreement([comparable(sdk, none, none)], [comparable(same, none, none)])).toBeNull();
    expect(disagreement([comparable(sdk, none, none)], [comparable(transient, none, none)])).not.toBeNull();
    // A case that stopped early (one step fewer) disagrees too.
    expect(disagreement([comparable(sdk, none, none), comparable(sdk, none, none)], [comparable(sdk, none, none)])).toMatchObject({ step: 1 });
  });
});

/** A CLI that prints a changed result: one field of every successful answer altered. */
const brokenCli: ParityAdapters = {
  ...ADAPTERS,
  async cli(argv, options) {
    const r = await ADAPTERS.cli(argv, options);
    if (r.exitCode !== 0) return r;
    const json = JSON.parse(r.stdout) as Record<string, unknown>;
    if (typeof json.email === "string") json.email = `x${json.email}`;
    return { exitCode: 0, stdout: JSON.stringify(json) };
  },
};

/** An MCP server that reports every failure as transient (retry) whatever its declared class. */
const brokenMcp: ParityAdapters = {
  ...ADAPTERS,
  mcp: (options) => {
    const server = ADAPTERS.mcp!(options);
    return {
      connect(transport) {
        const send = transport.send.bind(transport);
        transport.send = (message: JSONRPCMessage, opts) => {
          const result = (message as { result?: { isError?: boolean; content?: Array<{ type: string; text: string }> } }).result;
          const first = result?.content?.[0];
          if (result?.isError && first?.type === "text") {
            const body = JSON.parse(first.text) as { error: Record<string, unknown> };
            body.error.class = "transient";
            first.text = JSON.stringify(body);
          }
          return send(message, opts);
        };
        return server.connect(transport);
      },
      close: () => server.close(),
    };
  },
};

describe("adapter parity against the billing reference platform", () => {
  it("the generated SDK, CLI and MCP server agree (results with generated ids, errors, a preview then confirm)", async () => {
    for (const id of ["create_customer", "get_customer", "refund_invoice"]) expect(await adapterParity(h, ADAPTERS, h.operation(id))).toBeUndefined();
  });

  it("a CLI that changes a result is caught, naming the CLI, the case and both answers", async () => {
    const run = adapterParity(h, brokenCli, h.operation("get_customer"));
    await expect(run).rejects.toThrow(/get_customer: adapter parity, the sample call: the CLI disagrees with the SDK at step 1 of 1/);
    await expect(adapterParity(h, brokenCli, h.operation("get_customer"))).rejects.toThrow(/"email":"xada@/);
  });

  it("an MCP server that maps not-found to transient is caught on the unseeded identifier", async () => {
    await expect(adapterParity(h, brokenMcp, h.operation("get_invoice"))).rejects.toThrow(
      /get_invoice: adapter parity, an identifier the fixture did not seed: the MCP server disagrees with the SDK at step 1 of 1[\s\S]*"class":"not_found"[\s\S]*"class":"transient"/,
    );
  });
});
