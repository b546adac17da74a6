/**
 * A generated package over the http format extensions, built with tsc --strict and run against an
 * in-process HTTP server: a list of success statuses (a listed second status accepted, an unlisted 2xx
 * refused), responses without a body (204 → null, for the SDK, the CLI and an MCP tool), and a
 * whole-body field (an array sent as the request body itself).
 */
import { execFile, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyPackageData } from "../support/sdk-data.js";
import { contractYaml, freshRoot, generateInto, parseOk, TSC } from "../hostile/harness.js";
import { newClient } from "../mcp/support.js";

const OPERATIONS = `
  add_labels:
    summary: Add labels to an issue.
    http: { method: POST, path: "/issues/{issue}/labels", successStatus: [200, 201], body: labels }
    effects: { kind: mutating, idempotent: natural, destructive: false, inferred: true }
    input:
      type: object
      required: [issue, labels]
      properties:
        issue: { type: integer }
        labels: { type: array, items: { type: string } }
    output: { type: array, items: { type: string } }
  remove_labels:
    summary: Remove labels from an issue.
    http: { method: DELETE, path: "/issues/{issue}/labels", successStatus: 204, body: labels }
    effects: { kind: mutating, idempotent: natural, destructive: false, inferred: true }
    input:
      type: object
      required: [issue, labels]
      properties:
        issue: { type: integer }
        labels: { type: array, items: { type: string } }
    output: { type: "null" }
  lock_issue:
    summary: Lock an issue.
    http: { method: PUT, path: "/issues/{issue}/lock", successStatus: [200, 204] }
    effects: { kind: mutating, idempotent: natural, destructive: false }
    input: { type: object, required: [issue], properties: { issue: { type: integer } } }
    output:
      anyOf:
        - { type: object, required: [locked], properties: { locked: { type: boolean } } }
        - { type: "null" }
`;

/** What the SDK's types must say, pinned by tsc --strict (a wrong line fails the build). */
const TYPE_CHECKS = `import { LabelsClient } from "./index.js";
export async function typed(c: LabelsClient): Promise<void> {
  const added: string[] = await c.addLabels({ issue: 1, labels: ["bug"] });
  const removed: null = await c.removeLabels({ issue: 1, labels: ["bug"] });
  const locked: { locked: boolean } | null = await c.lockIssue({ issue: 1 });
  // @ts-expect-error a 204 operation returns null, not an object
  const wrong: { locked: boolean } = await c.lockIssue({ issue: 1 });
  // @ts-expect-error the whole-body field is still a typed input field
  await c.addLabels({ issue: 1, labels: "bug" });
  void [added, removed, locked, wrong];
}
`;

interface Seen {
  method: string;
  url: string;
  contentType: string | undefined;
  body: string;
}
type Reply = { status: number; body?: string };

const root = freshRoot("http-responses");
const pkg = join(root, "labels");
const out = join(root, "build");
let server: Server;
let baseUrl = "";
const seen: Seen[] = [];
let reply: Reply = { status: 200, body: "[]" };
let sdk: { LabelsClient: new (options: Record<string, unknown>) => Record<string, (input: unknown) => Promise<unknown>> };

beforeAll(async () => {
  await generateInto(pkg, parseOk("labels", contractYaml({ operations: OPERATIONS, header: "contract: labels\nversion: 1.0.0\nchangelog:\n  - { version: 1.0.0, date: 2026-01-01 }\ntransport:\n  http: { baseUrl: \"http://127.0.0.1:1\" }" })));
  writeFileSync(join(pkg, "sdk", "http-checks.ts"), TYPE_CHECKS);
  writeFileSync(
    join(root, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2023", "DOM"], types: ["node"],
        strict: true, skipLibCheck: true, rootDir: ".", outDir: "build",
      },
      include: ["labels/sdk/**/*.ts", "labels/cli/**/*.ts", "labels/mcp/**/*.ts"],
    }),
  );
  const tsc = spawnSync(process.execPath, [TSC, "-p", join(root, "tsconfig.json")], { encoding: "utf8" });
  expect((tsc.stdout + tsc.stderr).trim()).toBe("");
  copyPackageData(pkg, join(out, "labels"));
  sdk = (await import(pathToFileURL(join(out, "labels", "sdk", "index.js")).href)) as typeof sdk;

  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", contentType: req.headers["content-type"], body: Buffer.concat(chunks).toString("utf8") });
      const headers: Record<string, string> = reply.body !== undefined ? { "content-type": "application/json" } : {};
      res.writeHead(reply.status, headers);
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
});

