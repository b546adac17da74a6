/**
 * Opaque, tamper-proof cursors and continuations: a JSON payload plus an HMAC. The signing secret is
 * kept in the host's store, so cursors stay valid across a restart and from one replica to another.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export class CursorCodec {
  /** `secret` comes from the host's store (HostStore.cursorSecret), shared by every process on it. */
  constructor(private readonly secret: Buffer) {}

  encode(payload: Readonly<Record<string, unknown>>): string {
    const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
    return `${body}.${this.sign(body)}`;
  }

  /** The payload, or null when the text is not a cursor this platform issued. */
  decode(text: string): Record<string, unknown> | null {
    const [body, mac, extra] = text.split(".");
    if (body === undefined || mac === undefined || extra !== undefined) return null;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as unknown;
      return payload !== null && typeof payload === "object" && !Array.isArray(payload) ? (payload as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }

  private sign(body: string): string {
    return createHmac("sha256", this.secret).update(body).digest("base64url").slice(0, 22);
  }
}
