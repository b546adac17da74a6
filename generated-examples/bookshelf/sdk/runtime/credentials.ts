/**
 * Credentials: which of the contract's schemes an operation needs, where their values come from
 * (the client's `credentials` option, its `token` option for a single-scheme contract, else the
 * environment variables the contract names) and what they add to a request: headers, query
 * parameters and cookies. Scheme names come from the contract: they are read from arrays and Maps,
 * never used as plain-object keys.
 */
import { credentialTooShort } from "./redact.js";

/** One credential scheme as the generated contract description carries it. */
export type AuthScheme =
  | { readonly name: string; readonly type: "bearer"; readonly tokenEnv: string }
  | { readonly name: string; readonly type: "basic"; readonly usernameEnv: string; readonly passwordEnv: string }
  | { readonly name: string; readonly type: "apiKey"; readonly in: "header" | "query" | "cookie"; readonly param: string; readonly tokenEnv: string };

/** Alternatives: the first whose schemes all have a credential is used; [] means none is sent. */
export type AuthAlternatives = readonly (readonly string[])[];

/** `ContractInfo.auth`: one of the single forms, or named schemes with the alternatives required. */
export type ContractAuth =
  | { readonly type: "none" }
  | { readonly type: "bearer"; readonly tokenEnv: string }
  | { readonly type: "apiKey"; readonly header: string; readonly tokenEnv: string }
  | { readonly type: "schemes"; readonly schemes: readonly AuthScheme[]; readonly require: AuthAlternatives };

/** A basic scheme's credential. */
export interface BasicCredential {
  readonly username: string;
  readonly password: string;
}

/** The `credentials` client option: scheme name → token (bearer, apiKey) or username and password (basic). */
export type CredentialValues = ReadonlyMap<string, string | BasicCredential> | Readonly<Record<string, string | BasicCredential>>;

