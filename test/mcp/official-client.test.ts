/**
 * Every tool is usable by the official MCP TypeScript client with its default settings: a
 * `new Client({ name, version })` with no options validates each structured result against the
 * tool's outputSchema with its own draft-07 Ajv (not the 2020-12 validator the other MCP tests
 * give it), and throws McpError -32602 when it refuses one. Each example's generated server is
 * connected in memory to such a client, pointed at its reference platform (petstore, which has none:
 * an in-process fetch), and every listed tool is called with arguments that succeed there (derived
 * from the tool's inputSchema and the platform's seeded data): no call may throw, fail, or lack
 * structuredContent. Then the same through a contract whose output schemas use the 2020-12 keywords,
 * answered by a fake platform with results that exercise each of them.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsM from "ajv-formats";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { BILLING_SEED_CUSTOMERS, BILLING_SEED_INVOICES, startBillingServer } from "../../examples/billing/server.js";
import { BOOKSHELF_SEED_BOOKS, startBookshelfServer } from "../../examples/bookshelf/server.js";
import { INCIDENT_TEAMS, OPEN_P1_CHECKOUT_PRODUCTION, startIncidentsServer } from "../../examples/incidents/server.js";
import { releaseSeed, startReleasesServer } from "../../examples/releases/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { emitPackage } from "../../src/emit/index.js";
import { servedOutputSchema } from "../../src/emit/mcp/tools.js";
import type { ContractModel } from "../../src/model/types.js";
import { parseContractText } from "../../src/contract/parse.js";
import { built, freshJournal, removeJournals } from "./support.js";

const TOKEN = "official-client-token-7e21";

type Json = Record<string, any>;
type ServerModule = { createServer(options?: Record<string, unknown>): { connect(t: unknown): Promise<void>; close(): Promise<void> } };

/** A client exactly as a user writes it: no options, so the SDK's default (draft-07 Ajv) validator. */
async function defaultClient(server: { connect(t: unknown): Promise<void> }): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "official-client-test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

/** One tool call and what went wrong with it, if anything. */
interface Call {
  readonly tool: string;
  readonly args: Json;
  readonly result?: CallToolResult;
  readonly problem?: string;
}

/** Call a tool through the client; a thrown McpError, an isError result or missing structuredContent is a problem. */
async function callChecked(client: Client, tool: Tool, args: Json): Promise<Call> {
  let result: CallToolResult;
  try {
    result = (await client.callTool({ name: tool.name, arguments: args })) as CallToolResult;
  } catch (e) {
    const err = e as { code?: number; message?: string };
    return { tool: tool.name, args, problem: `threw ${err.code ?? ""} ${err.message ?? String(e)}` };
  }
  if (result.isError) return { tool: tool.name, args, result, problem: `isError: ${(result.content[0] as { text?: string })?.text ?? ""}` };
  if (tool.outputSchema && result.structuredContent === undefined) return { tool: tool.name, args, result, problem: "no structuredContent though the tool has an outputSchema" };
  return { tool: tool.name, args, result };
}

// ---------------------------------------------------------------------------------------------
// Arguments from the inputSchema and a few seeded values

interface Example {
  readonly name: string;
  /** The reference platform; or, for an example without one, `fake`. */
  readonly start?: () => Promise<RunningPlatform>;
  /** Server options of an example without a reference platform: a fetch answering as the platform would, its credentials. */
  readonly fake?: Readonly<Record<string, unknown>>;
  /** Values of arguments a schema cannot invent: identifiers of seeded records, names the platform knows. */
  readonly seeds: Readonly<Record<string, unknown>>;
}