const client = () => new sdk.LabelsClient({ baseUrl, journal: false, retry: { maxAttempts: 1 } });
const last = () => seen[seen.length - 1]!;

describe("success statuses", () => {
  it("accepts a listed second status (201)", async () => {
    reply = { status: 201, body: '["bug","ui"]' };
    await expect(client().addLabels!({ issue: 7, labels: ["bug", "ui"] })).resolves.toEqual(["bug", "ui"]);
  });

  it("refuses a 2xx the contract does not list, naming the status and the listed ones", async () => {
    reply = { status: 202, body: '{"locked":true}' };
    const error = await client().lockIssue!({ issue: 7 }).then(
      () => null,
      (e: unknown) => e as { code: string; message: string; status: number; outcome: string },
    );
    expect(error).toMatchObject({ code: "CLIENT_RESPONSE_INVALID", status: 202, outcome: "unknown" });
    expect(error!.message).toBe("lock_issue answered HTTP 202, which the contract does not list as a success (200, 204).");
  });
});

describe("responses without a body", () => {
  it("a 204 is null", async () => {
    reply = { status: 204 };
    await expect(client().removeLabels!({ issue: 7, labels: ["wontfix"] })).resolves.toBeNull();
  });

  it("either a body or none, when both are listed", async () => {
    reply = { status: 204 };
    await expect(client().lockIssue!({ issue: 7 })).resolves.toBeNull();
    reply = { status: 200, body: "" }; // Content-Length: 0
    await expect(client().lockIssue!({ issue: 7 })).resolves.toBeNull();
    reply = { status: 200, body: '{"locked":true}' };
    await expect(client().lockIssue!({ issue: 7 })).resolves.toEqual({ locked: true });
  });

  it("an empty body where the output requires one is refused", async () => {
    reply = { status: 201 };
    await expect(client().addLabels!({ issue: 7, labels: ["bug"] })).rejects.toMatchObject({ code: "CLIENT_RESPONSE_INVALID", message: expect.stringContaining("(root) must be array") });
  });

  it("an MCP tool returns null as its text, without structuredContent (no outputSchema), valid for a 2020-12 client", async () => {
    const mod = (await import(pathToFileURL(join(out, "labels", "mcp", "server.js")).href)) as {
      createServer(options: Record<string, unknown>): { connect(t: unknown): Promise<void>; close(): Promise<void> };
    };
    const mcp = mod.createServer({ baseUrl, journal: false, retry: { maxAttempts: 1 } });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    const c = newClient();
    await c.connect(clientSide);
    try {
      const tools = await c.listTools();
      expect(tools.tools.find((t) => t.name === "remove_labels")!.outputSchema).toBeUndefined();
      reply = { status: 204 };
      const result = (await c.callTool({ name: "remove_labels", arguments: { issue: 7, labels: ["bug"] } })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toBeUndefined();
      expect(result.content).toEqual([{ type: "text", text: "null" }]);
    } finally {
      await c.close();
      await mcp.close();
    }
  });
});

describe("the CLI", () => {
  it("prints null for a 204 and sends an array flag as the whole body", async () => {
    reply = { status: 204 };
    const journal = join(root, "cli-journal.sqlite");
    const args = ["--base-url", baseUrl, "--journal", journal, "remove-labels", "--issue", "9", "--labels", "a", "--labels", "b"];
    const r = await promisify(execFile)(process.execPath, [join(out, "labels", "cli", "main.js"), ...args], { encoding: "utf8", env: { PATH: process.env.PATH ?? "" } });
    expect(r.stdout).toBe("null\n");
    expect(last()).toMatchObject({ method: "DELETE", url: "/issues/9/labels", body: '["a","b"]' });
  });
});

describe("whole-body field", () => {
  it("sends the array itself as the JSON body, the other fields in the path", async () => {
    reply = { status: 200, body: '["bug","ui"]' };
    await client().addLabels!({ issue: 7, labels: ["bug", "ui"] });
    expect(last()).toEqual({ method: "POST", url: "/issues/7/labels", contentType: "application/json", body: '["bug","ui"]' });
  });

  it("sends a DELETE body too", async () => {
    reply = { status: 204 };
    await client().removeLabels!({ issue: 3, labels: ["wontfix"] });
    expect(last()).toEqual({ method: "DELETE", url: "/issues/3/labels", contentType: "application/json", body: '["wontfix"]' });
  });
});
