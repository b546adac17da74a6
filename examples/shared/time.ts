import type { HandlerContext } from "../../src/host-runtime/contract-host.js";

/**
 * An RFC 3339 input instant as UTC ISO text with milliseconds, the form timestamps are stored in, so
 * SQL text comparison orders them correctly. The contract's date-time format already rejected
 * instants without an offset; this catches the ones JavaScript cannot represent (leap seconds).
 */
export function utcInstant(ctx: HandlerContext, field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value.replace(" ", "T"));
  if (Number.isNaN(ms)) throw ctx.invalidInput(field, `${field} is not an instant this platform can compare: ${value}`);
  return new Date(ms).toISOString();
}
