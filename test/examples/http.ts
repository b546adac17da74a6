/** Plain-fetch calls to an example platform, as an SDK would make them (docs/wire-protocol.md). */
import { randomUUID } from "node:crypto";
import { expect } from "vitest";

/** Response bodies are whatever JSON the platform sent; tests assert on their shape. */
// biome-ignore lint: JSON bodies are asserted field by field.
export type Json = any;

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Json;
}

export type QueryValue = string | number | boolean | readonly (string | number | boolean)[];

export interface CallOptions {
  readonly query?: Readonly<Record<string, QueryValue | undefined>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** Overrides the client's token; null sends no Authorization header. */
  readonly token?: string | null;
}

export type Call = (method: string, path: string, options?: CallOptions) => Promise<Reply>;

export function client(baseUrl: string, token: string | null): Call {
  return async (method, path, options = {}) => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) query.append(key, String(v));
    }
    const bearer = options.token === undefined ? token : options.token;
    const headers: Record<string, string> = { accept: "application/json", "x-request-id": randomUUID(), ...options.headers };
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    if (options.body !== undefined) headers["content-type"] = "application/json";
    const qs = query.toString();
    const response = await fetch(`${baseUrl}${path}${qs ? `?${qs}` : ""}`, {
      method,
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
  };
}

/** Assert the error envelope of the wire protocol and return its `error` object. */
export function expectError(reply: Reply, status: number, code: string, field: string | null = null): Json {
  expect({ status: reply.status, code: reply.body?.error?.code }).toEqual({ status, code });
  const error = reply.body.error;
  expect(Object.keys(reply.body)).toEqual(["error"]);
  expect(Object.keys(error).sort()).toEqual(["code", "details", "field", "message", "operationId", "outcome"]);
  expect(error.field).toBe(field);
  expect(error.outcome).toBe("rejected");
  expect(typeof error.message).toBe("string");
  expect(typeof error.operationId).toBe("string");
  return error;
}

/** A clock tests can move forward. */
export class TestClock {
  private ms: number;
  constructor(start = "2026-07-01T12:00:00.000Z") {
    this.ms = Date.parse(start);
  }
  readonly now = (): Date => new Date(this.ms);
  advance(ms: number): void {
    this.ms += ms;
  }
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