/** Where the client finds credential values. */
export interface CredentialSources {
  readonly credentials?: CredentialValues;
  /** A single token: the credential of a contract with one bearer or apiKey scheme. */
  readonly token?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** What credentials add to one request. Header names are lower-case. */
export interface CredentialParts {
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly query: ReadonlyArray<readonly [string, string]>;
  readonly cookies: ReadonlyArray<readonly [string, string]>;
}

export const NO_CREDENTIALS: CredentialParts = { headers: [], query: [], cookies: [] };

/** The contract's schemes and required alternatives, whichever way the contract wrote them. */
export function authSchemes(auth: ContractAuth): { readonly schemes: readonly AuthScheme[]; readonly require: AuthAlternatives } {
  switch (auth.type) {
    case "none":
      return { schemes: [], require: [] };
    case "bearer":
      return { schemes: [{ name: "bearer", type: "bearer", tokenEnv: auth.tokenEnv }], require: [["bearer"]] };
    case "apiKey":
      return { schemes: [{ name: "apiKey", type: "apiKey", in: "header", param: auth.header, tokenEnv: auth.tokenEnv }], require: [["apiKey"]] };
    default:
      return { schemes: auth.schemes, require: auth.require };
  }
}

/** The environment variables a scheme reads (basic: username, then password). */
export function schemeEnv(scheme: AuthScheme): string[] {
  return scheme.type === "basic" ? [scheme.usernameEnv, scheme.passwordEnv] : [scheme.tokenEnv];
}

/** Every environment variable the contract's credentials read, each once, in declaration order. */
export function credentialEnvVars(auth: ContractAuth): string[] {
  return [...new Set(authSchemes(auth).schemes.flatMap(schemeEnv))];
}

function given(values: CredentialValues | undefined, name: string): string | BasicCredential | undefined {
  if (values === undefined) return undefined;
  if (values instanceof Map) return values.get(name);
  return Object.prototype.hasOwnProperty.call(values, name) ? (values as Readonly<Record<string, string | BasicCredential>>)[name] : undefined;
}

/** A value found for a scheme, with where it came from (for messages: never the value itself). */
type Found = { readonly values: readonly string[]; readonly source: string } | { readonly missing: readonly string[] } | { readonly invalid: string };

function lookup(scheme: AuthScheme, all: readonly AuthScheme[], sources: CredentialSources): Found {
  const option = given(sources.credentials, scheme.name);
  if (scheme.type === "basic") {
    if (option !== undefined) {
      if (typeof option !== "object" || option === null || typeof option.username !== "string" || typeof option.password !== "string") {
        return { invalid: `credentials.${scheme.name} must be {username, password} (scheme ${scheme.name} is HTTP basic)` };
      }
      return { values: [option.username, option.password], source: `credentials.${scheme.name}` };
    }
    const username = sources.env[scheme.usernameEnv];
    const password = sources.env[scheme.passwordEnv];
    if (!username || !password) return { missing: [scheme.usernameEnv, scheme.passwordEnv] };
    return { values: [username, password], source: `${scheme.usernameEnv}/${scheme.passwordEnv}` };
  }
  if (option !== undefined) {
    if (typeof option !== "string") return { invalid: `credentials.${scheme.name} must be a string (scheme ${scheme.name} takes a token)` };
    return option === "" ? { missing: [scheme.tokenEnv] } : { values: [option], source: `credentials.${scheme.name}` };
  }
  // `token` is the credential of a contract with a single token scheme.
  if (sources.token !== undefined && all.length === 1) return sources.token === "" ? { missing: [scheme.tokenEnv] } : { values: [sources.token], source: "`token`" };
  const value = sources.env[scheme.tokenEnv];
  return value ? { values: [value], source: scheme.tokenEnv } : { missing: [scheme.tokenEnv] };
}

/** Why credentials cannot be sent: none of the alternatives is complete, or a value is unusable. */
export type CredentialProblem =
  | { readonly kind: "missing"; readonly message: string; readonly envVars: readonly string[] }
  | { readonly kind: "too-short" | "invalid"; readonly message: string };

/** A cookie value as sent: as is when it is cookie-octets only (RFC 6265), else percent-encoded. */
function cookieValue(value: string): string {
  return /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/.test(value) ? value : encodeURIComponent(value);
}

/** `user:password` as basic sends it. */
export function basicAuthorization(username: string, password: string): string {
  return Buffer.from(`${username}:${password}`, "utf8").toString("base64");
}

/**
 * What the credentials of an operation add to its request: the first alternative (of the
 * operation's own, else the contract's) whose credentials are all present. An operation with no
 * alternative (public, or a contract without auth) gets nothing.
 */
export function resolveCredentials(auth: ContractAuth, operationAuth: AuthAlternatives | undefined, sources: CredentialSources): { parts: CredentialParts } | { problem: CredentialProblem } {
  const { schemes, require } = authSchemes(auth);
  const alternatives = operationAuth ?? require;
  if (alternatives.length === 0) return { parts: NO_CREDENTIALS };
  const missing: string[][] = [];
  for (const alternative of alternatives) {
    const found: Array<[AuthScheme, readonly string[], string]> = [];
    const lacking: string[] = [];
    for (const name of alternative) {
      const scheme = schemes.find((s) => s.name === name);
      if (!scheme) return { problem: { kind: "invalid", message: `the contract requires an undeclared credential scheme ${JSON.stringify(name)}` } };
      const f = lookup(scheme, schemes, sources);
      if ("invalid" in f) return { problem: { kind: "invalid", message: f.invalid } };
      if ("missing" in f) lacking.push(...f.missing);
      else found.push([scheme, f.values, f.source]);
    }
    if (lacking.length > 0) {
      missing.push(lacking);
      continue;
    }
    for (const [scheme, values, source] of found) {
      // A basic username names an account (`api`, an account id): it is no secret, so neither
      // refused for its length nor redacted; the password and the encoded pair are.
      for (const value of scheme.type === "basic" ? values.slice(1) : values) {
        const short = credentialTooShort(value);
        if (short) return { problem: { kind: "too-short", message: `Credential refused (${source}): ${short}` } };
      }
    }
    const headers: Array<[string, string]> = [];
    const query: Array<[string, string]> = [];
    const cookies: Array<[string, string]> = [];
    for (const [scheme, values] of found) {
      if (scheme.type === "bearer") headers.push(["authorization", `Bearer ${values[0]!}`]);
      else if (scheme.type === "basic") headers.push(["authorization", `Basic ${basicAuthorization(values[0]!, values[1]!)}`]);
      else if (scheme.in === "header") headers.push([scheme.param.toLowerCase(), values[0]!]);
      else if (scheme.in === "query") query.push([scheme.param, values[0]!]);
      else cookies.push([scheme.param, cookieValue(values[0]!)]);
    }
    return { parts: { headers, query, cookies } };
  }
  const envVars = [...new Set(missing.flat())];
  const options = missing.map((m) => [...new Set(m)].join(" and ")).join(", or ");
  return { problem: { kind: "missing", message: `No credential: set ${options}${auth.type === "schemes" ? " (or pass `credentials`)" : " (or pass `token`)"}.`, envVars } };
}

/**
 * Every credential value the client may send, and the forms a platform may echo (basic's base64
 * form), for the redactor. Values of every scheme, whichever alternative is used.
 */
export function credentialSecrets(auth: ContractAuth, sources: CredentialSources): string[] {
  const { schemes } = authSchemes(auth);
  const out: string[] = [];
  if (sources.token) out.push(sources.token);
  for (const scheme of schemes) {
    const f = lookup(scheme, schemes, sources);
    if (!("values" in f)) continue;
    out.push(...(scheme.type === "basic" ? f.values.slice(1) : f.values));
    if (scheme.type === "basic") out.push(basicAuthorization(f.values[0]!, f.values[1]!));
    if (scheme.type === "apiKey" && scheme.in === "cookie") out.push(cookieValue(f.values[0]!));
  }
  return out.filter((v) => v !== "");
}

/** Names a credential travels under (apiKey header, query and cookie names): sensitive fields in errors. */
export function credentialFieldNames(auth: ContractAuth): string[] {
  return authSchemes(auth).schemes.flatMap((s) => (s.type === "apiKey" ? [s.param] : []));
}

/**
 * Add credential parts to a built request: headers (a credential header replaces one of the same
 * name), query parameters appended to the URL, cookies appended to any `cookie` header.
 */
export function withCredentials(url: string, headers: Record<string, string>, parts: CredentialParts): { url: string; headers: Record<string, string> } {
  const out: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, headers);
  for (const [name, value] of parts.headers) out[name] = value;
  if (parts.cookies.length > 0) {
    const pairs = parts.cookies.map(([name, value]) => `${name}=${value}`).join("; ");
    const existing = Object.keys(out).find((k) => k.toLowerCase() === "cookie");
    if (existing !== undefined) {
      out[existing] = `${out[existing]}; ${pairs}`;
    } else out.cookie = pairs;
  }
  if (parts.query.length === 0) return { url, headers: out };
  const names = new Set(parts.query.map(([name]) => encodeURIComponent(name)));
  const pairs = parts.query.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join("&");
  const hash = url.indexOf("#");
  const whole = hash === -1 ? url : url.slice(0, hash);
  const at = whole.indexOf("?");
  const path = at === -1 ? whole : whole.slice(0, at);
  // As with headers, the credential replaces a parameter of the same name (SoundCloud's operations
  // also list `client_id`, its API key): two values would be read as an array. The rest of the query
  // is kept as text, in its own encoding (styles, brackets).
  const kept = at === -1 ? [] : whole.slice(at + 1).split("&").filter((pair) => pair !== "" && !names.has(pair.split("=")[0]!));
  return { url: `${path}?${[...kept, pairs].join("&")}`, headers: out };
}
