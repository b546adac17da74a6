/**
 * The request side of the HTTP binding (docs/wire-protocol.md, "Requests"): which operation a
 * method + path names, and how each input field is read back from its path segment, query key,
 * header or body property, typed as the input schema says (the runtime's decoder, wire-decode.ts).
 */
import type { FormPart } from "../../sdk/runtime/wire-decode.js";
import type { HostHttpOperation } from "./contract.js";

// The decoder is the runtime's (one module for the host and the contract tests).
export { decodeInput, type DecodedInput, type FormPart, type ReceivedRequest as EncodedRequest } from "../../sdk/runtime/wire-decode.js";

export interface Route<Op extends HostHttpOperation = HostHttpOperation> {
  readonly operation: Op;
  readonly method: string;
  readonly pattern: RegExp;
  /** Names of the `{…}` segments, in path order. */
  readonly params: readonly string[];
}

export type RouteMatch<Op extends HostHttpOperation = HostHttpOperation> =
  | { readonly kind: "matched"; readonly route: Route<Op>; readonly rawPathValues: Readonly<Record<string, string>> }
  | { readonly kind: "method_not_allowed"; readonly allowed: readonly string[] }
  | { readonly kind: "not_found" };

export function compileRoutes<Op extends HostHttpOperation>(operations: readonly Op[]): Array<Route<Op>> {
  const routes = operations.map((operation) => {
    const params: string[] = [];
    const source = operation.http.path
      .split(/(\{[^}]+\})/)
      .map((part) => {
        const param = /^\{([^}]+)\}$/.exec(part)?.[1];
        if (param === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
        params.push(param);
        return "([^/]+)";
      })
      .join("");
    return { operation, method: operation.http.method, pattern: new RegExp(`^${source}$`), params };
  });
  // A literal path wins over a template that would also match it.
  return routes.sort((a, b) => a.params.length - b.params.length);
}

/** `rawPath` is the path as sent (still percent-encoded), so an encoded "/" stays inside its segment. */
export function matchRoute<Op extends HostHttpOperation>(routes: ReadonlyArray<Route<Op>>, method: string, rawPath: string): RouteMatch<Op> {
  const allowed: string[] = [];
  for (const route of routes) {
    const match = route.pattern.exec(rawPath);
    if (!match) continue;
    if (route.method !== method) {
      allowed.push(route.method);
      continue;
    }
    // Keyed by contract names: no prototype, so a parameter called "constructor" is just a key.
    const rawPathValues = Object.create(null) as Record<string, string>;
    route.params.forEach((name, i) => (rawPathValues[name] = match[i + 1] ?? ""));
    return { kind: "matched", route, rawPathValues };
  }
  return allowed.length > 0 ? { kind: "method_not_allowed", allowed: [...new Set(allowed)].sort() } : { kind: "not_found" };
}

/**
 * The parts of a multipart/form-data body, parsed by the platform's own parser (undici's, behind
 * Response.formData): text parts as text, file parts as their bytes; null when the body is not
 * well-formed multipart (decoding then reports it).
 */
export async function parseMultipart(body: Buffer, contentType: string): Promise<FormPart[] | null> {
  try {
    const form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
    // forEach, not entries(): both the DOM's and Node's FormData types have it.
    const entries: Array<[string, string | Blob]> = [];
    form.forEach((value, name) => entries.push([name, value]));
    const parts: FormPart[] = [];
    for (const [name, value] of entries) {
      if (typeof value === "string") parts.push({ name, text: value });
      else parts.push({ name, bytes: Buffer.from(await value.arrayBuffer()), type: value.type });
    }
    return parts;
  } catch {
    return null;
  }
}
