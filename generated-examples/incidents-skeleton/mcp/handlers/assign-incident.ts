// The assign_incident handler of the incidents MCP server: yours to fill in.
// contractgen wrote this file once and never replaces it; ../handler-types.ts is regenerated with the contract.
import { NotImplementedError, PlatformError } from "../host/errors.js";
import type { AssignIncidentHandler } from "../handler-types.js";

/**
 * assign_incident
 *
 * Hand an unresolved incident to another on-call team if it is still at the expected revision.
 *
 * Sets owner to the given team only when the incident's current revision equals expected_revision; otherwise fails with REVISION_CONFLICT and changes nothing. If the incident is already owned by that team the call succeeds without a change, whatever expected_revision says, so a retry after a lost response is safe. An optional expected_owner is compared with the current owner the same way (exactly, case included). Resolved incidents cannot be reassigned (INCIDENT_RESOLVED). A successful change increments revision and sets updated_at (UTC). Reversible by assigning the previous team.
 *
 * expected_revision must equal the current revision (read it with get_incident), else REVISION_CONFLICT, nothing changed.
 *
 * expected_owner must equal the current owner (read it with get_incident), else REVISION_CONFLICT, nothing changed.
 *
 * Errors: INVALID_FIELD → fix the named field; UNKNOWN_TEAM, INCIDENT_NOT_FOUND → check the identifier; INCIDENT_RESOLVED, REVISION_CONFLICT → re-read, then decide again; TOKEN_INVALID, ROLE_FORBIDDEN → stop and tell the user; RATE_LIMITED → wait, then retry; UPSTREAM_TIMEOUT → retry with the same arguments.
 *
 * The host does this around the handler (do not do it again here):
 * - input validated against the contract before this runs
 * - output checked against the contract (and projected) after
 * - expected_revision compared with target().revision; a mismatch is REVISION_CONFLICT and execute() is not called
 * - expected_owner compared with target().owner; a mismatch is REVISION_CONFLICT and execute() is not called
 * - runs in one transaction with the host's records (journal entry, spent token), reached as ctx.db (SQLite) or ctx.sql (PostgreSQL): a throw rolls everything back; may be async
 *
 * Fail with `new PlatformError(code, message, { field, details })` using a code the operation lists.
 */
export const handler: AssignIncidentHandler = {
  target(input, ctx) {
    // TODO: read the record the preconditions compare with; throw INCIDENT_NOT_FOUND (PlatformError) when it is missing.
    throw new NotImplementedError(ctx.operation.names.id);
  },
  execute(input, ctx, target) {
    // TODO: perform the change and return its output.
    throw new NotImplementedError(ctx.operation.names.id);
  },
};
