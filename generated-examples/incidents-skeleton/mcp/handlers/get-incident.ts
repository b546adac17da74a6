// The get_incident handler of the incidents MCP server: yours to fill in.
// contractgen wrote this file once and never replaces it; ../handler-types.ts is regenerated with the contract.
import { NotImplementedError, PlatformError } from "../host/errors.js";
import type { GetIncidentHandler } from "../handler-types.js";

/**
 * get_incident
 *
 * Read one incident with every field and its current revision.
 *
 * Returns all properties of the incident; summary is absent when none was written. Timestamps are UTC.
 *
 * Errors: INVALID_FIELD → fix the named field; INCIDENT_NOT_FOUND → check the identifier; TOKEN_INVALID, ROLE_FORBIDDEN → stop and tell the user; RATE_LIMITED → wait, then retry; UPSTREAM_TIMEOUT → retry with the same arguments.
 *
 * The host does this around the handler (do not do it again here):
 * - input validated against the contract before this runs
 * - output checked against the contract (and projected) after
 *
 * Fail with `new PlatformError(code, message, { field, details })` using a code the operation lists.
 */
export const handler: GetIncidentHandler = (input, ctx) => {
  // TODO: read get_incident and return its output.
  throw new NotImplementedError(ctx.operation.names.id);
};
