import type { CheckContext } from "../contract/context.js";
import { pathParameters } from "../contract/checks/operations.js";
import { successStatuses } from "../contract/checks/http.js";
import { operationTarget } from "../contract/checks/references.js";
import type { RawContract, RawFilter, RawOperation } from "../contract/raw.js";
import { MODEL_SCHEMA_KEYWORDS } from "../contract/checks/schemas.js";
import { SchemaBundler } from "../contract/refs.js";
import { joinPointer, type SourceFile } from "../contract/source.js";
import type { SourceLocation } from "../diagnostics/diagnostic.js";
import { errorFormatOf } from "../runtime/wire-errors.js";
import { durationMs } from "./duration.js";
import { camelCase, kebabCase, operationTypeIdentifiers, pascalCase, typeIdentifier, webhookTypeIdentifier } from "./naming.js";
import type {
  AuthModel,
  AuthSchemeModel,
  ChangelogChangeKind,
  ContractModel,
  ErrorClass,
  ErrorModel,
  FieldBinding,
  FilterModel,
  HttpMethod,
  OperationErrorRef,
  OperationModel,
  OutcomeState,
  RecoveryAction,
  SchemaModel,
  TargetModel,
} from "./types.js";

const RETRYABLE_CLASSES: ReadonlySet<ErrorClass> = new Set(["transient", "rate_limited"]);

/**
 * Build the model from a document that passed every check. Applies defaults, derives names,
 * bindings and MCP annotations, bundles schemas, and freezes the result.
 */
export function buildModel(ctx: CheckContext): ContractModel {
  const { doc, file } = ctx;
  // Schemas keep only MODEL_SCHEMA_KEYWORDS at every depth: generators act on keywords of their own
  // (json-schema-to-typescript pastes `tsType` verbatim), so only standard JSON Schema and the
  // format's annotations may reach one; property names and data (enum, const, default, examples)
  // stay as written. One bundler for the whole model: a type many operations reach is copied once.
  const bundler = new SchemaBundler(ctx.ws, (keyword) => MODEL_SCHEMA_KEYWORDS.has(keyword));
  const schemaAt = (pointer: string): SchemaModel => ({
    schema: bundler.bundle(file, pointer) as SchemaModel["schema"],
    loc: file.locate(pointer),
  });

  const auth = buildAuth(doc, file);

  const errors: ErrorModel[] = Object.entries(doc.errors).map(([code, e]) => ({
    code,
    class: e.class as ErrorClass,
    action: e.action as RecoveryAction,
    httpStatus: e.http,
    description: e.description ?? "",
    since: e.since ?? null,
    retryable: RETRYABLE_CLASSES.has(e.class as ErrorClass),
    field: e.field ?? null,
    details: e.details !== undefined ? schemaAt(joinPointer("/errors", code, "details")) : null,
    wire: e.wire ?? null,
    loc: file.locate(joinPointer("/errors", code)),
  }));

  const model: ContractModel = {
    format: 1,
    name: doc.contract,
    version: doc.version,
    title: doc.title ?? doc.contract,
    description: doc.description ?? "",
    changelog: (doc.changelog ?? []).map((entry, i) => ({
      version: entry.version,
      date: entry.date,
      summary: entry.summary ?? "",
      changes: (entry.changes ?? []).map((c, j) => ({
        kind: c.kind as ChangelogChangeKind,
        target: c.target,
        description: c.description,
        loc: file.locate(`/changelog/${i}/changes/${j}`),
      })),
      loc: file.locate(`/changelog/${i}`),
    })),
    budget: {
      catalogTokens: doc.budget?.catalogTokens ?? null,
      maxTools: doc.budget?.maxTools ?? null,
      skill: {
        listingTokens: doc.budget?.skill?.listingTokens ?? null,
        bodyTokens: doc.budget?.skill?.bodyTokens ?? null,
        referenceTokens: doc.budget?.skill?.referenceTokens ?? null,
      },
      loc: file.locate("/budget"),
    },
    transport: {
      baseUrl: doc.transport.http.baseUrl,
      baseUrlEnv: doc.transport.http.baseUrlEnv ?? null,
      timeoutMs: durationMs(doc.transport.http.timeout ?? "30s") ?? 30_000,
      auth,
      errorFormat: errorFormatOf(doc.transport.http.errorFormat),
      loc: file.locate("/transport"),
    },
    toolsets: Object.entries(doc.toolsets ?? {}).map(([name, t]) => ({
      name,
      description: t.description,
      loc: file.locate(joinPointer("/toolsets", name)),
    })),
    types: Object.keys(doc.types ?? {}).map((name) => ({
      name,
      identifier: typeIdentifier(name),
      schema: schemaAt(joinPointer("/types", name)),
      loc: file.locateKey(joinPointer("/types", name)),
    })),
    errors,
    operations: Object.entries(doc.operations).map(([name, op]) => buildOperation(ctx, name, op, schemaAt)),
    webhooks: Object.entries(doc.webhooks ?? {}).map(([name, w]) => ({
      name,
      identifier: webhookTypeIdentifier(name),
      summary: w.summary,
      description: w.description ?? "",
      deprecated: w.deprecated === true,
      payload: schemaAt(joinPointer("/webhooks", name, "payload")),
      loc: file.locate(joinPointer("/webhooks", name)),
    })),
    extensions: Object.fromEntries(Object.entries(doc).filter(([k]) => k.startsWith("x-"))),
    files: ctx.ws.paths,
    loc: file.locate(""),
  };
  return deepFreeze(model);
}

