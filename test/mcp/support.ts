/** Shared by the MCP transport and catalogue tests: a 2020-12-validating client and the built packages. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsM from "ajv-formats";

export const TOKEN = "mcp-test-token-5f1c";

/** A file of a generated package as built by test/e2e/global-setup. */
export const built = (name: string, file: string) => resolve("test-results/sdk", name, file);

/** A client that validates structured results with a draft 2020-12 validator (the contract's dialect). */
export function newClient(): Client {
  const ajv = new Ajv2020({ strict: false });
  (addFormatsM as unknown as { default: (a: Ajv2020) => void }).default(ajv);
  return new Client({ name: "contractgen-test", version: "1.0.0" }, { jsonSchemaValidator: new AjvJsonSchemaValidator(ajv as never) });
}

export const text = (r: CallToolResult) => JSON.parse((r.content[0] as { text: string }).text) as Record<string, any>;

/** Temporary journals, removed by `removeJournals()`. */
const dirs: string[] = [];
export function freshJournal(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-journal-"));
  dirs.push(dir);
  return join(dir, "journal.sqlite");
}
export function removeJournals(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** A fetch that counts the requests reaching the platform. */
export function countingFetch(): { fetch: typeof fetch; count: () => number } {
  let n = 0;
  return {
    fetch: (input, init) => {
      n++;
      return fetch(input, init);
    },
    count: () => n,
  };
}
