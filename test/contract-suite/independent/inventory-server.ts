/**
 * The inventory API of inventory.openapi.yaml, written by its own team from that document, without
 * contractgen: plain node:http, a store of its own, async handlers that await between reading and
 * writing. Its conventions are the team's, not contractgen's wire protocol:
 * - errors are RFC 9457 problems with the team's `code` member, and name the parameter at fault as it
 *   travels (`invalid_params[0].name`: the header `If-Match`, the query key `updated[from]`, the body
 *   property `delta`);
 * - the credential is an `X-Api-Key` header; keys and ETags travel as `Idempotency-Key` and `If-Match`;
 * - `tags` is a form array without explode (`tags=a,b`), `updated` a deepObject (`updated[from]=…`);
 * - its own check order: everything sent is validated first (a malformed If-Match is a bad request,
 *   not a stale one); a spent reservation is looked up before the confirm token, so reusing a spent
 *   token answers not found.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Item {
  sku: string;
  name: string;
  quantity: number;
  reserved: number;
  tags: string[];
  updated_on: string;
  /** Goes up on every change; the ETag is derived from it. */
  version: number;
}

export interface Reservation {
  id: string;
  sku: string;
  quantity: number;
  order: string;
}

export const SEED_ITEMS: readonly Item[] = [
  { sku: "BLT-0001", name: "Hex bolt M6", quantity: 500, reserved: 20, tags: ["hardware", "bolts"], updated_on: "2026-03-02", version: 1 },
  { sku: "BLT-0002", name: "Hex bolt M8", quantity: 300, reserved: 0, tags: ["hardware", "bolts"], updated_on: "2026-03-10", version: 1 },
  { sku: "GLV-0001", name: "Work gloves", quantity: 40, reserved: 5, tags: ["safety", "apparel"], updated_on: "2026-03-15", version: 1 },
  { sku: "HLM-0001", name: "Safety helmet", quantity: 12, reserved: 0, tags: ["safety"], updated_on: "2026-02-01", version: 1 },
  { sku: "NUT-0001", name: "Nut M6", quantity: 800, reserved: 0, tags: ["hardware", "nuts"], updated_on: "2026-02-14", version: 1 },
  { sku: "TPE-0001", name: "Duct tape", quantity: 0, reserved: 0, tags: ["consumables"], updated_on: "2026-03-01", version: 1 },
  { sku: "WSH-0001", name: "Washer M6", quantity: 1000, reserved: 0, tags: ["hardware"], updated_on: "2026-01-20", version: 1 },
];

export const SEED_RESERVATIONS: readonly Reservation[] = [
  { id: "res_a1b2c3", sku: "BLT-0001", quantity: 20, order: "ord-1001" },
  { id: "res_d4e5f6", sku: "GLV-0001", quantity: 5, order: "ord-1002" },
];

/** An item's ETag: what If-Match must carry. */
export function etagOf(sku: string, version: number): string {
  return `r${createHash("sha256").update(`${sku}:${version}`).digest("hex").slice(0, 8)}`;
}

const SKU = /^[A-Z]{3}-[0-9]{4}$/;
const RESERVATION_ID = /^res_[0-9a-z]{6}$/;
const ORDER = /^ord-[0-9]{4,}$/;
const TAG = /^[a-z0-9-]+$/;
const ETAG = /^r[0-9a-f]{8}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const REASONS = ["count", "damage", "return", "restock"];
const TOKEN_TTL_MS = 5 * 60_000;

/** A problem (RFC 9457) with the team's code and, where one is at fault, the parameter as sent. */
class Problem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    detail: string,
    readonly param: string | null = null,
  ) {
    super(detail);
  }
}

