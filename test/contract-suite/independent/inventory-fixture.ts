/**
 * The fixture the inventory team writes for the package generated from its OpenAPI document and
 * overlay (tests/fixture.ts, as the generated README says): reset, samples, a snapshot and the
 * optional members. Copied into the generated package by independent.test.ts, next to the server it
 * starts (./inventory-server.js).
 */
import type { Fixture, Input } from "./runtime/harness.js";
import { etagOf, type InventoryDefect, type InventoryServer, startInventoryServer } from "./inventory-server.js";

const API_KEY = "inv-test-key-7f3a";

let server: InventoryServer | undefined;
const running = (): InventoryServer => {
  if (!server) throw new Error("the inventory server is not started");
  return server;
};

/** An item's ETag after a reset (every seeded item is at version 1). */
const seeded = (sku: string): string => etagOf(sku, 1);

export const fixture: Fixture = {
  get baseUrl() {
    return running().url;
  },
  token: API_KEY,

  async start() {
    // INVENTORY_DEFECT seeds one defect (independent.test.ts shows the suite catches it).
    const defect = process.env.INVENTORY_DEFECT as InventoryDefect | undefined;
    server = await startInventoryServer({ apiKey: API_KEY, ...(defect ? { defect } : {}) });
  },
  async stop() {
    await server?.close();
  },

  async reset(): Promise<void> {
    running().reset();
  },

  sampleInput(operation: string, variant = 0): Input | undefined {
    switch (operation) {
      case "list_items":
        return variant === 0 ? {} : { tags: ["hardware"], updated: { from: "2026-02-01", to: "2026-03-31" } };
      case "get_item":
        return { sku: variant === 0 ? "BLT-0001" : "NUT-0001" };
      case "adjust_stock":
        return { sku: "BLT-0001", if_match: seeded("BLT-0001"), ...(variant === 0 ? { delta: 25, reason: "restock" } : { delta: -10, reason: "count" }) };
      case "reserve_stock":
        return { sku: "NUT-0001", ...(variant === 0 ? { quantity: 10, order: "ord-2001" } : { quantity: 4, order: "ord-2002" }) };
      case "get_reservation":
        return { reservation_id: variant === 0 ? "res_a1b2c3" : "res_d4e5f6" };
      case "release_reservation":
        return { reservation_id: variant === 0 ? "res_a1b2c3" : "res_d4e5f6" };
      default:
        return undefined;
    }
  },

  async observe() {
    return running().snapshot();
  },

  async advanceTime(ms: number) {
    running().advance(ms);
  },

  errorInput(operation: string, code: string): Input | undefined {
    switch (code) {
      case "ITEM_NOT_FOUND":
        if (operation === "get_item") return { sku: "ZZZ-9999" };
        if (operation === "adjust_stock") return { sku: "ZZZ-9999", if_match: "r00000000", delta: 1, reason: "count" };
        if (operation === "reserve_stock") return { sku: "ZZZ-9999", quantity: 1, order: "ord-9999" };
        return undefined;
      case "RESERVATION_NOT_FOUND":
        return operation === "get_reservation" || operation === "release_reservation" ? { reservation_id: "res_zzzzzz" } : undefined;
      case "INSUFFICIENT_STOCK":
        // Duct tape is out of stock.
        if (operation === "adjust_stock") return { sku: "TPE-0001", if_match: seeded("TPE-0001"), delta: -5, reason: "damage" };
        if (operation === "reserve_stock") return { sku: "TPE-0001", quantity: 1, order: "ord-3001" };
        return undefined;
      default:
        return undefined;
    }
  },

  async resetWith({ dataset = "default" }) {
    // The default data set is already mixed (tagged and untagged windows, reserved and free stock).
    running().reset({ dataset });
    return true;
  },
};
