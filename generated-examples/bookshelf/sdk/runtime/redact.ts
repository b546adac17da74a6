/**
 * Credential redaction. The client knows every credential value it sends (the token and the headers
 * that carry it); a platform may echo them back (in an error message, in error details, even in a
 * result), so everything the client hands out or persists — results, thrown errors, journal rows —
 * goes through a redactor first:
 *
 * - every known credential value (and its percent-encoded and form-encoded forms; the client adds
 *   basic's base64 `user:password` as a value of its own) is replaced by `[REDACTED]` wherever
 *   it appears inside a string: string values and object keys at any depth, messages and stacks;
 *   the redactor works on values, never on serialized JSON, so quotes, braces and separators are never
 *   touched;
 * - a value shorter than MIN_CREDENTIAL_LENGTH cannot be told apart from ordinary text (a one-letter
 *   token is in every word): it replaces only a whole string (or key) equal to it, never part of one.
 *   Every entry point refuses such a credential (credentialTooShort), so this is the fallback;
 * - in error details and journal rows of errors, the value of every field whose name is in
 *   `SENSITIVE_FIELDS` is replaced too, whatever it is (results keep such fields: a contract may
 *   legitimately return e.g. a `token` it issued).
 *
 * Values are walked iteratively (no recursion on input depth), and copied: the input is not changed.
 */

export const REDACTED = "[REDACTED]";

/**
 * The shortest credential the SDK, the CLI, the MCP server and `contractgen test` accept. A shorter
 * value occurs by chance in ordinary output (`n` in "none_1"), so redacting it would mangle results,
 * and not redacting it inside text would leak it.
 */
export const MIN_CREDENTIAL_LENGTH = 8;

/** Why a credential cannot be used, or null: empty is "missing" and reported by the caller. */
export function credentialTooShort(value: string): string | null {
  if (value === "" || value.length >= MIN_CREDENTIAL_LENGTH) return null;
  return `the credential is ${value.length} character${value.length === 1 ? "" : "s"} long; at least ${MIN_CREDENTIAL_LENGTH} are required, so that it can be redacted from output without mangling it`;
}

/**
 * Field names (compared lower-case, with `_` read as `-`) whose values are credentials by name:
 * HTTP credential headers and the usual names of secrets in JSON bodies.
 */
export const SENSITIVE_FIELDS: ReadonlySet<string> = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
  "api-key",
  "apikey",
  "x-auth-token",
  "auth-token",
  "access-token",
  "refresh-token",
  "id-token",
  "token",
  "bearer",
  "password",
  "passwd",
  "secret",
  "client-secret",
  "private-key",
]);

/** Header names whose values the client treats as credentials when it sends them (extra headers included). */
export function isSensitiveField(name: string): boolean {
  return SENSITIVE_FIELDS.has(name.toLowerCase().replace(/_/g, "-"));
}

/** A value as a form-urlencoded query or body writes it (space as `+`, `!'()*~` escaped). */
function formEncoded(value: string): string {
  return new URLSearchParams([["", value]]).toString().slice(1);
}

export class Redactor {
  /** Replaced wherever they occur in a string. */
  private readonly secrets: readonly string[];
  /** Too short for that: replaced only as a whole string. */
  private readonly whole: ReadonlySet<string>;
  private readonly fields: ReadonlySet<string>;

  /**
   * @param secrets credential values sent (empty ones are ignored)
   * @param fields extra field names to treat as sensitive (e.g. the contract's API-key header)
   */
  constructor(secrets: Iterable<string>, fields: Iterable<string> = []) {
    const all = new Set<string>();
    const whole = new Set<string>();
    for (const s of secrets) {
      if (!s) continue;
      for (const form of new Set([s, encodeURIComponent(s), formEncoded(s)])) (form.length >= MIN_CREDENTIAL_LENGTH ? all : whole).add(form);
    }
    // Longest first, so that a value containing another is replaced whole.
    this.secrets = [...all].sort((a, b) => b.length - a.length);
    this.whole = whole;
    this.fields = new Set([...fields].map((f) => f.toLowerCase().replace(/_/g, "-")));
  }

  private sensitive(key: string): boolean {
    const k = key.toLowerCase().replace(/_/g, "-");
    return SENSITIVE_FIELDS.has(k) || this.fields.has(k);
  }

  /** A string with every known credential value replaced (a short one only when it is the whole string). */
  text(value: string): string {
    if (this.whole.has(value)) return REDACTED;
    let out = value;
    for (const s of this.secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
    return out;
  }

  /**
   * A redacted copy of a JSON-like value. `byName`: also replace the values of sensitive fields
   * (errors and their details), not only known credential values (results).
   */
  value(input: unknown, byName: boolean): unknown {
    const seen = new Set<object>();
    const copy = (v: unknown): { value: unknown; pending: boolean } => {
      if (typeof v === "string") return { value: this.text(v), pending: false };
      if (v === null || typeof v !== "object") return { value: v, pending: false };
      if (seen.has(v)) return { value: "[Circular]", pending: false };
      return { value: Array.isArray(v) ? [] : {}, pending: true };
    };
    const root = copy(input);
    const stack: Array<[unknown, unknown]> = root.pending ? [[input, root.value]] : [];
    while (stack.length > 0) {
      const [source, target] = stack.pop()!;
      seen.add(source as object);
      const entries: Array<[string, unknown]> = Array.isArray(source) ? source.map((v, i) => [String(i), v]) : Object.entries(source as object);
      for (const [key, v] of entries) {
        const next = byName && !Array.isArray(source) && this.sensitive(key) && v !== null && v !== undefined ? { value: REDACTED, pending: false } : copy(v);
        const name = Array.isArray(source) ? key : this.text(key);
        // defineProperty: a key such as "__proto__" from a platform's JSON stays a plain own property.
        Object.defineProperty(target, Array.isArray(source) ? Number(name) : name, { value: next.value, enumerable: true, writable: true, configurable: true });
        if (next.pending) stack.push([v, next.value]);
      }
    }
    return root.value;
  }
}