const badRequest = (param: string, reason: string): Problem => new Problem(400, "bad_request", "Bad request", `${param}: ${reason}`, param);
const itemNotFound = (sku: string): Problem => new Problem(404, "item_not_found", "Item not found", `No item ${sku}.`, "sku");
const reservationNotFound = (id: string): Problem => new Problem(404, "reservation_not_found", "Reservation not found", `No reservation ${id}.`, "reservation_id");
const confirmationInvalid = (why: string): Problem => new Problem(409, "confirmation_invalid", "Confirmation invalid", `No valid confirm token (${why}); preview again.`);
const keyReused = (): Problem => new Problem(409, "idempotency_key_reused", "Idempotency key reused", "This Idempotency-Key was used with other parameters.", "Idempotency-Key");
const insufficient = (sku: string): Problem => new Problem(409, "insufficient_stock", "Insufficient stock", `Not enough stock of ${sku}.`);

interface Answer {
  status: number;
  body: unknown;
  replayed?: boolean;
}

/** One lock per name: callers of one name run one after another. */
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

/** A storage round trip. */
const pause = (): Promise<void> => new Promise((r) => setTimeout(r, 1));

function sorted(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sorted).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${sorted(o[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
const fingerprint = (what: string, params: Record<string, unknown>): string => createHash("sha256").update(`${what}\n${sorted(params)}`).digest("hex");

// --- reading a request, by hand ---------------------------------------------------------------------

function validDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

function integer(value: unknown, param: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value)) throw badRequest(param, "must be an integer");
  if (value < min || value > max) throw badRequest(param, `must be between ${min} and ${max}`);
  return value;
}

function queryInteger(query: URLSearchParams, param: string, min: number, max: number): number | undefined {
  const all = query.getAll(param);
  if (all.length === 0) return undefined;
  if (all.length > 1 || !/^-?\d+$/.test(all[0]!)) throw badRequest(param, "must be one integer");
  return integer(Number(all[0]), param, min, max);
}

function queryFlag(query: URLSearchParams, param: string): boolean | undefined {
  const all = query.getAll(param);
  if (all.length === 0) return undefined;
  if (all.length > 1 || (all[0] !== "true" && all[0] !== "false")) throw badRequest(param, "must be true or false");
  return all[0] === "true";
}

function queryText(query: URLSearchParams, param: string, minLength = 0): string | undefined {
  const all = query.getAll(param);
  if (all.length === 0) return undefined;
  if (all.length > 1) throw badRequest(param, "given twice");
  if (all[0]!.length < minLength) throw badRequest(param, `must be at least ${minLength} characters`);
  return all[0];
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(",") : v;
}

/** The Idempotency-Key, when given: a UUID. */
function idempotencyKey(req: IncomingMessage): string | undefined {
  const key = header(req, "Idempotency-Key");
  if (key !== undefined && !UUID.test(key)) throw badRequest("Idempotency-Key", "must be a UUID");
  return key;
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest("body", "is not JSON");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw badRequest("body", "must be a JSON object");
  return parsed as Record<string, unknown>;
}

// --- the server -------------------------------------------------------------------------------------

export interface InventoryServer {
  readonly url: string;
  reset(options?: { dataset?: "default" | "empty" | "mixed" }): void;
  snapshot(): { items: Item[]; reservations: Reservation[] };
  advance(ms: number): void;
  close(): Promise<void>;
}

/**
 * Defects on purpose, to show the suite sees them where this API's conventions hide them:
 * "code-by-status" answers every problem with the generic code `error`, so only its status still
 * matches a declared error (the suite's check of the code member must catch it); "window-end-exclusive"
 * leaves out the items changed on the `updated[to]` day, although the window includes both ends
 * (the check of the filters' meaning must catch it).
 */
export type InventoryDefect = "code-by-status" | "window-end-exclusive";

interface TokenRecord {
  readonly fingerprint: string;
  readonly expiresAt: number;
  used: boolean;
}

export async function startInventoryServer(options: { apiKey: string; port?: number; defect?: InventoryDefect }): Promise<InventoryServer> {
  const { apiKey, port = 0, defect } = options;
  let items = new Map<string, Item>();
  let reservations = new Map<string, Reservation>();
  let tokens = new Map<string, TokenRecord>();
  let keys = new Map<string, { fingerprint: string; answer: Answer }>();
  let offsetMs = 0;
  const keyLocks = new Locks();
  const itemLocks = new Locks();
  const now = (): number => Date.now() + offsetMs;
  const today = (): string => new Date(now()).toISOString().slice(0, 10);

  function reset(options: { dataset?: "default" | "empty" | "mixed" } = {}): void {
    const empty = options.dataset === "empty";
    items = new Map((empty ? [] : SEED_ITEMS).map((i) => [i.sku, { ...i, tags: [...i.tags] }]));
    reservations = new Map((empty ? [] : SEED_RESERVATIONS).map((r) => [r.id, { ...r }]));
    tokens = new Map();
    keys = new Map();
    offsetMs = 0;
  }
  reset();

  const shown = (i: Item) => ({ sku: i.sku, name: i.name, quantity: i.quantity, reserved: i.reserved, tags: [...i.tags], updated_on: i.updated_on, etag: etagOf(i.sku, i.version) });

  async function findItem(sku: string): Promise<Item> {
    await pause();
    const item = items.get(sku);
    if (!item) throw itemNotFound(sku);
    return item;
  }

  async function findReservation(id: string): Promise<Reservation> {
    await pause();
    const r = reservations.get(id);
    if (!r) throw reservationNotFound(id);
    return r;
  }

  function issueToken(print: string): { confirm_token: string; expires_at: string } {
    const token = randomBytes(18).toString("base64url");
    const expiresAt = now() + TOKEN_TTL_MS;
    tokens.set(token, { fingerprint: print, expiresAt, used: false });
    return { confirm_token: token, expires_at: new Date(expiresAt).toISOString() };
  }

  function redeem(print: string, token: string | undefined): TokenRecord {
    if (token === undefined) throw confirmationInvalid("none given");
    const t = tokens.get(token);
    if (!t) throw confirmationInvalid("unknown");
    if (t.fingerprint !== print) throw confirmationInvalid("issued for other parameters");
    if (t.expiresAt <= now()) throw confirmationInvalid("expired");
    if (t.used) throw confirmationInvalid("already used");
    return t;
  }

  /** Run `execute` once per (operation, key): the same key and parameters replay its answer; other parameters are refused. */
  async function once(operation: string, key: string | undefined, print: string, execute: () => Promise<Answer>): Promise<Answer> {
    if (key === undefined) throw badRequest("Idempotency-Key", "is required to execute");
    return keyLocks.with(`${operation} ${key}`, async () => {
      const recorded = keys.get(`${operation} ${key}`);
      if (recorded) {
        if (recorded.fingerprint !== print) throw keyReused();
        return { ...recorded.answer, replayed: true };
      }
      const answer = await execute();
      keys.set(`${operation} ${key}`, { fingerprint: print, answer });
      return answer;
    });
  }

  async function listItems(query: URLSearchParams): Promise<Answer> {
    const tagsSent = query.getAll("tags");
    if (tagsSent.length > 1) throw badRequest("tags", "give the tags once, comma-separated");
    const tags = tagsSent.length === 0 ? [] : tagsSent[0] === "" ? [] : tagsSent[0]!.split(",");
    if (tags.length > 5) throw badRequest("tags", "at most 5 tags");
    for (const t of tags) if (!TAG.test(t) || t.length > 32) throw badRequest("tags", `${JSON.stringify(t)} is not a tag`);
    const window: { from?: string; to?: string } = {};
    for (const [k, v] of query) {
      const m = /^updated\[([^\]]*)\]$/.exec(k);
      if (!m) continue;
      if (m[1] !== "from" && m[1] !== "to") throw badRequest(k, "the window has from and to only");
      if (!validDate(v)) throw badRequest(k, "must be a date (YYYY-MM-DD)");
      window[m[1]] = v;
    }
    const limit = queryInteger(query, "limit", 1, 50) ?? 20;
    const filters = sorted({ tags: [...tags].sort(), from: window.from ?? null, to: window.to ?? null });
    let after = "";
    const cursor = queryText(query, "cursor");
    if (cursor !== undefined) {
      let c: { after?: unknown; filters?: unknown } | null = null;
      try {
        c = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { after?: unknown; filters?: unknown };
      } catch {
        c = null;
      }
      if (c === null || typeof c.after !== "string" || c.filters !== filters) throw badRequest("cursor", "not a cursor of this listing");
      after = c.after;
    }
    await pause();
    const matching = [...items.values()]
      .filter((i) => tags.every((t) => i.tags.includes(t)))
      // The seeded defect window-end-exclusive drops the window's last day.
      .filter((i) => (window.from === undefined || i.updated_on >= window.from) && (window.to === undefined || (defect === "window-end-exclusive" ? i.updated_on < window.to : i.updated_on <= window.to)))
      .sort((a, b) => (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0));
    const rest = matching.filter((i) => i.sku > after);
    const page = rest.slice(0, limit);
    const next = rest.length > limit ? Buffer.from(JSON.stringify({ after: page[page.length - 1]!.sku, filters })).toString("base64url") : null;
    return { status: 200, body: { items: page.map(shown), next_cursor: next, total: matching.length } };
  }

  async function adjustStock(req: IncomingMessage, sku: string, query: URLSearchParams): Promise<Answer> {
    const body = await jsonBody(req);
    const delta = integer(body.delta, "delta", -1000, 1000);
    if (typeof body.reason !== "string" || !REASONS.includes(body.reason)) throw badRequest("reason", `must be one of ${REASONS.join(", ")}`);
    const reason = body.reason;
    const ifMatch = header(req, "If-Match");
    if (ifMatch === undefined) throw badRequest("If-Match", "is required: send the ETag you read");
    if (!ETAG.test(ifMatch)) throw badRequest("If-Match", "is not an ETag of this API (r followed by 8 hex digits)");
    const key = idempotencyKey(req);
    const dryRun = queryFlag(query, "dry_run") ?? true;
    const token = queryText(query, "confirm_token", 8);
    const print = fingerprint("adjust", { sku, ifMatch, delta, reason });
    const unchanged = (item: Item): void => {
      if (etagOf(item.sku, item.version) !== ifMatch) throw new Problem(412, "stock_changed", "Stock changed", `${sku} changed since ${ifMatch}.`, "If-Match");
    };
    const quantityAfter = (item: Item): number => {
      if (item.quantity + delta < item.reserved) throw insufficient(sku);
      return item.quantity + delta;
    };
    if (dryRun) {
      const item = await findItem(sku);
      unchanged(item);
      return { status: 200, body: { sku, quantity: quantityAfter(item), ...issueToken(print) } };
    }
    return once("adjust", key, print, () =>
      itemLocks.with(sku, async () => {
        const item = await findItem(sku);
        unchanged(item);
        const redeemed = redeem(print, token);
        const after = quantityAfter(item);
        await pause();
        item.quantity = after;
        item.version += 1;
        item.updated_on = today();
        redeemed.used = true;
        return { status: 200, body: shown(item) };
      }),
    );
  }

  async function reserveStock(req: IncomingMessage, sku: string): Promise<Answer> {
    const body = await jsonBody(req);
    const quantity = integer(body.quantity, "quantity", 1, 100);
    if (typeof body.order !== "string" || !ORDER.test(body.order)) throw badRequest("order", "must look like ord-1234");
    const order = body.order;
    const key = idempotencyKey(req);
    return once("reserve", key, fingerprint("reserve", { sku, quantity, order }), () =>
      itemLocks.with(sku, async () => {
        const item = await findItem(sku);
        if (item.quantity - item.reserved < quantity) throw insufficient(sku);
        await pause();
        const reservation = { id: `res_${randomBytes(6).toString("hex").slice(0, 6)}`, sku, quantity, order };
        reservations.set(reservation.id, reservation);
        item.reserved += quantity;
        item.version += 1;
        item.updated_on = today();
        return { status: 201, body: { ...reservation } };
      }),
    );
  }

  async function releaseReservation(req: IncomingMessage, id: string, query: URLSearchParams): Promise<Answer> {
    const key = idempotencyKey(req);
    const dryRun = queryFlag(query, "dry_run") ?? true;
    const token = queryText(query, "confirm_token", 8);
    const print = fingerprint("release", { id });
    if (dryRun) {
      const r = await findReservation(id);
      return { status: 200, body: { reservation: { ...r }, released: false, ...issueToken(print) } };
    }
    return once("release", key, print, async () => {
      // The reservation first: a released one is gone, whatever token comes with the request.
      const r = await findReservation(id);
      const redeemed = redeem(print, token);
      return itemLocks.with(r.sku, async () => {
        if (!reservations.has(id)) throw reservationNotFound(id);
        await pause();
        reservations.delete(id);
        const item = items.get(r.sku);
        if (item) {
          item.reserved -= r.quantity;
          item.version += 1;
          item.updated_on = today();
        }
        redeemed.used = true;
        return { status: 200, body: { reservation: { ...r }, released: true } };
      });
    });
  }

  async function route(req: IncomingMessage, url: URL): Promise<Answer> {
    if (header(req, "X-Api-Key") !== apiKey) throw new Problem(401, "unauthorized", "Unauthorized", "Send a valid X-Api-Key.");
    const method = req.method ?? "GET";
    const path = url.pathname;
    let m: RegExpExecArray | null;
    if (path === "/items" && method === "GET") return listItems(url.searchParams);
    if ((m = /^\/items\/([^/]+)(\/adjustments|\/reservations)?$/.exec(path))) {
      const sku = decodeURIComponent(m[1]!);
      if (!SKU.test(sku)) throw badRequest("sku", "must look like ABC-0001");
      if (m[2] === undefined && method === "GET") return { status: 200, body: shown(await findItem(sku)) };
      if (m[2] === "/adjustments" && method === "POST") return adjustStock(req, sku, url.searchParams);
      if (m[2] === "/reservations" && method === "POST") return reserveStock(req, sku);
    }
    if ((m = /^\/reservations\/([^/]+)$/.exec(path))) {
      const id = decodeURIComponent(m[1]!);
      if (!RESERVATION_ID.test(id)) throw badRequest("reservation_id", "must look like res_a1b2c3");
      if (method === "GET") return { status: 200, body: { ...(await findReservation(id)) } };
      if (method === "DELETE") return releaseReservation(req, id, url.searchParams);
    }
    throw new Problem(404, "not_found", "Not found", `No route ${method} ${path}.`);
  }

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let answer: Answer;
    let problem = false;
    try {
      answer = await route(req, new URL(req.url ?? "/", "http://localhost"));
    } catch (e) {
      const p = e instanceof Problem ? e : new Problem(500, "internal", "Internal error", "Something failed.");
      problem = true;
      answer = {
        status: p.status,
        body: {
          type: `https://inventory.example/problems/${p.code}`,
          title: p.title,
          status: p.status,
          detail: p.message,
          // The seeded defect code-by-status sends one generic code whatever went wrong.
          code: defect === "code-by-status" ? "error" : p.code,
          ...(p.param !== null ? { invalid_params: [{ name: p.param, reason: p.message }] } : {}),
        },
      };
    }
    const payload = JSON.stringify(answer.body);
    res.writeHead(answer.status, {
      "content-type": problem ? "application/problem+json" : "application/json",
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
    snapshot: () => ({
      items: [...items.values()].sort((a, b) => (a.sku < b.sku ? -1 : 1)).map((i) => ({ ...i, tags: [...i.tags] })),
      reservations: [...reservations.values()].sort((a, b) => (a.id < b.id ? -1 : 1)).map((r) => ({ ...r })),
    }),
    advance: (ms) => void (offsetMs += ms),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
