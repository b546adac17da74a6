/**
 * Reference implementation of specs/incidents.yaml: an incident register of 120 incidents in SQLite
 * with filters, projection, bounded pages with totals and partial-page reporting, a bounded count
 * with continuation, and reassignment guarded by an expected revision.
 */
import type { HandlerContext, Handlers, RunningPlatform } from "../shared/host.js";
import { PlatformError } from "../shared/host.js";
import { type ExampleServerOptions, startExample } from "../shared/example.js";
import { type CursorPolicy, countScan, listPage, taskFields } from "../shared/paging.js";
import { MATCH_ALL, type Sql, allOf, condition, equals, greaterThan } from "../shared/sql.js";
import type { Database } from "../shared/sqlite.js";
import { utcInstant } from "../shared/time.js";

export const INCIDENTS_SPEC = "specs/incidents.yaml";

/** "Cursors expire after 15 minutes" (list_incidents and count_incidents descriptions). */
export const INCIDENT_CURSOR_TTL_MS = 15 * 60 * 1000;
/** "One call examines at most 5000 incidents" (count_incidents description). */
export const INCIDENT_COUNT_MAX_EXAMINED = 5000;

// -- seed -------------------------------------------------------------------------------------------

export type IncidentStatus = "open" | "mitigated" | "resolved";
export type Severity = "P1" | "P2" | "P3" | "P4";
export type Environment = "production" | "staging";

export interface Incident {
  id: string;
  title: string;
  status: IncidentStatus;
  severity: Severity;
  service: string;
  environment: Environment;
  owner: string;
  evidence_ref: string;
  summary?: string;
  opened_at: string;
  updated_at: string;
  revision: number;
}

/** The on-call team directory; assigning to any other slug is UNKNOWN_TEAM. */
export const INCIDENT_TEAMS: readonly string[] = [
  "checkout-oncall",
  "payments-oncall",
  "search-oncall",
  "identity-oncall",
  "inventory-oncall",
  "notifications-oncall",
  "platform-oncall",
];

/** The incidents that answer "which P1 incidents are open on checkout in production?". */
export const OPEN_P1_CHECKOUT_PRODUCTION = ["INC-017", "INC-088"] as const;

type Override = Pick<Incident, "status" | "severity" | "service" | "environment" | "owner" | "title"> & { summary?: string };

/**
 * The two answers, and near misses that differ from them in exactly one respect (environment,
 * status, severity or service), so a wrong or missing filter shows in the result.
 */
const SCENARIO: Readonly<Record<string, Override>> = {
  "INC-017": { status: "open", severity: "P1", service: "checkout", environment: "production", owner: "payments-oncall", title: "Card authorisations failing at checkout", summary: "About 30% of card payments are declined by the payment gateway adapter; payments on-call owns the adapter." },
  "INC-088": { status: "open", severity: "P1", service: "checkout", environment: "production", owner: "checkout-oncall", title: "Checkout totals wrong for multi-currency baskets", summary: "Baskets mixing EUR and USD items show totals in the wrong currency." },
  "INC-009": { status: "open", severity: "P1", service: "checkout", environment: "staging", owner: "checkout-oncall", title: "Checkout smoke tests failing in staging" },
  "INC-023": { status: "mitigated", severity: "P1", service: "checkout", environment: "production", owner: "checkout-oncall", title: "Checkout latency spike after deploy", summary: "Rolled back; root cause still under investigation." },
  "INC-031": { status: "resolved", severity: "P1", service: "checkout", environment: "production", owner: "checkout-oncall", title: "Checkout unavailable during database failover" },
  "INC-046": { status: "open", severity: "P2", service: "checkout", environment: "production", owner: "checkout-oncall", title: "Promo codes rejected at checkout" },
  "INC-052": { status: "open", severity: "P1", service: "payments", environment: "production", owner: "payments-oncall", title: "Payout batch stuck", summary: "Merchant payouts delayed; checkout unaffected." },
  "INC-064": { status: "open", severity: "P1", service: "checkout-api", environment: "production", owner: "checkout-oncall", title: "Checkout API rejecting mobile clients" },
  "INC-075": { status: "open", severity: "P1", service: "checkout", environment: "staging", owner: "payments-oncall", title: "Staging checkout cannot reach payment sandbox" },
  "INC-101": { status: "open", severity: "P1", service: "checkout", environment: "staging", owner: "platform-oncall", title: "Staging checkout pods crash-looping" },
  "INC-112": { status: "resolved", severity: "P1", service: "checkout", environment: "production", owner: "payments-oncall", title: "Duplicate charges on retried checkouts" },
  "INC-119": { status: "open", severity: "P3", service: "checkout", environment: "production", owner: "checkout-oncall", title: "Checkout button misaligned on small screens" },
};

/** What a client can rely on when it lists the register without filters at the contract's 40 per page. */
export const INCIDENT_SEED_FACTS = {
  total: 120,
  pages: 3,
  /** Unfiltered order is ascending id, so INC-n is on page ceil(n / 40). */
  pageOf: { "INC-017": 1, "INC-088": 3 },
} as const;

