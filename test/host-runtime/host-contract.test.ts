/**
 * A skeleton's host contract is read from the SDK (sdk/contract.ts, the operation table, the stored
 * schemas) instead of a data file of its own: loaded back, it says what the contract says, every
 * operation's facts and every input, output, preview and error-details schema (shared types inlined
 * on both sides), for contracts with shared and recursive types, previews, preconditions and keys.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { emitPackage } from "../../src/emit/index.js";
import { type HostContract, type HostOperation, loadHostContract } from "../../src/host-runtime/contract.js";
import { parseContract } from "../../src/contract/parse.js";
import type { AuthModel, ContractModel } from "../../src/model/types.js";
import type { ContractInfo } from "../../src/runtime/client.js";

const work = mkdtempSync(join(tmpdir(), "host-contract-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The schema with every local `#/$defs/` reference replaced by its definition (a cycle becomes a marker). */
function inlined(schema: unknown, root: unknown = schema, seen: readonly string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inlined(s, root, seen));
  if (schema === null || typeof schema !== "object") return schema;
  const node = schema as Record<string, unknown>;
  if (typeof node.$ref === "string" && node.$ref.startsWith("#/$defs/")) {
    const name = node.$ref.slice("#/$defs/".length);
    const target = ((root as Record<string, unknown>).$defs as Record<string, unknown>)[name] as Record<string, unknown>;
    // A type reaching itself: the same marker on both sides, whatever the def is called there.
    const key = JSON.stringify(Object.keys(target).sort()) + JSON.stringify(target.description ?? null) + JSON.stringify(target.type ?? null);
    if (seen.includes(key)) return { $cycle: key };
    const { $ref: _ref, ...rest } = node;
    return { ...(inlined(rest, root, seen) as object), $inlined: inlined(target, root, [...seen, key]) };
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) if (k !== "$defs") out[k] = inlined(v, root, seen);
  return out;
}

/**
 * The host's view of credentials: none, or a token it checks (the single forms keep their type; an
 * API key says the header it travels in). Several schemes are read as a bearer token.
 */
function hostAuth(auth: AuthModel): HostContract["transport"]["auth"] {
  if (auth.form === "schemes") return { type: auth.require.length === 0 ? "none" : "bearer" };
  const single = auth.schemes[0];
  return auth.form === "apiKey" && single?.type === "apiKey" && single.in === "header" ? { type: "apiKey", header: single.paramName } : { type: auth.form };
}

/** What the host must read of the contract, straight from the model (the expectation the loaded contract is held to). */
function hostContract(model: ContractModel): HostContract {
  const schema = (s: { schema: unknown }) => ({ schema: s.schema as HostOperation["input"]["schema"] });
  return {
    name: model.name,
    version: model.version,
    // The error format and wire values only when declared: the host's defaults are the envelope and the code.
    transport: {
      auth: hostAuth(model.transport.auth),
      ...(model.transport.errorFormat.style !== "envelope" ? { errorFormat: { ...model.transport.errorFormat } } : {}),
      baseUrl: model.transport.baseUrl,
    },
    errors: model.errors.map((e) => ({
      code: e.code,
      class: e.class,
      action: e.action,
      httpStatus: e.httpStatus,
      field: e.field,
      details: e.details ? schema(e.details) : null,
      ...(e.wire !== null ? { wire: e.wire } : {}),
    })),
    operations: model.operations.map((op) => ({
      names: { id: op.names.id },
      scopes: [...op.scopes],
      http: {
        method: op.http.method,
        path: op.http.path,
        bindings: op.http.bindings.map((b) => ({ field: b.field, in: b.in, name: b.name, ...(b.style !== undefined ? { style: b.style } : {}), ...(b.explode !== undefined ? { explode: b.explode } : {}) })),
        body: op.http.body,
        successStatus: op.http.successStatus,
      },
      effects: { kind: op.effects.kind },
      input: schema(op.input),
      output: schema(op.output),
      errors: op.errors.map((e) => ({ code: e.code })),
      idempotency: op.idempotency
        ? { keyField: op.idempotency.keyField, retentionMs: op.idempotency.retentionMs, scope: op.idempotency.scope, mismatchError: op.idempotency.mismatchError, keyRequired: op.idempotency.keyRequired }
        : null,
      preview: op.preview
        ? {
            dryRunField: op.preview.dryRunField,
            defaultDryRun: op.preview.defaultDryRun,
            confirmTokenField: op.preview.confirmTokenField,
            ttlMs: op.preview.ttlMs,
            output: op.preview.output ? schema(op.preview.output) : null,
            invalidTokenError: op.preview.invalidTokenError,
            singleUse: op.preview.singleUse,
          }
        : null,
      preconditions: op.preconditions.map((p) => ({ field: p.field, compares: p.compares, required: p.required, error: p.error })),
      pagination: op.pagination
        ? {
            cursorField: op.pagination.cursorField,
            nextCursorField: op.pagination.nextCursorField,
            itemsField: op.pagination.itemsField,
            limitField: op.pagination.limitField,
            limitDefault: op.pagination.limitDefault,
            limitMax: op.pagination.limitMax,
            totalField: op.pagination.totalField,
            partialField: op.pagination.partialField,
            errorsField: op.pagination.errorsField,
          }
        : null,
      projection: op.projection ? { field: op.projection.field, identity: [...op.projection.identity] } : null,
      task: op.task
        ? { recordsExaminedField: op.task.recordsExaminedField, completeField: op.task.completeField, continuationField: op.task.continuationField, answerField: op.task.answerField }
        : null,
    })),
  };
}

describe("host contract, read from the SDK", () => {
  for (const spec of ["specs/billing.v2.yaml", "specs/incidents.yaml", "test/fixtures/refs/main.yaml"]) {
    it(`${spec}: every fact and schema the host loads is the contract's`, async () => {
      const model = parseContract(spec).model;
      if (!model) return expect.fail(`${spec} did not parse`);
      const files = await emitPackage(model, { mcp: "skeleton" });
      const dir = join(work, model.name);
      for (const [path, text] of files) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      expect(files.has("mcp/contract.json")).toBe(false);
      const { CONTRACT } = (await import(pathToFileURL(join(dir, "sdk/contract.ts")).href)) as { CONTRACT: ContractInfo };
      const loaded = loadHostContract(CONTRACT, pathToFileURL(join(dir, "sdk/")));
      const expected = hostContract(model);
      expect(loaded.operations.map((op) => op.names.id)).toEqual(expected.operations.map((op) => op.names.id));
      loaded.operations.forEach((op, i) => {
        const want = expected.operations[i]!;
        expect(inlined(op.input.schema), `${op.names.id} input`).toEqual(inlined(want.input.schema));
        expect(inlined(op.output.schema), `${op.names.id} output`).toEqual(inlined(want.output.schema));
        expect(inlined(op.preview?.output?.schema ?? null), `${op.names.id} preview`).toEqual(inlined(want.preview?.output?.schema ?? null));
        expect({ ...op, input: null, output: null, preview: op.preview ? { ...op.preview, output: null } : null }).toEqual({ ...want, input: null, output: null, preview: want.preview ? { ...want.preview, output: null } : null });
      });
      expect(loaded.errors.map((e) => inlined(e.details?.schema ?? null))).toEqual(expected.errors.map((e) => inlined(e.details?.schema ?? null)));
      expect(loaded.errors.map((e) => ({ ...e, details: null }))).toEqual(expected.errors.map((e) => ({ ...e, details: null })));
      expect({ ...loaded, errors: null, operations: null }).toEqual({ ...expected, errors: null, operations: null });
    });
  }
});
