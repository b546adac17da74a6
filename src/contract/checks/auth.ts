import { type Diagnostic, diagnostic } from "../../diagnostics/diagnostic.js";
import { baseUrlEnvOf, mcpBearerEnv } from "../../model/naming.js";
import type { CheckContext } from "../context.js";
import type { RawAuthScheme } from "../raw.js";
import { joinPointer } from "../source.js";

/** An HTTP token (RFC 9110): header and cookie names. */
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Where a scheme puts its credential: two schemes sent together must not write the same place. */
function place(scheme: RawAuthScheme): string {
  if (scheme.type === "apiKey") return scheme.in === "header" ? `header ${scheme.name.toLowerCase()}` : `${scheme.in} ${scheme.name}`;
  return "header authorization";
}

/**
 * Credentials: alternatives name declared schemes; a scheme's names are valid where they travel;
 * schemes sent together write different places; no environment variable serves two purposes.
 */
export function checkAuth(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { doc, file } = ctx;
  const raw = doc.transport.auth;
  // The single forms are one scheme named after their type (what operations' `auth` may name).
  const schemes = new Map<string, RawAuthScheme>();
  if (raw && "schemes" in raw && raw.schemes) {
    for (const [name, s] of Object.entries(raw.schemes)) schemes.set(name, s);
  } else if (raw?.type === "bearer") schemes.set("bearer", { type: "bearer", tokenEnv: raw.tokenEnv });
  else if (raw?.type === "apiKey") schemes.set("apiKey", { type: "apiKey", in: "header", name: raw.header, tokenEnv: raw.tokenEnv });
  const named = raw !== undefined && "schemes" in raw;
  const used = new Set<string>();

  const alternatives = (list: readonly (readonly string[])[], at: string) => {
    list.forEach((alternative, i) => {
      const places = new Map<string, string>();
      alternative.forEach((name, j) => {
        const scheme = schemes.get(name);
        if (!scheme) {
          const known = [...schemes.keys()];
          out.push(diagnostic("auth-scheme-unknown", `Credential scheme ${JSON.stringify(name)} is not declared${known.length ? ` (declared: ${known.map((k) => JSON.stringify(k)).join(", ")})` : " (the contract declares none)"}.`, file.locate(joinPointer(at, i, j))));
          return;
        }
        used.add(name);
        const where = place(scheme);
        const other = places.get(where);
        if (other !== undefined) {
          out.push(diagnostic("auth-schemes-conflict", `Schemes ${JSON.stringify(other)} and ${JSON.stringify(name)} are sent together but both write the ${where}.`, file.locate(joinPointer(at, i, j))));
        } else places.set(where, name);
      });
    });
  };

  if (raw && "schemes" in raw && raw.schemes) {
    alternatives(raw.require ?? [], "/transport/auth/require");
    for (const [name, s] of Object.entries(raw.schemes)) {
      const at = joinPointer("/transport/auth/schemes", name);
      if (s.type === "apiKey" && s.in !== "query" && !HTTP_TOKEN.test(s.name)) {
        out.push(diagnostic("auth-name-invalid", `The ${s.in} name ${JSON.stringify(s.name)} of scheme ${JSON.stringify(name)} is not an HTTP token (letters, digits and !#$%&'*+-.^_\`|~).`, file.locate(joinPointer(at, "name"))));
      }
    }
  }
  for (const { name, op, at } of ctx.operations()) {
    if (op.auth !== undefined) alternatives(op.auth, joinPointer(at, "auth"));
    void name;
  }
  if (named) {
    for (const name of schemes.keys()) {
      if (!used.has(name)) out.push(diagnostic("auth-scheme-unused", `Credential scheme ${JSON.stringify(name)} is required by no alternative, of the contract or of an operation.`, file.locateKey(joinPointer("/transport/auth/schemes", name))));
    }
  }

  // One environment variable, one value: shared by two credentials (or with the base URL) one of them is wrong.
  const reserved = new Map<string, string>([
    [baseUrlEnvOf(doc.contract, doc.transport.http.baseUrlEnv ?? null), "the base URL"],
    [mcpBearerEnv(doc.contract), "the MCP server's own bearer token"],
  ]);
  const seen = new Map<string, string>();
  for (const [name, s] of schemes) {
    const at = named ? joinPointer("/transport/auth/schemes", name) : "/transport/auth";
    const vars: Array<[string, string]> = s.type === "basic" ? [[s.usernameEnv, "usernameEnv"], [s.passwordEnv, "passwordEnv"]] : [[s.tokenEnv, "tokenEnv"]];
    for (const [env, key] of vars) {
      const owner = seen.get(env) ?? reserved.get(env);
      if (owner !== undefined) {
        out.push(diagnostic("auth-env-duplicate", `Environment variable ${env} of scheme ${JSON.stringify(name)} already holds ${owner}.`, file.locate(joinPointer(at, key))));
      } else seen.set(env, `the ${key === "tokenEnv" ? "credential" : key === "usernameEnv" ? "username" : "password"} of scheme ${JSON.stringify(name)}`);
    }
  }
  return out;
}