/** The near misses of OPEN_P1_CHECKOUT_PRODUCTION (each fails exactly one of the four filters). */
export const NEAR_MISS_INCIDENTS: readonly string[] = Object.keys(SCENARIO).filter((id) => !(OPEN_P1_CHECKOUT_PRODUCTION as readonly string[]).includes(id)).sort();

const FILLER_SERVICES = ["search", "identity", "inventory", "notifications", "payments", "checkout"] as const;
const FILLER_PROBLEMS = ["Elevated error rate", "Slow responses", "Stale cache entries", "Failed background jobs", "Alert noise"] as const;
const NEWEST_OPENED_AT = Date.parse("2026-06-30T12:00:00.000Z");
const HOUR = 60 * 60 * 1000;

/**
 * When INC-n was opened. The register numbered incidents newest first, so the contract's order
 * (opened_at newest first, ties by id) is ascending id: INC-001 opens page 1, INC-088 is on page 3
 * of 3. INC-040 and INC-041 were opened at the same instant (a tie across the page boundary).
 */
function openedAt(n: number): number {
  return NEWEST_OPENED_AT - (n === 41 ? 39 : n - 1) * 3 * HOUR;
}

function incidentId(n: number): string {
  return `INC-${String(n).padStart(3, "0")}`;
}