const quiet = { token: TOKEN, log: () => undefined };
const EXAMPLES: readonly Example[] = [
  // billing.v1 has no platform of its own: its operations are those of v2 (a refund amount of 1 means the same to both).
  { name: "billing.v1", start: () => startBillingServer(quiet), seeds: { customer_id: BILLING_SEED_CUSTOMERS[0]!.id, invoice_id: BILLING_SEED_INVOICES[0]!.id } },
  { name: "billing.v2", start: () => startBillingServer(quiet), seeds: { customer_id: BILLING_SEED_CUSTOMERS[0]!.id, invoice_id: BILLING_SEED_INVOICES[0]!.id } },
  { name: "incidents", start: () => startIncidentsServer(quiet), seeds: { incident_id: OPEN_P1_CHECKOUT_PRODUCTION[0], owner: INCIDENT_TEAMS[2] } },
  { name: "releases", start: () => startReleasesServer(quiet), seeds: { release_id: releaseSeed("default")[0]!.id } },
  { name: "bookshelf", start: () => startBookshelfServer(quiet), seeds: { book_id: BOOKSHELF_SEED_BOOKS[0]!.id } },
  // petstore has no reference platform: a fetch answers its three reads with results its contract allows.
  { name: "petstore", fake: { fetch: petstoreFetch, credentials: { key: "petstore-key-3f0a", oauth: TOKEN } }, seeds: { pet_id: "pet_1" } },
];

/** The petstore's reads, answered in process: only with the credential the contract requires. */
async function petstoreFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const path = url.pathname.replace(/^\/v2/, "");
  if (path === "/status") return json(200, { open: true });
  if (headers.get("api_key") !== "petstore-key-3f0a" && headers.get("authorization") !== `Bearer ${TOKEN}`) return json(401, { code: "UNAUTHORIZED", message: "no credential" });
  if (path === "/pets/pet_1") return json(200, { id: "pet_1", name: "Rex" });
  if (path === "/pets") return json(200, { pets: [{ id: "pet_1", name: "Rex", tags: url.searchParams.getAll("tags") }], error: null });
  return json(404, { code: "PET_NOT_FOUND", message: "no such pet" });
}

let unique = 0;

/** A value of `schema` for argument `name`: a seeded value, else one the schema alone determines; throws when it cannot. */
function sample(tool: string, name: string, schema: Json, seeds: Readonly<Record<string, unknown>>): unknown {
  if (Object.hasOwn(seeds, name)) return seeds[name];
  if (Object.hasOwn(schema, "const")) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (/(^|_)key$/.test(name) || schema.format === "uuid") return randomUUID(); // an operation key: fresh per call
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;
  const n = ++unique;
  switch (type) {
    case "string": {
      if (schema.pattern !== undefined) throw new Error(`${tool}.${name}: a string of pattern ${schema.pattern} needs a seeded value`);
      if (schema.format === "email") return `official.client.${n}@example.com`;
      if (schema.format === "date-time") return "2020-01-01T00:00:00Z";
      if (schema.format !== undefined) throw new Error(`${tool}.${name}: no sample for format ${schema.format}`);
      const text = `Official client ${n}`;
      const min = schema.minLength ?? 0;
      return (text.length < min ? text.padEnd(min, "x") : text).slice(0, schema.maxLength ?? text.length);
    }
    case "integer":
    case "number": {
      // 1 where allowed: it is an integer, and a positive amount in any unit.
      const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? Math.floor(schema.exclusiveMinimum) + 1 : 1);
      const value = Math.max(1, Math.ceil(low));
      if (schema.maximum !== undefined && value > schema.maximum) throw new Error(`${tool}.${name}: no sample in [${low}, ${schema.maximum}]`);
      return value;
    }
    case "boolean":
      return false;
    case "array":
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sample(tool, `${name}[]`, schema.items ?? {}, seeds));
    default:
      throw new Error(`${tool}.${name}: no sample for ${JSON.stringify(schema)}`);
  }
}

/** A tool that previews by default: a boolean input defaulting to true (dry_run). */
const previewFlag = (tool: Tool): string | undefined =>
  Object.entries((tool.inputSchema.properties ?? {}) as Record<string, Json>).find(([, s]) => s.type === "boolean" && s.default === true)?.[0];

