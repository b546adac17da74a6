/**
 * Code mode's `execute` over the generated SDK (src/code-runtime/execute.ts), against the billing and
 * incidents reference platforms with the built example packages: calls go through the real client
 * (its credential stays in the host), typed errors come back catchable with code, class and action, a
 * traversal keeps its completeness, and a confirm token is redeemed only in a later execute than the
 * one whose preview minted it: a program cannot preview and confirm in one go.
 */
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBillingServer } from "../../examples/billing/server.js";
import { OPEN_P1_CHECKOUT_PRODUCTION, startIncidentsServer } from "../../examples/incidents/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { CONFIRM_SAME_PROGRAM, createExecutor } from "../../src/code-runtime/execute.js";
import { parseContract } from "../../src/contract/parse.js";
import { createTypeChecker } from "../../src/code-runtime/typecheck.js";
import { codeMethods } from "../../src/emit/code/methods.js";

type BillingSdk = typeof import("../../generated-examples/billing.v2/sdk/index.js");
type IncidentsSdk = typeof import("../../generated-examples/incidents/sdk/index.js");

const TOKEN = "code-mode-token-8e2c";
let billing: RunningPlatform;
let incidents: RunningPlatform;
let billingSdk: BillingSdk;
let incidentsSdk: IncidentsSdk;
beforeAll(async () => {
  billing = await startBillingServer({ token: TOKEN });
  incidents = await startIncidentsServer({ token: TOKEN });
  billingSdk = (await import(resolve("test-results/sdk/billing.v2/sdk/index.js"))) as BillingSdk;
  incidentsSdk = (await import(resolve("test-results/sdk/incidents/sdk/index.js"))) as IncidentsSdk;
});
afterAll(async () => {
  await Promise.all([billing?.close(), incidents?.close()]);
});

const billingExecutor = () => {
  const client = new billingSdk.BillingClient({ baseUrl: billing.url, token: TOKEN, journal: false });
  return { client, executor: createExecutor(client, codeMethods(parseContract("specs/billing.v2.yaml").model!)) };
};

describe("execute over the billing SDK", () => {
  it("a program that previews and confirms in one run is refused before anything executes; the next run confirms with the token it returned", async () => {
    const { client, executor } = billingExecutor();
    const before = (await client.getInvoice({ invoice_id: "inv_1002" })).refunded_cents;
    const oneGo = await executor.execute(`
      const preview = await client.previewRefundInvoice({ invoice_id: "inv_1002", amount: 500 });
      try {
        return await client.refundInvoice({ invoice_id: "inv_1002", amount: 500, confirm_token: preview.confirm_token });
      } catch (e) { return { refused: e.code, action: e.action, field: e.field }; }`);
    expect(oneGo).toMatchObject({ ok: true, value: { refused: CONFIRM_SAME_PROGRAM, action: "stop_and_surface", field: "confirm_token" } });
    expect((await client.getInvoice({ invoice_id: "inv_1002" })).refunded_cents).toBe(before);

    const previewed = await executor.execute(`return await client.previewRefundInvoice({ invoice_id: "inv_1002", amount: 500 });`);
    expect(previewed.ok).toBe(true);
    const token = (previewed.value as { confirm_token: string }).confirm_token;
    const confirmed = await executor.execute(`return await client.refundInvoice({ invoice_id: "inv_1002", amount: 500, confirm_token: ${JSON.stringify(token)} });`);
    expect(confirmed.ok).toBe(true);
    expect((await client.getInvoice({ invoice_id: "inv_1002" })).refunded_cents).toBe(before + 500);
  });

  it("a typed error is catchable with its code, class and action; the credential appears nowhere in what the program gets", async () => {
    const { executor } = billingExecutor();
    const r = await executor.execute(`
      try { await client.getInvoice({ invoice_id: "inv_9999" }); } catch (e) { return { code: e.code, cls: e.class, action: e.action, all: JSON.stringify(e) + e.message }; }`);
    expect(r).toMatchObject({ ok: true, value: { code: "INVOICE_NOT_FOUND", cls: "not_found", action: "verify_identifier" } });
    expect(JSON.stringify(r)).not.toContain(TOKEN);
  });

  it("input the SDK refuses is refused in the host, before anything is sent, as invalid_input", async () => {
    const { executor } = billingExecutor();
    const r = await executor.execute(`try { await client.refundInvoice({ invoice_id: "inv_1001", amount: "lots" }); } catch (e) { return [e.class, e.action]; }`);
    expect(r).toMatchObject({ ok: true, value: ["invalid_input", "fix_field"] });
  });
});

