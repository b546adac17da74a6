/**
 * Credentials the suite sends are masked in everything it writes: failure messages, the progress
 * lines, the summaries and (through `contractgen test`) the JUnit XML. A server under test may echo
 * a credential anywhere — in a body, an error code, a redirect URL — and encoded: percent-encoded,
 * form-encoded, JSON-escaped, XML-escaped, base64 (HTTP basic's `user:password` is registered as a
 * secret of its own). Masking happens on the full text, before any clipping, so a
 * clipped message cannot keep half a credential.
 *
 * A credential shorter than MIN_SECRET_LENGTH cannot be masked without corrupting what it is masked
 * in (a one-letter token would be replaced in every word); the suite refuses to send one.
 */

import { MIN_CREDENTIAL_LENGTH } from "../../sdk/runtime/redact.js";

export const MASK = "***";

/** Shortest credential the suite sends (and can mask without mangling reports): the SDK's minimum. */
export const MIN_SECRET_LENGTH = MIN_CREDENTIAL_LENGTH;

/** Every credential the suite sent or was given, in every encoding it may come back in, longest first. */
const forms: string[] = [];
const registered = new Set<string>();

export class CredentialTooShortError extends Error {
  override name = "CredentialTooShortError";
}

/** The spellings of `secret` a report may contain. */
export function secretForms(secret: string): string[] {
  const utf8 = Buffer.from(secret, "utf8");
  const json = JSON.stringify(secret).slice(1, -1);
  const xml = secret.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
  const form = new URLSearchParams([["", secret]]).toString().slice(1);
  const all = [secret, encodeURIComponent(secret), form, json, xml, utf8.toString("base64").replace(/=+$/, ""), utf8.toString("base64url")];
  return [...new Set(all)].filter((f) => f.length >= MIN_SECRET_LENGTH);
}

/** Mask `secret` from now on; refused when it is too short to mask safely. Empty values are ignored. */
export function registerSecret(secret: string | undefined | null): void {
  if (!secret || registered.has(secret)) return;
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new CredentialTooShortError(
      `a credential of ${secret.length} characters is too short to be masked in reports without corrupting them; the suite sends credentials of at least ${MIN_SECRET_LENGTH} characters`,
    );
  }
  registered.add(secret);
  forms.push(...secretForms(secret));
  forms.sort((a, b) => b.length - a.length);
}

/** `text` with every registered credential (and `extra` ones) masked in each of its encodings. */
export function maskSecrets(text: string, extra: readonly string[] = []): string {
  const all = extra.length === 0 ? forms : [...forms, ...extra.flatMap((s) => (s.length >= MIN_SECRET_LENGTH ? secretForms(s) : []))].sort((a, b) => b.length - a.length);
  let out = text;
  for (const form of all) if (out.includes(form)) out = out.split(form).join(MASK);
  return out;
}

/**
 * A thrown value with its message, stack and the values an assertion compares masked (vitest prints
 * and reports those), returned for rethrowing. Not an Error: wrapped in one.
 */
export function maskedError(e: unknown): Error {
  const error = e instanceof Error ? e : new Error(maskSecrets(String(e)));
  error.message = maskSecrets(error.message);
  if (typeof error.stack === "string") error.stack = maskSecrets(error.stack);
  const compared = error as { actual?: unknown; expected?: unknown };
  for (const key of ["actual", "expected"] as const) {
    if (key in compared) {
      let shown: string;
      try {
        shown = typeof compared[key] === "string" ? (compared[key] as string) : (JSON.stringify(compared[key]) ?? String(compared[key]));
      } catch {
        shown = String(compared[key]);
      }
      compared[key] = maskSecrets(shown);
    }
  }
  return error;
}
