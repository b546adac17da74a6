/** The generated contract suite's fixture for the incidents reference platform (test/contract-suite). */
import { platformFixture } from "../shared/contract-fixture.js";
import { INCIDENT_SEED_FACTS, startIncidentsServer } from "./server.js";

export const fixture = platformFixture({
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
        return { incident_id: "INC-017", owner: "platform-oncall", expected_revision: 3 };
      default:
        return undefined;
    }
  },
});
