/** The generated contract suite's fixture for the incidents reference platform (test/contract-suite). */
import { type PlatformFixtureOptions, platformFixture } from "../shared/contract-fixture.js";
import { type IncidentDataset, INCIDENT_SEED_FACTS, INCIDENTS_SPEC, startIncidentsServer } from "./server.js";

/** The fixture's options: exported so another front end of the same platform can reuse them (start replaced). */
export const INCIDENTS_FIXTURE: PlatformFixtureOptions<IncidentDataset> = {
  spec: INCIDENTS_SPEC,
  start: startIncidentsServer,
  tables: ["teams", "incidents"],
  // The default register is already mixed: every status, severity, environment, and near misses of each filter.
  datasets: { empty: "empty", mixed: "default" },
  boundedTasks: true,
  shardFailure: { code: "UPSTREAM_TIMEOUT", message: "Register shard 2 did not answer in time; its incidents are missing from this page.", source: "register-shard-2" },
  taskResults(operation, input) {
    // Unfiltered, count_incidents examines and counts the whole register.
    const total = INCIDENT_SEED_FACTS.total;
    return operation === "count_incidents" && Object.keys(input).length === 0 ? { recordsExamined: total, answer: total } : undefined;
  },
  samples(operation, variant) {
    if (variant !== 0) return undefined;
    switch (operation) {
      case "list_incidents":
      case "count_incidents":
        return {};
      case "get_incident":
        return { incident_id: "INC-017" };
      case "assign_incident":
        // expected_owner: INC-017's current owner (a string expectation, compared exactly).
        return { incident_id: "INC-017", owner: "platform-oncall", expected_revision: 3, expected_owner: "payments-oncall" };
      default:
        return undefined;
    }
  },
  async errors(operation, code, ctx) {
    switch (`${operation} ${code}`) {
      case "get_incident INCIDENT_NOT_FOUND":
        return { incident_id: "INC-999" };
      case "assign_incident INCIDENT_NOT_FOUND":
        return { incident_id: "INC-999", owner: "platform-oncall", expected_revision: 1 };
      case "assign_incident UNKNOWN_TEAM":
        return { incident_id: "INC-017", owner: "no-such-team", expected_revision: 3 };
      case "assign_incident INCIDENT_RESOLVED": {
        // A resolved incident, at its current revision, to a team that does not own it yet.
        const db = ctx.platform.db;
        const row = db.prepare("SELECT id, owner, revision FROM incidents WHERE status = 'resolved' ORDER BY id LIMIT 1").get() as { id: string; owner: string; revision: number };
        const team = db.prepare("SELECT slug FROM teams WHERE slug <> ? ORDER BY slug LIMIT 1").get(row.owner) as { slug: string };
        return { incident_id: row.id, owner: team.slug, expected_revision: row.revision };
      }
      case "list_incidents CURSOR_EXPIRED": {
        // Cursors live 15 minutes.
        const page = await ctx.get("/incidents?limit=1");
        ctx.advanceTime(16 * 60_000);
        return { limit: 1, cursor: page.next_cursor };
      }
      case "count_incidents CURSOR_EXPIRED": {
        // An incomplete count (a per-call bound below the register) gives a continuation; it lives 15 minutes too.
        await ctx.restartBounded(5);
        const first = await ctx.get("/incident-count");
        ctx.advanceTime(16 * 60_000);
        return { continuation: first.continuation };
      }
      default:
        return undefined;
    }
  },
};

export const fixture = platformFixture(INCIDENTS_FIXTURE);