describe("execute over the incidents SDK", () => {
  it("answers the incident question in code: a bounded traversal with its completeness, filtered in the program", async () => {
    const client = new incidentsSdk.IncidentsClient({ baseUrl: incidents.url, token: TOKEN, journal: false });
    const executor = createExecutor(client, codeMethods(parseContract("specs/incidents.yaml").model!));
    const r = await executor.execute(`
      const page = await client.listIncidentsAll({ status: "open", severity: "P1", environment: "production", fields: ["id", "service", "owner"] }, { maxPages: 10 }).collect();
      if (!page.complete) return { incomplete: page.reasons };
      return page.items.filter((i) => i.service === "checkout").map((i) => ({ id: i.id, owner: i.owner }));`);
    expect(r.ok).toBe(true);
    expect((r.value as Array<{ id: string }>).map((i) => i.id).sort()).toEqual([...OPEN_P1_CHECKOUT_PRODUCTION].sort());
    // A traversal cut by its bound says so: the program sees complete false and the continuation.
    const cut = await executor.execute(`const p = await client.listIncidentsAll({ limit: 1 }, { maxPages: 1 }).collect(); return { complete: p.complete, hasContinuation: typeof p.continuation === "string", n: p.items.length };`);
    expect(cut).toMatchObject({ ok: true, value: { complete: false, hasContinuation: true, n: 1 } });
    // Iterated as the SDK's traversal is: the items.
    const iterated = await executor.execute(`const ids = []; for await (const i of client.listIncidentsAll({ status: "open", severity: "P1", service: "checkout", environment: "production" }, { maxPages: 5 })) ids.push(i.id); return ids.sort();`);
    expect(iterated).toMatchObject({ ok: true, value: [...OPEN_P1_CHECKOUT_PRODUCTION].sort() });
  });
});

describe("execute with the type check against the package's own SDK", () => {
  // The checked-in package's SDK sources: what a generated package's code mode checks against.
  const checker = createTypeChecker("generated-examples/billing.v2/sdk/index.ts", "BillingClient");

  it("a program with a wrong method, a wrong field type or a missing confirm token is refused with line and column, and nothing runs", async () => {
    const client = new billingSdk.BillingClient({ baseUrl: billing.url, token: TOKEN, journal: false });
    const executor = createExecutor(client, codeMethods(parseContract("specs/billing.v2.yaml").model!), { typeCheck: checker.check });
    const before = (await client.getInvoice({ invoice_id: "inv_1004" })).refunded_cents;
    const typo = await executor.execute(`const inv = await client.getInvoce({ invoice_id: "inv_1004" });\nreturn inv;`);
    expect(typo).toMatchObject({ ok: false, error: { code: "CODE_TYPE_ERROR" }, calls: 0 });
    expect("typeErrors" in typo && typo.typeErrors[0]).toMatchObject({ line: 1, column: 26, code: 2551 });
    expect(typo.error!.message).toContain("Did you mean 'getInvoice'?");
    const noToken = await executor.execute(`// refund without the preview's token\nreturn await client.refundInvoice({ invoice_id: "inv_1004", amount: 100 });`);
    expect(noToken).toMatchObject({ ok: false, error: { code: "CODE_TYPE_ERROR" } });
    expect("typeErrors" in noToken && noToken.typeErrors[0]!.line).toBe(2);
    expect((await client.getInvoice({ invoice_id: "inv_1004" })).refunded_cents).toBe(before);
  });

  it("a program that type-checks runs with its types stripped", async () => {
    const client = new billingSdk.BillingClient({ baseUrl: billing.url, token: TOKEN, journal: false });
    const executor = createExecutor(client, codeMethods(parseContract("specs/billing.v2.yaml").model!), { typeCheck: checker.check });
    const r = await executor.execute(`
      interface Summary { id: string; refunded: number }
      const inv = await client.getInvoice({ invoice_id: "inv_1001" });
      const summary: Summary = { id: inv.id, refunded: inv.refunded_cents };
      try { await client.getInvoice({ invoice_id: "inv_9999" }); } catch (e) { if (e instanceof SdkError) return { summary, missing: e.code }; }
      return { summary };`);
    expect(r).toMatchObject({ ok: true, value: { summary: { id: "inv_1001" }, missing: "INVOICE_NOT_FOUND" } });
  });
});