/**
 * The arguments of a call of `tool` that the platform accepts: the required arguments, plus optional
 * ones up to `minProperties`, plus an operation key where the tool takes one. An `expected_<field>`
 * precondition is read with the `get_` tool taking the same identifier (`read`).
 */
async function argumentsFor(tool: Tool, tools: readonly Tool[], seeds: Readonly<Record<string, unknown>>, read: (tool: Tool, args: Json) => Promise<Call>): Promise<Json> {
  const props = (tool.inputSchema.properties ?? {}) as Record<string, Json>;
  const required = new Set((tool.inputSchema.required ?? []) as string[]);
  const flag = previewFlag(tool);
  for (const name of Object.keys(props)) if (/(^|_)key$/.test(name)) required.add(name); // "give one"
  const args: Json = {};
  const expected: string[] = [];
  for (const name of required) {
    if (name.startsWith("expected_")) expected.push(name);
    else args[name] = sample(tool.name, name, props[name]!, seeds);
  }
  // Optional arguments (not behaviour flags or preconditions) until minProperties is met.
  const min = (tool.inputSchema as Json).minProperties ?? 0;
  for (const name of Object.keys(props)) {
    if (Object.keys(args).length + expected.length >= min) break;
    if (Object.hasOwn(args, name) || name === flag || name.startsWith("expected_") || name.startsWith("confirm")) continue;
    args[name] = sample(tool.name, name, props[name]!, seeds);
  }
  if (expected.length > 0) {
    const getter = tools.find((t) => t.name.startsWith("get_") && ((t.inputSchema.required ?? []) as string[]).every((r) => Object.hasOwn(args, r)));
    if (!getter) throw new Error(`${tool.name}: no get_ tool reads ${expected.join(", ")}`);
    const current = await read(getter, Object.fromEntries(((getter.inputSchema.required ?? []) as string[]).map((r) => [r, args[r]])));
    const record = current.result?.structuredContent as Json | undefined;
    for (const name of expected) {
      const field = name.slice("expected_".length);
      if (record === undefined || !Object.hasOwn(record, field)) throw new Error(`${tool.name}.${name}: ${getter.name} gave no ${field} (${current.problem ?? ""})`);
      args[name] = record[field];
    }
  }
  return args;
}

/**
 * Call every tool once with arguments the platform accepts. A tool that previews by default is
 * called as it is (the preview), then executed with the preview's confirmation (both result forms are
 * checked). Destructive tools run last, so nothing they delete is needed afterwards.
 */
async function callEveryTool(client: Client, seeds: Readonly<Record<string, unknown>>): Promise<{ listed: string[]; calls: Call[] }> {
  const { tools } = await client.listTools();
  const calls: Call[] = [];
  const run = async (tool: Tool, args: Json) => {
    const call = await callChecked(client, tool, args);
    calls.push(call);
    return call;
  };
  const ordered = [...tools.filter((t) => !t.annotations?.destructiveHint), ...tools.filter((t) => t.annotations?.destructiveHint)];
  for (const tool of ordered) {
    let args: Json;
    try {
      args = await argumentsFor(tool, tools, seeds, run);
    } catch (e) {
      calls.push({ tool: tool.name, args: {}, problem: `no arguments: ${(e as Error).message}` });
      continue;
    }
    const flag = previewFlag(tool);
    const first = await run(tool, args);
    if (flag === undefined || first.problem !== undefined) continue;
    // The preview's confirmation: each optional string argument the preview result carries.
    const preview = first.result!.structuredContent as Json;
    const props = (tool.inputSchema.properties ?? {}) as Record<string, Json>;
    const confirm = Object.keys(props).filter((p) => props[p]!.type === "string" && preview && typeof preview[p] === "string" && !Object.hasOwn(args, p));
    if (confirm.length === 0) {
      calls.push({ tool: tool.name, args, problem: `the preview gave no confirmation to execute with: ${JSON.stringify(preview)}` });
      continue;
    }
    await run(tool, { ...args, [flag]: false, ...Object.fromEntries(confirm.map((p) => [p, preview[p]])) });
  }
  return { listed: tools.map((t) => t.name), calls };
}

