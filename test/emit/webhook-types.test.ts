/** The SDK declares a type for each webhook's payload, named by the naming authority, documented by its summary. */
import { describe, expect, it } from "vitest";
import { parseContractText } from "../../src/contract/parse.js";
import { emitTypes } from "../../src/emit/sdk/types.js";

const contract = `contract: shop
version: 1.0.0
changelog: [{ version: 1.0.0, date: 2026-01-01 }]
transport: { http: { baseUrl: "http://127.0.0.1:1" } }
errors: { BAD: { class: invalid_input, action: fix_field, http: 400 } }
types:
  Money: { type: object, required: [amount], properties: { amount: { type: integer } } }
operations:
  get_order:
    summary: Read an order.
    http: { method: GET, path: /orders }
    effects: { kind: read }
    input: { type: object, properties: { id: { type: string } } }
    output: { type: object, properties: { id: { type: string } } }
webhooks:
  order.paid:
    summary: An order was paid in full.
    payload:
      type: object
      required: [order_id, total]
      properties:
        order_id: { type: string }
        total: { $ref: "#/types/Money" }
  refund-issued:
    summary: A refund was issued.
    payload: { type: object, description: Sent once per refund., properties: { refund_id: { type: string } } }
`;

describe("webhook payload types", () => {
  const parsed = parseContractText("shop.yaml", contract);

  it("the model names each payload's type", () => {
    expect(parsed.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(parsed.model!.webhooks.map((w) => [w.name, w.identifier])).toEqual([
      ["order.paid", "OrderPaidWebhook"],
      ["refund-issued", "RefundIssuedWebhook"],
    ]);
  });

  it("types.ts declares them, shared types by reference, the summary leading the doc comment", async () => {
    const text = await emitTypes(parsed.model!);
    expect(text).toMatch(/\* An order was paid in full\.\n \*\/\nexport interface OrderPaidWebhook \{\n  order_id: string;\n  total: Money;\n\}/);
    expect(text).toMatch(/\* A refund was issued\.\n \*\n \* Sent once per refund\.\n \*\/\nexport interface RefundIssuedWebhook \{/);
  });
});
