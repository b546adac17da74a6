// The list_incidents handler of the incidents MCP server: yours to fill in.
// contractgen wrote this file once and never replaces it; ../handler-types.ts is regenerated with the contract.
import { NotImplementedError, PlatformError } from "../host/errors.js";
import type { ListIncidentsHandler } from "../handler-types.js";

/**
 * list_incidents
 *
 * List incidents matching filters, with only the selected fields, at most 40 per page.
 *
 * Returns incidents ordered by opened_at, newest first, ties broken by id. Every filter is optional; an omitted filter matches every value and filters combine with AND. opened_after is an RFC 3339 timestamp (a missing offset is rejected) and is exclusive: only incidents opened strictly later are returned. `fields` selects the properties to return; id is always returned, unselected properties are absent (not null) and omitting `fields` returns all of them. A page holds at most 40 incidents (limit defaults to 40). total_matching is the number of incidents matching the filters across all pages, as counted when the page was produced. partial is true when the page is missing incidents (for example a register shard timed out) and `errors` then says why; a later clean page does not make an earlier partial page complete. The traversal is complete only when next_cursor is null, no page was partial and every page's errors were empty. Cursors expire after 15 minutes and are bound to the filters and fields they were issued for.
 *
 * limit defaults to 40.
 *
 * One page per call: unless next_cursor is null, call again with cursor=next_cursor; the result states whether the answer is complete.
 *
 * Errors: INVALID_FIELD → fix the named field; CURSOR_EXPIRED → re-read, then decide again; TOKEN_INVALID, ROLE_FORBIDDEN → stop and tell the user; RATE_LIMITED → wait, then retry; UPSTREAM_TIMEOUT → retry with the same arguments.
 *
 * The host does this around the handler (do not do it again here):
 * - input validated against the contract before this runs
 * - output checked against the contract (and projected) after
 * - limit bounded to 40; the page is returned as this handler builds it (cursor, items, total)
 *
 * Fail with `new PlatformError(code, message, { field, details })` using a code the operation lists.
 */
export const handler: ListIncidentsHandler = (input, ctx) => {
  // TODO: read list_incidents and return its output.
  throw new NotImplementedError(ctx.operation.names.id);
};