/** The problems of `calls`, one line each, for an assertion that prints them all. */
const problems = (calls: readonly Call[]) => calls.filter((c) => c.problem !== undefined).map((c) => `${c.tool}(${JSON.stringify(c.args)}): ${c.problem}`);

describe("every tool of every example, through the official client with its default settings", () => {
  afterAll(() => removeJournals());

  it.each(EXAMPLES)("$name: every listed tool is called and succeeds", async ({ name, start, fake, seeds }) => {
    const platform = await start?.();
    const mod = (await import(built(name, "mcp/server.js"))) as ServerModule;
    const server = mod.createServer(platform ? { baseUrl: platform.url, token: TOKEN, journal: freshJournal() } : { ...fake, journal: freshJournal() });
    const client = await defaultClient(server);
    try {
      const { listed, calls } = await callEveryTool(client, seeds);
      if (process.env.OFFICIAL_CLIENT_DEBUG) {
        console.log(calls.map((c) => `${c.tool} ${JSON.stringify(c.args)} -> ${JSON.stringify(c.result?.structuredContent).slice(0, 160)}`).join("\n"));
        console.log(`${name}: ${listed.length} tools listed, ${new Set(calls.map((c) => c.tool)).size} called, ${calls.length} calls`);
      }
      expect(problems(calls)).toEqual([]);
      expect([...new Set(calls.map((c) => c.tool))].sort()).toEqual([...listed].sort());
      expect(listed.length).toBeGreaterThan(0);
    } finally {
      await client.close();
      await server.close();
      await platform?.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The 2020-12 keywords in output schemas

/**
 * A contract whose output schemas use the 2020-12 keywords a draft-07 reader sees differently
 * (prefixItems, contains counts, dependent*, unevaluated*) beside those it shares (propertyNames,
 * patternProperties, if/then/else, const, exclusive bounds, nullable types, formats, $ref to shared
 * and recursive types; $anchor, which the contract model drops). Every operation is a read answered
 * by the fake platform below with a result valid in 2020-12 that exercises its keywords.
 */
const KEYWORDS = `
contract: keywords
version: 1.0.0
title: Keywords
description: Read-only results whose schemas use the JSON Schema 2020-12 keywords a draft-07 reader sees differently.
changelog: [{ version: 1.0.0, date: 2026-01-01 }]
transport: { http: { baseUrl: "http://127.0.0.1:4999" } }
types:
  Point:
    $anchor: point
    type: array
    description: An x, y pair.
    prefixItems: [{ type: number }, { type: number }]
    items: false
    minItems: 2
  Node:
    type: object
    required: [name]
    additionalProperties: false
    properties:
      name: { type: string, minLength: 1 }
      children: { type: array, items: { $ref: "#/types/Node" } }
errors:
  NOT_FOUND: { class: not_found, action: verify_identifier, http: 404 }
operations:
  read_tuples:
    summary: Tuples, closed and with rest items.
    http: { method: GET, path: /tuples }
    effects: { kind: read }
    input: { type: object, additionalProperties: false, properties: {} }
    output:
      type: object
      required: [closed, short, rest, rest_only_prefix, unevaluated_rest, unevaluated_closed, at]
      additionalProperties: false
      properties:
        closed: { type: array, prefixItems: [{ type: string }, { type: integer }], items: false }
        short: { type: array, prefixItems: [{ type: string }, { type: integer }], items: false }
        rest: { type: array, prefixItems: [{ type: string }], items: { type: integer } }
        rest_only_prefix: { type: array, prefixItems: [{ type: string }], items: { type: integer } }
        unevaluated_rest: { type: array, prefixItems: [{ type: string }], unevaluatedItems: { type: integer } }
        unevaluated_closed: { type: array, prefixItems: [{ type: string }], unevaluatedItems: false }
        at: { $ref: "#/types/Point" }
    errors: [NOT_FOUND]
  read_contains:
    summary: Arrays with contains, minContains and maxContains.
    http: { method: GET, path: /contains }
    effects: { kind: read }
    input: { type: object, additionalProperties: false, properties: {} }
    output:
      type: object
      required: [none_pinned, two_numbers, one_flag]
      additionalProperties: false
      properties:
        none_pinned: { type: array, items: { type: string }, contains: { const: pinned }, minContains: 0 }
        two_numbers: { type: array, contains: { type: integer }, minContains: 2, maxContains: 3 }
        one_flag: { type: array, items: { type: string }, contains: { const: flag }, maxContains: 1 }
    errors: [NOT_FOUND]
  read_objects:
    summary: Objects with dependent, unevaluated, name and pattern keywords.
    http: { method: GET, path: /objects }
    effects: { kind: read }
    input: { type: object, additionalProperties: false, properties: {} }
    output:
      type: object
      required: [payment, merged, labels]
      additionalProperties: false
      properties:
        payment:
          type: object
          properties:
            card: { type: string }
            billing_address: { type: string }
            cvc_checked: { type: boolean }
          dependentRequired: { card: [billing_address] }
          dependentSchemas: { card: { required: [cvc_checked], properties: { cvc_checked: { const: true } } } }
        merged:
          type: object
          allOf: [{ properties: { a: { type: string } } }]
          properties: { b: { type: integer } }
          unevaluatedProperties: false
        labels:
          type: object
          propertyNames: { pattern: "^[a-z_]+$", maxLength: 20 }
          patternProperties: { "^x_": { type: integer } }
          additionalProperties: { type: string }
    errors: [NOT_FOUND]
  read_scalars:
    summary: Conditionals, constants, bounds, nulls and formats.
    http: { method: GET, path: /scalars }
    effects: { kind: read }
    input: { type: object, additionalProperties: false, properties: {} }
    output:
      type: object
      required: [method, version, ratio, note, when, id, site, tree]
      additionalProperties: false
      properties:
        method:
          type: object
          required: [kind]
          properties:
            kind: { enum: [card, bank] }
            last4: { type: string, pattern: "^[0-9]{4}$" }
            iban: { type: string }
          if: { properties: { kind: { const: card } } }
          then: { required: [last4] }
          else: { required: [iban] }
        version: { const: 2 }
        ratio: { type: number, exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 }
        note: { type: [string, "null"], maxLength: 10 }
        when: { type: string, format: date-time }
        id: { type: string, format: uuid }
        site: { type: string, format: uri }
        tree: { $ref: "#/types/Node" }
    errors: [NOT_FOUND]
  read_bounded_contains:
    summary: contains with minContains 0 and maxContains.
    http: { method: GET, path: /bounded-contains }
    effects: { kind: read }
    input: { type: object, additionalProperties: false, properties: {} }
    output:
      type: object
      required: [at_most_one_pinned]
      additionalProperties: false
      properties:
        at_most_one_pinned: { type: array, items: { type: string }, contains: { const: pinned }, minContains: 0, maxContains: 1 }
    errors: [NOT_FOUND]
  read_tuple_choice:
    summary: One of two tuples, told apart by their first item.
    http: { method: GET, path: /tuple-choice }
    effects: { kind: read }
    input: { type: object, additionalProperties: false, properties: {} }
    output:
      type: object
      required: [shape]
      additionalProperties: false
      properties:
        shape:
          oneOf:
            - { type: array, prefixItems: [{ const: point }, { type: number }], items: false }
            - { type: array, prefixItems: [{ const: line }, { type: number }], items: false }
    errors: [NOT_FOUND]
  read_closed_choice:
    summary: One of two closed objects, closed with unevaluatedProperties.
    http: { method: GET, path: /closed-choice }
    effects: { kind: read }
    input: { type: object, additionalProperties: false, properties: {} }
    output:
      type: object
      required: [item]
      additionalProperties: false
      properties:
        item:
          oneOf:
            - { type: object, properties: { a: { type: string } }, unevaluatedProperties: false }
            - { type: object, properties: { b: { type: string } }, unevaluatedProperties: false }
    errors: [NOT_FOUND]
  read_conditional_tuple:
    summary: A condition on a tuple's first item.
    http: { method: GET, path: /conditional-tuple }
    effects: { kind: read }
    input: { type: object, additionalProperties: false, properties: {} }
    output:
      type: object
      required: [pair]
      additionalProperties: false
      properties:
        pair: { type: array, prefixItems: [{ type: string }, { type: integer }], items: false }
        unit: { type: string }
      if: { properties: { pair: { prefixItems: [{ const: length }] } } }
      then: { required: [unit] }
    errors: [NOT_FOUND]
  read_excluded_tuple:
    summary: A pair that is not a zero pair.
    http: { method: GET, path: /excluded-tuple }
    effects: { kind: read }
    input: { type: object, additionalProperties: false, properties: {} }
    output:
      type: object
      required: [pair]
      additionalProperties: false
      properties:
        pair:
          type: array
          prefixItems: [{ type: integer }, { type: integer }]
          items: false
          not: { prefixItems: [{ const: 0 }] }
    errors: [NOT_FOUND]
  read_unverified_contact:
    summary: A contact whose email is not verified yet, said with not and dependentRequired.
    http: { method: GET, path: /unverified-contact }
    effects: { kind: read }
    input: { type: object, additionalProperties: false, properties: {} }
    output:
      type: object
      required: [contact]
      additionalProperties: false
      properties:
        contact:
          type: object
          required: [email]
          properties: { email: { type: string }, verified: { type: boolean } }
          not: { dependentRequired: { email: [verified] } }
    errors: [NOT_FOUND]
`;

/** What the fake platform answers, by path: each valid against its operation's output in 2020-12. */
const RESULTS: Readonly<Record<string, Json>> = {
  "/tuples": { closed: ["a", 1], short: ["a"], rest: ["id", 1, 2], rest_only_prefix: ["id"], unevaluated_rest: ["x", 3], unevaluated_closed: ["y"], at: [1.5, -2] },
  // No "pinned" at all (minContains 0); two integers among other items; one "flag" (maxContains 1).
  "/contains": { none_pinned: ["a", "b"], two_numbers: ["x", 1, 2], one_flag: ["flag", "other"] },
  "/objects": { payment: { card: "4242", billing_address: "1 Main St", cvc_checked: true }, merged: { a: "x", b: 1 }, labels: { x_count: 3, name: "shelf" } },
  "/scalars": {
    method: { kind: "bank", iban: "DE89370400440532013000" },
    version: 2,
    ratio: 0.75,
    note: null,
    when: "2026-01-01T00:00:00Z",
    id: "5b0c6d2e-4f1a-4b3c-9d8e-7f6a5b4c3d2e",
    site: "https://example.com/shelf",
    tree: { name: "root", children: [{ name: "leaf", children: [] }] },
  },
  // Below: keyword uses in positions where draft-07 reading them weaker makes a schema stricter.
  "/bounded-contains": { at_most_one_pinned: ["a"] },
  "/tuple-choice": { shape: ["point", 1] },
  "/closed-choice": { item: { a: "x" } },
  "/conditional-tuple": { pair: ["count", 3] },
  "/excluded-tuple": { pair: [1, 0] },
  "/unverified-contact": { contact: { email: "ada@example.com" } },
};

/** A fetch that answers each GET with RESULTS[path]. */
const fakePlatform: typeof fetch = async (input) => {
  const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
  const body = RESULTS[url.pathname];
  if (body === undefined) return new Response(JSON.stringify({ code: "NOT_FOUND", message: `no ${url.pathname}` }), { status: 404, headers: { "content-type": "application/json" } });
  return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
};

function keywordsModel(): ContractModel {
  const r = parseContractText("keywords.yaml", KEYWORDS);
  if (!r.model) throw new Error(r.diagnostics.map((d) => `${d.code}: ${d.message}`).join("\n"));
  expect(r.diagnostics.filter((d) => d.severity !== "info").map((d) => `${d.code}: ${d.message}`)).toEqual([]);
  return r.model;
}

/**
 * The generated package of `model`, in a temporary folder, its TypeScript transpiled file by file
 * (no type check: the checked-in examples are type-checked by the global setup; this only needs to
 * run), with the repository's dependencies.
 */
async function buildPackage(model: ContractModel, dir: string): Promise<string> {
  const files = await emitPackage(model);
  for (const [path, content] of files) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    if (path.endsWith(".ts") && !path.endsWith(".d.ts")) {
      const js = ts.transpileModule(content, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, verbatimModuleSyntax: false }, fileName: path }).outputText;
      writeFileSync(target.replace(/\.ts$/, ".js"), js);
    } else writeFileSync(target, content);
  }
  symlinkSync(resolve("node_modules"), join(dir, "node_modules"), "dir");
  return join(dir, "mcp/server.js");
}

describe("2020-12 keywords in output schemas, through the official client with its default settings", () => {
  const dir = mkdtempSync(join(tmpdir(), "official-client-"));
  let model: ContractModel;
  let client: Client;
  let server: { connect(t: unknown): Promise<void>; close(): Promise<void> };
  let tools: Tool[];
  let calls: Call[];
  beforeAll(async () => {
    model = keywordsModel();
    const mod = (await import(await buildPackage(model, dir))) as ServerModule;
    server = mod.createServer({ fetch: fakePlatform, journal: false });
    client = await defaultClient(server);
    const run = await callEveryTool(client, {});
    tools = (await client.listTools()).tools;
    calls = run.calls;
    expect(run.listed.sort()).toEqual(model.operations.map((op) => op.names.tool).sort());
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ajv2020 = new Ajv2020({ strict: false });
  (addFormatsM as unknown as { default: (a: Ajv2020) => void }).default(ajv2020);
  const sdkDefault = new AjvJsonSchemaValidator();
  const opOf = (tool: string) => model.operations.find((op) => op.names.tool === tool)!;
  const resultOf = (tool: string) => RESULTS[(opOf(tool).http as { path: string }).path]!;

  it("every tool is called once, and the fake platform's results are valid in 2020-12 against the contract's output", () => {
    expect(calls.map((c) => c.tool).sort()).toEqual(tools.map((t) => t.name).sort());
    for (const t of tools) {
      const contract = servedOutputSchema(model, opOf(t.name))!;
      expect(ajv2020.validate(contract, resultOf(t.name)), `${t.name}: ${ajv2020.errorsText()}`).toBe(true);
    }
  });

  const TOOLS = () => parseContractText("keywords.yaml", KEYWORDS).model!.operations.map((op) => op.names.tool);
  for (const name of TOOLS()) {
    it(`${name}: the default client accepts the result; the SDK's default validator accepts it against the served outputSchema`, () => {
      const call = calls.find((c) => c.tool === name)!;
      expect(problems([call])).toEqual([]);
      expect(call.result!.structuredContent).toEqual(resultOf(name));
      const tool = tools.find((t) => t.name === name)!;
      expect(tool.outputSchema).toBeDefined();
      const verdict = sdkDefault.getValidator(tool.outputSchema as never)(resultOf(name));
      expect(verdict.errorMessage, JSON.stringify(tool.outputSchema)).toBeUndefined();
      expect(verdict.valid).toBe(true);
      // The served schema still means the contract's schema to a 2020-12 reader: it accepts the result.
      expect(ajv2020.validate(tool.outputSchema as object, resultOf(name)), ajv2020.errorsText()).toBe(true);
    });
  }

  it("the results exercise the keywords: the contract's output schemas as written would be refused by the default validator", () => {
    const refusedRaw = tools.filter((t) => !sdkDefault.getValidator(servedOutputSchema(model, opOf(t.name)) as never)(resultOf(t.name)).valid).map((t) => t.name);
    expect(refusedRaw).toEqual(expect.arrayContaining(["read_tuples", "read_contains"]));
  });
});
