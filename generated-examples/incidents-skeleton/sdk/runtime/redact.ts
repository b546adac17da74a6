/**
 * Credential redaction. The client knows every credential value it sends (the token and the headers
 * that carry it); a platform may echo them back (in an error message, in error details, even in a
 * result), so everything the client hands out or persists — results, thrown errors, journal rows —
 * goes through a redactor first:
 *
 * - every known credential value (and its percent-encoded form) is replaced by `[REDACTED]` in every
 *   string and object key, at any depth;
 * - in error details and journal rows of errors, the value of every field whose name is in
 *   `SENSITIVE_FIELDS` is replaced too, whatever it is (results keep such fields: a contract may
 *   legitimately return e.g. a `token` it issued).
 *
 * Values are walked iteratively (no recursion on input depth), and copied: the input is not changed.
 */

export const REDACTED = "[REDACTED]";

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

export class Redactor {
  private readonly secrets: readonly string[];
  private readonly fields: ReadonlySet<string>;

  /**
   * @param secrets credential values sent (empty ones are ignored)
   * @param fields extra field names to treat as sensitive (e.g. the contract's API-key header)
   */
  constructor(secrets: Iterable<string>, fields: Iterable<string> = []) {
    const all = new Set<string>();
    for (const s of secrets) {
      if (!s) continue;
      all.add(s);
      const encoded = encodeURIComponent(s);
      if (encoded !== s) all.add(encoded);
    }
    // Longest first, so that a value containing another is replaced whole.
    this.secrets = [...all].sort((a, b) => b.length - a.length);
    this.fields = new Set([...fields].map((f) => f.toLowerCase().replace(/_/g, "-")));
  }

  private sensitive(key: string): boolean {
    const k = key.toLowerCase().replace(/_/g, "-");
    return SENSITIVE_FIELDS.has(k) || this.fields.has(k);
  }

  /** A string with every known credential value replaced. */
  text(value: string): string {
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