function buildOperation(
  ctx: CheckContext,
  name: string,
  op: RawOperation,
  schemaAt: (pointer: string) => SchemaModel,
): OperationModel {
  const { file } = ctx;
  const at = ctx.operationPointer(name);
  const loc = (...segments: Array<string | number>) => file.locate(joinPointer(at, ...segments));
  const isRead = op.effects.kind === "read";
  const idempotent = isRead ? "natural" : op.effects.idempotent!;
  const destructive = !isRead && op.effects.destructive === true;
  const effects = {
    kind: op.effects.kind,
    idempotent,
    destructive,
    // Naming an inverse says the effect can be undone.
    reversible: op.effects.reversible ?? (op.effects.undo !== undefined || !destructive),
    openWorld: op.effects.openWorld ?? false,
    undo: op.effects.undo ?? null,
    inferred: op.effects.inferred === true,
    loc: loc("effects"),
  } as const;

  const inputFields = [...ctx.inputShape(name).properties.keys()];
  const pathParams = pathParameters(op.http.path);
  // A Map, not the raw object: an input field may be called "constructor" or "__proto__".
  const headerFor = new Map(Object.entries(op.http.headers ?? {}));
  const queryFields = new Set(op.http.query ?? []);
  const queryByDefault = op.http.method === "GET" || op.http.method === "DELETE";
  const statuses = successStatuses(op.http.successStatus);
  const cookieFor = new Map(Object.entries(op.http.cookies ?? {}));
  const paramsFor = new Map(Object.entries(op.http.params ?? {}));
  const encodingFor = new Map(Object.entries(op.http.encoding ?? {}));
  const contentType = op.http.contentType ?? "application/json";
  const inputProperties = ctx.inputShape(name).properties;
  /** The declared serialization of a field (only what is written: defaults stay implicit). */
  const declared = (settings: { style?: FieldBinding["style"]; explode?: boolean; allowReserved?: boolean; contentType?: string } | undefined) => ({
    ...(settings?.style !== undefined ? { style: settings.style } : {}),
    ...(settings?.explode !== undefined ? { explode: settings.explode } : {}),
    ...(settings?.allowReserved !== undefined ? { allowReserved: settings.allowReserved } : {}),
    ...(settings?.contentType !== undefined ? { contentType: settings.contentType } : {}),
  });
  const bodyBinding = (field: string): FieldBinding => {
    if (contentType === "application/json" || field === op.http.body) return { field, in: "body", name: field };
    const schema = inputProperties.get(field)?.value;
    const file = contentType === "multipart/form-data" && isFileSchema(schema);
    return { field, in: "body", name: field, ...declared(encodingFor.get(field)), ...(file ? { file: true as const } : {}) };
  };
  const bindings: FieldBinding[] = inputFields.map((field): FieldBinding => {
    if (pathParams.includes(field)) return { field, in: "path", name: field, ...declared(paramsFor.get(field)) };
    const header = headerFor.get(field);
    if (header !== undefined) return { field, in: "header", name: header, ...declared(paramsFor.get(field)) };
    const cookie = cookieFor.get(field);
    if (cookie !== undefined) return { field, in: "cookie", name: cookie, ...declared(paramsFor.get(field)) };
    if (field === op.http.body) return bodyBinding(field);
    if (queryFields.has(field) || queryByDefault) return { field, in: "query", name: field, ...declared(paramsFor.get(field)) };
    return bodyBinding(field);
  });

  // Behaviour errors are part of what the operation can raise, even when the author did not list them.
  const errorRefs: OperationErrorRef[] = (op.errors ?? []).map((code, i) => ({ code, loc: loc("errors", i) }));
  const addImplied = (code: string | undefined, ...segments: Array<string | number>) => {
    if (code !== undefined && !errorRefs.some((e) => e.code === code)) errorRefs.push({ code, loc: loc(...segments) });
  };
  addImplied(op.idempotency?.mismatchError, "idempotency", "mismatchError");
  addImplied(op.preview?.invalidTokenError, "preview", "invalidTokenError");
  (op.preconditions ?? []).forEach((p, i) => addImplied(p.error, "preconditions", i, "error"));

  const defaultStates: OutcomeState[] = isRead ? ["completed", "rejected"] : ["completed", "rejected", "unknown"];
  const page = op.pagination;

  return {
    names: {
      id: name,
      camel: camelCase(name),
      pascal: pascalCase(name),
      types: operationTypeIdentifiers(name, op.preview?.output !== undefined),
      kebab: op.cli?.name ?? kebabCase(name),
      tool: op.mcp?.name ?? name,
    },
    summary: op.summary.trim(),
    description: op.description?.trim() ?? "",
    toolset: op.toolset ?? null,
    scopes: op.scopes ?? [],
    auth: op.auth ?? null,
    deprecated: op.deprecated
      ? { since: op.deprecated.since, sunset: op.deprecated.sunset ?? null, replacement: op.deprecated.replacement ?? null, loc: loc("deprecated") }
      : null,
    stability: op.stability ?? null,
    http: {
      method: op.http.method as HttpMethod,
      path: op.http.path,
      pathParams,
      bindings,
      successStatus: statuses[0]!,
      successStatuses: statuses,
      body: op.http.body ?? null,
      contentType,
      bodyRequired: op.http.bodyRequired === true,
      accept: op.http.accept ?? null,
      alsoAccepts: op.http.alsoAccepts ?? [],
      alsoOffers: op.http.alsoOffers ?? [],
      loc: loc("http"),
    },
    effects,
    annotations: {
      readOnlyHint: isRead,
      destructiveHint: destructive,
      idempotentHint: idempotent !== "none",
      openWorldHint: effects.openWorld,
    },
    input: schemaAt(joinPointer(at, "input")),
    output: schemaAt(joinPointer(at, "output")),
    errors: errorRefs,
    idempotency: op.idempotency
      ? {
          keyField: op.idempotency.key,
          retention: op.idempotency.retention,
          retentionMs: durationMs(op.idempotency.retention)!,
          scope: op.idempotency.scope ?? "caller",
          mismatchError: op.idempotency.mismatchError ?? null,
          keyRequired: op.idempotency.keyRequired ?? true,
          loc: loc("idempotency"),
        }
      : null,
    preview: op.preview
      ? {
          dryRunField: op.preview.dryRun,
          defaultDryRun: op.preview.default ?? true,
          confirmTokenField: op.preview.confirmToken,
          ttl: op.preview.ttl,
          ttlMs: durationMs(op.preview.ttl)!,
          output: op.preview.output !== undefined ? schemaAt(joinPointer(at, "preview", "output")) : null,
          invalidTokenError: op.preview.invalidTokenError ?? null,
          singleUse: op.preview.singleUse ?? true,
          expiresAtField: op.preview.expiresAt ?? null,
          loc: loc("preview"),
        }
      : null,
    preconditions: (op.preconditions ?? []).map((p, i) => ({
      kind: p.kind,
      field: p.field,
      compares: p.compares ?? "revision",
      required: p.required ?? false,
      error: p.error,
      loc: loc("preconditions", i),
    })),
    target: modelTarget(ctx, name, op),
    outcomes: {
      states: op.outcomes?.states ?? defaultStates,
      pollWith: op.outcomes?.pollWith ?? null,
      partialField: op.outcomes?.partial?.field ?? null,
      loc: loc("outcomes"),
    },
    pagination: page
      ? {
          style: page.style ?? "cursor",
          cursorField: page.cursor ?? null,
          nextCursorField: page.nextCursor ?? null,
          nextLink: page.nextLink === undefined ? null : typeof page.nextLink === "string" ? { kind: "field", field: page.nextLink } : { kind: "header", header: "Link" },
          pageField: page.page ?? null,
          firstPage: page.firstPage ?? 1,
          offsetField: page.offset ?? null,
          itemsField: page.items ?? null,
          limitField: page.limit?.field ?? null,
          limitDefault: page.limit?.default ?? null,
          limitMax: page.limit?.max ?? limitMaximum(op.input, page.limit?.field),
          totalField: page.total ?? null,
          partialField: page.partial ?? null,
          errorsField: page.errors ?? null,
          loc: loc("pagination"),
        }
      : null,
    filters: (op.filters ?? []).map((f, i) => filterModel(f, loc("filters", i))),
    projection: op.projection
      ? { field: op.projection.field, selectable: op.projection.selectable, identity: op.projection.identity ?? [], loc: loc("projection") }
      : null,
    task: op.task
      ? {
          recordsExaminedField: op.task.recordsExamined,
          completeField: op.task.complete,
          continuationField: op.task.continuation ?? null,
          answerField: op.task.answer ?? null,
          loc: loc("task"),
        }
      : null,
    mcp: { exposed: op.mcp?.expose ?? true, title: op.mcp?.title ?? null },
    extensions: Object.fromEntries(Object.entries(op).filter(([k]) => k.startsWith("x-"))),
    loc: file.locateKey(at),
  };
}

