// The count_incidents handler of the incidents MCP server: yours to fill in.
// contractgen wrote this file once and never replaces it; ../handler-types.ts is regenerated with the contract.
import { NotImplementedError, PlatformError } from "../host/errors.js";
import type { CountIncidentsHandler } from "../handler-types.js";

/**
 * count_incidents
 *
 * Count incidents matching filters, reporting how much of the register the count covers.
 *
 * Counts the incidents that list_incidents would return for the same filters (omitted filters match every value; opened_after is exclusive and compared in UTC), without returning them. One call examines at most 5000 incidents. When complete is false the scan stopped early: count covers only the records_examined incidents read so far, and continuation resumes it. Call again with the same filters and that continuation; each answer is cumulative (count and records_examined include earlier calls), so use the last one. continuation is null once complete is true, and expires after 15 minutes. Incidents changed while a scan is in progress may or may not be counted.
 *
 * Incomplete while complete is false: call again with continuation.
 *
 * Errors: INVALID_FIELD → fix the named field; CURSOR_EXPIRED → re-read, then decide again; TOKEN_INVALID, ROLE_FORBIDDEN → stop and tell the user; RATE_LIMITED → wait, then retry; UPSTREAM_TIMEOUT → retry with the same arguments.
 *
 * The host does this around the handler (do not do it again here):
 * - input validated against the contract before this runs
 * - output checked against the contract (and projected) after
 *
 * Fail with `new PlatformError(code, message, { field, details })` using a code the operation lists.
 */
export const handler: CountIncidentsHandler = (input, ctx) => {
  // TODO: read count_incidents and return its output.
  throw new NotImplementedError(ctx.operation.names.id);
};
