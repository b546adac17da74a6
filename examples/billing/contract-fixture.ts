/** The generated contract suite's fixture for the billing reference platform (test/contract-suite). */
import { platformFixture } from "../shared/contract-fixture.js";
import { BILLING_SPEC, startBillingServer } from "./server.js";

export const fixture = platformFixture({
  spec: BILLING_SPEC,
  start: startBillingServer,
  tables: ["customers", "invoices", "refunds"],
  // The default customers are already mixed (with and without open, paid, failed and disputed invoices).
  datasets: { empty: "empty", mixed: "default" },
  samples(operation, variant) {
    switch (operation) {
      case "create_customer":
        return variant === 0 ? { email: "new@example.com", name: "New Customer" } : { email: "other@example.com", name: "Other Customer" };
      case "get_customer":
        return variant === 0 ? { customer_id: "cus_ada001" } : undefined;
      case "list_customers":
        return variant === 0 ? {} : undefined;
      case "update_customer":
        return variant === 0 ? { customer_id: "cus_ada001", expected_revision: 1, name: "Ada King" } : undefined;
      case "get_invoice":
        return variant === 0 ? { invoice_id: "inv_1001" } : undefined;
      case "refund_invoice":
        // inv_1001: 12000 paid, nothing refunded yet; two refunds of either amount still fit.
        return { invoice_id: "inv_1001", amount: variant === 0 ? 1000 : 2000, expected_refunded_cents: 0 };
      default:
        return undefined;
    }
  },
  errors(operation, code) {
    switch (`${operation} ${code}`) {
      case "get_customer CUSTOMER_NOT_FOUND":
        return { customer_id: "cus_nobody404" };
      case "update_customer CUSTOMER_NOT_FOUND":
        return { customer_id: "cus_nobody404", expected_revision: 1, name: "Nobody" };
      case "update_customer EMAIL_TAKEN":
        // grace@example.com belongs to cus_grace002.
        return { customer_id: "cus_ada001", expected_revision: 1, email: "grace@example.com" };
      case "get_invoice INVOICE_NOT_FOUND":
        return { invoice_id: "inv_9999" };
      case "refund_invoice INVOICE_NOT_FOUND":
        return { invoice_id: "inv_9999", amount: 100 };
      case "refund_invoice REFUND_EXCEEDS_BALANCE":
        // inv_1004: 90000 paid, 45000 refunded already.
        return { invoice_id: "inv_1004", amount: 90_000 };
      default:
        return undefined;
    }
  },
});