const BUILT_IN_PROTOTYPES: ReadonlySet<unknown> = new Set([Object.prototype, Array.prototype, Function.prototype]);

function modelTarget(ctx: CheckContext, name: string, op: RawOperation): TargetModel | null {
  const target = operationTarget(ctx, name, op);
  if (!target) return null;
  const at = ctx.operationPointer(name);
  const loc = target.inferred ? ctx.file.locateKey(at) : ctx.file.locate(joinPointer(at, "target"));
  return target.kind === "type" ? { kind: "type", type: target.name, loc } : { kind: "read", operation: target.name, inferred: target.inferred, loc };
}

/** Freeze a plain object graph so no emitter or rule can modify the model it was given. */
export function deepFreeze<T>(value: T): T {
  // Never a built-in prototype: freezing one would break every later object of the process.
  if (value !== null && typeof value === "object" && !Object.isFrozen(value) && !BUILT_IN_PROTOTYPES.has(value)) {
    Object.freeze(value);
    // Own enumerable values, as Object.values gives them, without an array per object.
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
    else for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** The page-size bound written on the limit field itself (`maximum`), when the contract gives no `limit.max`. */
function limitMaximum(input: unknown, field: string | undefined): number | null {
  if (field === undefined || input === null || typeof input !== "object") return null;
  const properties = (input as { properties?: unknown }).properties;
  if (properties === null || typeof properties !== "object" || !Object.prototype.hasOwnProperty.call(properties, field)) return null;
  const max = ((properties as Record<string, unknown>)[field] as { maximum?: unknown } | null)?.maximum;
  return typeof max === "number" && Number.isInteger(max) && max >= 1 ? max : null;
}

/** A multipart field sent as a file: base64 text (`contentEncoding: base64`) or OpenAPI's `format: binary`. */
function isFileSchema(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return false;
  const s = schema as { contentEncoding?: unknown; format?: unknown };
  return s.contentEncoding === "base64" || s.format === "binary";
}

/**
 * The contract's credentials in the one shape emitters read: a single form is one scheme named after
 * its type (`bearer`, `apiKey` in a header), required; `none` (or no `auth`) is no scheme.
 */
function buildAuth(doc: RawContract, file: SourceFile): AuthModel {
  const raw = doc.transport.auth ?? { type: "none" as const };
  const loc = file.locate("/transport/auth");
  if ("schemes" in raw) {
    const schemes: AuthSchemeModel[] = Object.entries(raw.schemes).map(([name, s]) => {
      const at = file.locate(joinPointer("/transport/auth/schemes", name));
      if (s.type === "basic") return { name, type: "basic", usernameEnv: s.usernameEnv, passwordEnv: s.passwordEnv, loc: at };
      if (s.type === "apiKey") return { name, type: "apiKey", in: s.in, paramName: s.name, tokenEnv: s.tokenEnv, loc: at };
      return { name, type: "bearer", tokenEnv: s.tokenEnv, loc: at };
    });
    return { form: "schemes", schemes, require: raw.require, loc };
  }
  if (raw.type === "bearer") return { form: "bearer", schemes: [{ name: "bearer", type: "bearer", tokenEnv: raw.tokenEnv, loc }], require: [["bearer"]], loc };
  if (raw.type === "apiKey") return { form: "apiKey", schemes: [{ name: "apiKey", type: "apiKey", in: "header", paramName: raw.header, tokenEnv: raw.tokenEnv, loc }], require: [["apiKey"]], loc };
  return { form: "none", schemes: [], require: [], loc };
}

/** One representation for both spellings of a filter: a plain name has no known meaning. */
export function filterModel(filter: string | RawFilter, at: SourceLocation): FilterModel {
  if (typeof filter === "string") return { field: filter, property: null, match: null, bound: null, ends: null, loc: at };
  const range = filter.match === "range";
  // The default window is half-open: from inclusive, to exclusive. `inclusive` sets both ends of a
  // window, or the one end a single bound gives (the other keeps its default: it is never sent).
  const fromInclusive = filter.bound === "to" ? true : (filter.inclusive ?? true);
  const toInclusive = filter.bound === "from" ? false : (filter.inclusive ?? false);
  const ends = range ? { fromInclusive, toInclusive } : null;
  return { field: filter.field, property: filter.property, match: filter.match, bound: range ? (filter.bound ?? null) : null, ends, loc: at };
}