/** The 120 seeded incidents INC-001..INC-120, in the order list_incidents returns them. */
export function incidentSeed(): Incident[] {
  const incidents: Incident[] = [];
  for (let n = 1; n <= 120; n++) {
    const id = incidentId(n);
    const service = FILLER_SERVICES[n % FILLER_SERVICES.length] ?? "search";
    // Filler is never P1, and checkout filler is never open in production: only SCENARIO answers.
    let status: IncidentStatus = n % 5 === 0 ? "open" : n % 7 === 0 ? "mitigated" : "resolved";
    if (service === "checkout" && status === "open") status = "mitigated";
    const filler: Override = {
      status,
      severity: (["P2", "P3", "P4", "P3"] as const)[n % 4] ?? "P3",
      service,
      environment: n % 3 === 0 ? "staging" : "production",
      owner: `${service}-oncall`,
      title: `${FILLER_PROBLEMS[n % FILLER_PROBLEMS.length] ?? "Degraded service"} on ${service}`,
      ...(n % 4 === 3 ? {} : { summary: `Automated summary of ${id}.` }),
    };
    const fields = SCENARIO[id] ?? filler;
    const opened = openedAt(n);
    incidents.push({
      id,
      ...fields,
      evidence_ref: `ev-${fields.service}-${String(n * 7 + 400).padStart(4, "0")}`,
      opened_at: new Date(opened).toISOString(),
      updated_at: new Date(opened + (fields.status === "open" ? 0 : 5 * HOUR)).toISOString(),
      revision: 1 + (n % 3),
    });
  }
  return incidents;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS teams (slug TEXT PRIMARY KEY);
  CREATE TABLE IF NOT EXISTS incidents (
    id           TEXT    PRIMARY KEY,
    title        TEXT    NOT NULL,
    status       TEXT    NOT NULL,
    severity     TEXT    NOT NULL,
    service      TEXT    NOT NULL,
    environment  TEXT    NOT NULL,
    owner        TEXT    NOT NULL REFERENCES teams (slug),
    evidence_ref TEXT    NOT NULL,
    summary      TEXT,
    opened_at    TEXT    NOT NULL, -- UTC ISO text with milliseconds: text order is time order
    updated_at   TEXT    NOT NULL,
    revision     INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS incidents_by_opened ON incidents (opened_at DESC, id);`;

function seed(db: Database, dataset: IncidentDataset): void {
  const team = db.prepare("INSERT INTO teams (slug) VALUES (?)");
  for (const slug of INCIDENT_TEAMS) team.run(slug);
  if (dataset === "empty") return;
  const insert = db.prepare(`INSERT INTO incidents (id, title, status, severity, service, environment, owner, evidence_ref, summary, opened_at, updated_at, revision)
                             VALUES (@id, @title, @status, @severity, @service, @environment, @owner, @evidence_ref, @summary, @opened_at, @updated_at, @revision)`);
  for (const incident of incidentSeed()) insert.run({ summary: null, ...incident });
}

// -- handlers ---------------------------------------------------------------------------------------

type IncidentRow = Omit<Incident, "summary"> & { summary: string | null };

function incidentOf(row: IncidentRow): Incident {
  const { summary, ...rest } = row;
  // summary is absent, not null, when nobody wrote one.
  return summary === null ? rest : { ...rest, summary };
}

function requireIncident(db: Database, id: string): IncidentRow {
  const row = db.prepare("SELECT * FROM incidents WHERE id = ?").get(id) as IncidentRow | undefined;
  if (!row) throw new PlatformError("INCIDENT_NOT_FOUND", `No incident ${id}.`);
  return row;
}

interface IncidentFilters {
  status?: IncidentStatus;
  severity?: Severity;
  service?: string;
  environment?: Environment;
  owner?: string;
  opened_after?: string;
}

/**
 * The filters list_incidents and count_incidents share: omitted ones match every value.
 * `openedAfterInclusive` is only ever set by a seeded defect: opened_after is exclusive.
 */
function matching(ctx: HandlerContext, filters: IncidentFilters, openedAfterInclusive = false): Sql {
  const openedAfter = utcInstant(ctx, "opened_after", filters.opened_after);
  return allOf(
    equals("status", filters.status),
    equals("severity", filters.severity),
    equals("service", filters.service),
    equals("environment", filters.environment),
    equals("owner", filters.owner),
    openedAfterInclusive && openedAfter !== undefined ? condition("opened_at >= ?", openedAfter) : greaterThan("opened_at", openedAfter),
  );
}

const CURSORS: CursorPolicy = { ttlMs: INCIDENT_CURSOR_TTL_MS, expiredCode: "CURSOR_EXPIRED" };

export type IncidentDataset = "default" | "empty";

export interface IncidentsServerOptions extends ExampleServerOptions {
  /** "default" seeds incidentSeed() (already mixed: every status, severity and environment); "empty" only the teams. */
  readonly dataset?: IncidentDataset;
  /** Bound on incidents examined per count_incidents call (default 5000, as the contract says). */
  readonly countMaxExamined?: number;
}

function incidentHandlers(options: IncidentsServerOptions): Handlers {
  return {
    list_incidents(input: IncidentFilters, ctx: HandlerContext) {
      // The seeded defect filter-value-fails: one enum value of a filter breaks the list.
      if (ctx.seededDefect === "filter-value-fails" && input.severity === "P4") throw new Error("seeded defect filter-value-fails: severity P4");
      return listPage<IncidentRow>(
        ctx,
        input,
        {
          table: "incidents",
          // The seeded defect range-bound-inclusive also lists the incident opened exactly at opened_after.
          where: matching(ctx, input, ctx.seededDefect === "range-bound-inclusive"),
          orderBy: [
            { column: "opened_at", direction: "desc" },
            { column: "id", direction: "asc" },
          ],
          toItem: incidentOf, // the host applies the `fields` projection
        },
        CURSORS,
      );
    },

    count_incidents(input: IncidentFilters, ctx: HandlerContext) {
      const progress = countScan(
        ctx,
        input,
        // Every incident is read; the filters decide which are counted.
        // The seeded defect count-ignores-filter drops the severity filter from the count.
        // The seeded defect count-range-inclusive counts the incident opened exactly at opened_after.
        {
          table: "incidents",
          examined: MATCH_ALL,
          counted: matching(ctx, ctx.seededDefect === "count-ignores-filter" ? { ...input, severity: undefined } : input, ctx.seededDefect === "count-range-inclusive"),
          key: "id",
        },
        { ...CURSORS, maxExaminedPerCall: options.countMaxExamined ?? INCIDENT_COUNT_MAX_EXAMINED },
      );
      return { count: progress.counted, ...taskFields(ctx.operation, progress) };
    },

    get_incident(input: { incident_id: string }, ctx: HandlerContext): Incident {
      return incidentOf(requireIncident(ctx.db, input.incident_id));
    },

    assign_incident: {
      target: (input: AssignInput, ctx: HandlerContext): IncidentRow => requireIncident(ctx.db, input.incident_id),
      // Already owned by that team: succeed without a change, whatever expected_revision says.
      unchanged: (input: AssignInput, current: IncidentRow): boolean => current.owner === input.owner,
      execute(input: AssignInput, ctx: HandlerContext, current: IncidentRow): Incident {
        if (current.owner === input.owner) return incidentOf(current);
        if (!ctx.db.prepare("SELECT 1 FROM teams WHERE slug = ?").get(input.owner)) {
          throw new PlatformError("UNKNOWN_TEAM", `No on-call team is called ${input.owner}.`, { field: "owner" });
        }
        if (current.status === "resolved") {
          throw new PlatformError("INCIDENT_RESOLVED", `${current.id} is resolved and can no longer be reassigned.`);
        }
        ctx.db
          .prepare("UPDATE incidents SET owner = ?, revision = revision + 1, updated_at = ? WHERE id = ?")
          .run(input.owner, ctx.now().toISOString(), current.id);
        return incidentOf(requireIncident(ctx.db, current.id));
      },
    },
  };
}

interface AssignInput {
  incident_id: string;
  owner: string;
  expected_revision: number;
}

/** Start the incidents platform on 127.0.0.1, seeded with incidentSeed() (or, for the "empty" data set, the teams only). */
export function startIncidentsServer(options: IncidentsServerOptions = {}): Promise<RunningPlatform> {
  const dataset = options.dataset ?? "default";
  return startExample({ spec: INCIDENTS_SPEC, schema: SCHEMA, dataset, seed: (db) => seed(db, dataset), handlers: incidentHandlers(options) }, options);
}
