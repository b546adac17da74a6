/**
 * A scene editor server for scenes.yaml, written the way someone outside this project would write it:
 * plain node:http, an in-memory Map, async handlers that await between reading and writing, and its
 * own confirm tokens and idempotency records. It uses nothing of contractgen (no host runtime, no
 * Ajv): each rule of the contract and of docs/wire-protocol.md is coded by hand.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Scene {
  id: string;
  name: string;
  act: number;
  /** Goes up by one on every change. */
  revision: number;
}

export const SEED_SCENES: readonly Scene[] = [
  { id: "scn_001", name: "Opening", act: 1, revision: 1 },
  { id: "scn_002", name: "The storm", act: 1, revision: 1 },
  { id: "scn_003", name: "Harbour at night", act: 2, revision: 1 },
  { id: "scn_004", name: "The letter", act: 2, revision: 1 },
  { id: "scn_005", name: "Chase", act: 2, revision: 1 },
  { id: "scn_006", name: "Reunion", act: 3, revision: 1 },
  { id: "scn_007", name: "Finale", act: 3, revision: 1 },
];

const SCENE_ID = /^scn_[a-z0-9]{3,}$/;
const TOKEN_TTL_MS = 5 * 60_000;
const LIMIT_MAX = 50;

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field: string | null = null,
    readonly details: unknown = null,
  ) {
    super(message);
  }
}

const invalid = (field: string, message: string): ApiError => new ApiError(400, "INVALID_FIELD", `${field}: ${message}`, field);
const notFound = (id: string): ApiError => new ApiError(404, "SCENE_NOT_FOUND", `No scene ${id}.`);
const confirmationRequired = (why: string): ApiError => new ApiError(409, "CONFIRMATION_REQUIRED", `No valid confirm token (${why}); preview again.`);

/** What a handler answers. */
interface Answer {
  status: number;
  body: unknown;
}

/** One lock per name: callers of the same name run one after another. */
class Locks {
  private readonly tails = new Map<string, Promise<void>>();
  async with<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(name) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = previous.then(() => mine);
    this.tails.set(name, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.tails.get(name) === tail) this.tails.delete(name);
    }
  }
}

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 2));

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const hashOf = (op: string, params: Record<string, unknown>): string => createHash("sha256").update(`${op}\n${canonical(params)}`).digest("hex");
const encode = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString("base64url");
function decode(field: string, text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as unknown;
    if (v !== null && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // falls through
  }
  throw invalid(field, "not a value this server issued");
}

// --- input checks, by hand --------------------------------------------------------------------------

function onlyFields(input: Record<string, unknown>, allowed: readonly string[]): void {
  for (const k of Object.keys(input)) if (!allowed.includes(k)) throw invalid(k, "unknown field");
}

function nameField(input: Record<string, unknown>, field: string, required: boolean): string | undefined {
  const v = input[field];
  if (v === undefined) {
    if (required) throw invalid(field, "required");
    return undefined;
  }
  if (typeof v !== "string") throw invalid(field, "must be a string");
  if (v.length < 1 || v.length > 120) throw invalid(field, "must be 1 to 120 characters");
  return v;
}

function sceneId(v: unknown): string {
  if (typeof v !== "string" || !SCENE_ID.test(v)) throw invalid("scene_id", "must look like scn_001");
  return v;
}

/** A query integer (the query carries text). */
function queryInt(input: Record<string, unknown>, field: string, min: number, max: number): number | undefined {
  const v = input[field];
  if (v === undefined) return undefined;
  const n = typeof v === "number" ? v : typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isInteger(n)) throw invalid(field, "must be an integer");
  if (n < min || n > max) throw invalid(field, `must be between ${min} and ${max}`);
  return n;
}

function optionalString(input: Record<string, unknown>, field: string): string | undefined {
  const v = input[field];
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw invalid(field, "must be a string");
  return v;
}

function optionalBoolean(input: Record<string, unknown>, field: string): boolean | undefined {
  const v = input[field];
  if (v === undefined) return undefined;
  if (typeof v !== "boolean") throw invalid(field, "must be true or false");
  return v;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// --- the server -----------------------------------------------------------------------------------------

export interface SceneServer {
  readonly url: string;
  reset(options?: { dataset?: "default" | "empty" | "mixed"; maxExaminedPerCall?: number }): void;
  scenes(): Scene[];
  advance(ms: number): void;
  close(): Promise<void>;
}

interface TokenRecord {
  readonly op: string;
  readonly hash: string;
  readonly expiresAt: number;
  /** The target as the preview saw it (convention tokens-bound-to-state). */
  readonly state: string;
  used: boolean;
}

interface KeyRecord {
  readonly hash: string;
  readonly answer: Answer;
}

/**
 * One defect on purpose, to show the suite sees it on an operation with a precondition:
 * "replays-changed-parameters" answers other parameters under a used key with the recorded outcome;
 * "rename-keeps-revision" renames a scene without advancing its revision.
 */
export type SceneDefect = "replays-changed-parameters" | "rename-keeps-revision";

/**
 * Choices another team could make, each within the contract and docs/wire-protocol.md, to show the
 * suite judges the promise, not one way of keeping it: "tokens-bound-to-state" refuses a confirm token
 * once its target changed since the preview (CONFIRMATION_REQUIRED); "token-expiry-before-key"
 * refuses an expired token before it looks the operation key up.
 */
export type SceneConvention = "tokens-bound-to-state" | "token-expiry-before-key";

export async function startSceneServer(options: { port?: number; defect?: SceneDefect; convention?: SceneConvention } = {}): Promise<SceneServer> {
  const { port = 0, defect, convention } = options;
  let store = new Map<string, Scene>();
  let tokens = new Map<string, TokenRecord>();
  let keys = new Map<string, KeyRecord>();
  let offsetMs = 0;
  let maxExamined = 1000;
  const keyLocks = new Locks();
  const sceneLocks = new Locks();
  const now = (): number => Date.now() + offsetMs;

  function reset(options: { dataset?: "default" | "empty" | "mixed"; maxExaminedPerCall?: number } = {}): void {
    store = new Map((options.dataset === "empty" ? [] : SEED_SCENES).map((s) => [s.id, { ...s }]));
    tokens = new Map();
    keys = new Map();
    offsetMs = 0;
    maxExamined = options.maxExaminedPerCall ?? 1000;
  }
  reset();

  async function read(id: string): Promise<Scene | undefined> {
    await tick();
    const s = store.get(id);
    return s ? { ...s } : undefined;
  }

  function issueToken(op: string, hash: string, state: string): string {
    const token = randomBytes(18).toString("base64url");
    tokens.set(token, { op, hash, expiresAt: now() + TOKEN_TTL_MS, state, used: false });
    return token;
  }

  /** The token authorises `op` with parameters `hash` on the target in `state`; returns it to be consumed on success. */
  function checkToken(op: string, hash: string, token: string | undefined, state: string): TokenRecord {
    if (token === undefined) throw confirmationRequired("missing");
    const t = tokens.get(token);
    if (!t || t.op !== op) throw confirmationRequired("unknown");
    if (t.hash !== hash) throw confirmationRequired("issued for other parameters");
    if (t.expiresAt <= now()) throw confirmationRequired("expired");
    if (t.used) throw confirmationRequired("used");
    if (convention === "tokens-bound-to-state" && t.state !== state) throw confirmationRequired("the scene changed since the preview");
    return t;
  }

  /**
   * A keyed, previewable mutation: a preview checks and issues a token; an execution needs the key,
   * replays or refuses a used key, then needs the token, then runs `execute`.
   */
  async function keyed(
    op: string,
    input: Record<string, unknown>,
    key: string | undefined,
    params: Record<string, unknown>,
    preview: () => Promise<Record<string, unknown>>,
    execute: () => Promise<Answer>,
    target: () => Promise<string>,
  ): Promise<Answer & { replayed?: boolean }> {
    const dryRun = optionalBoolean(input, "dry_run") ?? true;
    const token = optionalString(input, "confirm_token");
    const hash = hashOf(op, params);
    if (dryRun) {
      const body = await preview();
      return { status: 200, body: { ...body, confirm_token: issueToken(op, hash, await target()) } };
    }
    if (key === undefined) throw invalid("idempotency_key", "required to execute");
    if (!UUID.test(key)) throw invalid("idempotency_key", "must be a UUID");
    if (convention === "token-expiry-before-key" && token !== undefined && (tokens.get(token)?.expiresAt ?? Infinity) <= now()) throw confirmationRequired("expired");
    return keyLocks.with(`${op}:${key}`, async () => {
      const recorded = keys.get(`${op}:${key}`);
      if (recorded) {
        if (recorded.hash !== hash && defect !== "replays-changed-parameters") throw new ApiError(409, "IDEMPOTENCY_KEY_REUSED", "This operation key was used with other parameters.");
        return { ...recorded.answer, replayed: true };
      }
      const t = checkToken(op, hash, token, await target());
      const answer = await execute();
      t.used = true;
      keys.set(`${op}:${key}`, { hash, answer });
      return answer;
    });
  }

  async function handle(method: string, path: string, input: Record<string, unknown>, key: string | undefined): Promise<Answer & { replayed?: boolean }> {
    let m: RegExpMatchArray | null;
    if (method === "GET" && path === "/scenes") {
      onlyFields(input, ["act", "cursor", "limit"]);
      const act = queryInt(input, "act", 1, 5);
      const limit = queryInt(input, "limit", 1, LIMIT_MAX) ?? 10;
      const cursorText = optionalString(input, "cursor");
      let after = "";
      if (cursorText !== undefined) {
        const c = decode("cursor", cursorText);
        if (typeof c.after !== "string" || (c.act ?? null) !== (act ?? null)) throw invalid("cursor", "issued for other filters");
        after = c.after;
      }
      await tick();
      const matching = [...store.values()].filter((s) => act === undefined || s.act === act).sort((a, b) => a.id.localeCompare(b.id));
      const rest = matching.filter((s) => s.id > after);
      const page = rest.slice(0, limit);
      const next = rest.length > limit ? encode({ after: page[page.length - 1]!.id, act: act ?? null }) : null;
      return { status: 200, body: { scenes: page, next_cursor: next, total: matching.length } };
    }
    if (method === "GET" && path === "/scene-count") {
      onlyFields(input, ["act", "continuation"]);
      const act = queryInt(input, "act", 1, 5);
      const text = optionalString(input, "continuation");
      let offset = 0;
      let count = 0;
      if (text !== undefined) {
        const c = decode("continuation", text);
        if (typeof c.offset !== "number" || typeof c.count !== "number" || (c.act ?? null) !== (act ?? null)) throw invalid("continuation", "issued for other filters");
        offset = c.offset;
        count = c.count;
      }
      await tick();
      const all = [...store.values()].sort((a, b) => a.id.localeCompare(b.id));
      const slice = all.slice(offset, offset + maxExamined);
      count += slice.filter((s) => act === undefined || s.act === act).length;
      const examined = offset + slice.length;
      const complete = examined >= all.length;
      return { status: 200, body: { count, records_examined: examined, complete, continuation: complete ? null : encode({ offset: examined, count, act: act ?? null }) } };
    }
    if ((m = path.match(/^\/scenes\/([^/]+)$/)) && method === "GET") {
      onlyFields(input, []);
      const id = sceneId(decodeURIComponent(m[1]!));
      const scene = await read(id);
      if (!scene) throw notFound(id);
      return { status: 200, body: scene };
    }
    if ((m = path.match(/^\/scenes\/([^/]+)\/rename$/)) && method === "POST") {
      onlyFields(input, ["expected_name", "name", "dry_run", "confirm_token"]);
      const id = sceneId(decodeURIComponent(m[1]!));
      const expected = nameField(input, "expected_name", true)!;
      const name = nameField(input, "name", true)!;
      optionalBoolean(input, "dry_run");
      optionalString(input, "confirm_token");
      const current = async (): Promise<Scene> => {
        const scene = await read(id);
        if (!scene) throw notFound(id);
        if (scene.name !== expected) throw new ApiError(412, "NAME_CHANGED", `The scene is now called ${JSON.stringify(scene.name)}.`, "expected_name", { name: scene.name });
        return scene;
      };
      return keyed(
        "rename_scene",
        input,
        key,
        { scene_id: id, expected_name: expected, name },
        async () => ({ scene_id: id, from: (await current()).name, to: name }),
        () =>
          sceneLocks.with(id, async () => {
            const scene = await current();
            await tick();
            // The seeded defect rename-keeps-revision forgets to bump the revision.
            const renamed = { ...scene, name, revision: defect === "rename-keeps-revision" ? scene.revision : scene.revision + 1 };
            store.set(id, renamed);
            return { status: 200, body: renamed };
          }),
        async () => JSON.stringify((await read(id)) ?? null),
      );
    }
    if ((m = path.match(/^\/scenes\/([^/]+)$/)) && method === "DELETE") {
      onlyFields(input, ["dry_run", "confirm_token"]);
      // A DELETE has no body: its fields arrive in the query, as text.
      if (input.dry_run === "true" || input.dry_run === "false") input.dry_run = input.dry_run === "true";
      const id = sceneId(decodeURIComponent(m[1]!));
      optionalBoolean(input, "dry_run");
      optionalString(input, "confirm_token");
      const existing = async (): Promise<Scene> => {
        const scene = await read(id);
        if (!scene) throw notFound(id);
        return scene;
      };
      return keyed(
        "delete_scene",
        input,
        key,
        { scene_id: id },
        async () => ({ scene_id: id, name: (await existing()).name }),
        () =>
          sceneLocks.with(id, async () => {
            await existing();
            await tick();
            store.delete(id);
            return { status: 200, body: { scene_id: id, deleted: true } };
          }),
        async () => JSON.stringify((await read(id)) ?? null),
      );
    }
    throw new ApiError(404, "SCENE_NOT_FOUND", `No route ${method} ${path}.`);
  }

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = typeof req.headers["x-request-id"] === "string" ? req.headers["x-request-id"] : randomBytes(8).toString("hex");
    const keyHeader = req.headers["idempotency-key"];
    const key = typeof keyHeader === "string" ? keyHeader : undefined;
    let answer: Answer & { replayed?: boolean };
    try {
      const url = new URL(req.url ?? "/", "http://localhost");
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString("utf8");
      let input: Record<string, unknown> = {};
      if (text !== "") {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new ApiError(400, "INVALID_FIELD", "The body is not JSON.");
        }
        if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new ApiError(400, "INVALID_FIELD", "The body must be a JSON object.");
        input = parsed as Record<string, unknown>;
      }
      for (const [k, v] of url.searchParams) {
        if (Object.hasOwn(input, k)) throw invalid(k, "given twice");
        input[k] = v;
      }
      answer = await handle(req.method ?? "GET", url.pathname, input, key);
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError(500, "INTERNAL", String((e as Error)?.message ?? e));
      answer = {
        status: err.status,
        body: { error: { code: err.code, message: err.message, field: err.field, details: err.details, operationId: key ?? requestId, outcome: "rejected" } },
      };
    }
    const payload = JSON.stringify(answer.body);
    res.writeHead(answer.status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(payload),
      ...(answer.replayed ? { "idempotent-replayed": "true" } : {}),
    });
    res.end(payload);
  }

  const server: Server = createServer((req, res) => void serve(req, res));
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    reset,
    scenes: () => [...store.values()].sort((a, b) => a.id.localeCompare(b.id)).map((s) => ({ ...s })),
    advance: (ms) => void (offsetMs += ms),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
