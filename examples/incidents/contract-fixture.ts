/** The generated contract suite's fixture for the incidents reference platform (test/contract-suite). */
import { platformFixture } from "../shared/contract-fixture.js";
import { startIncidentsServer } from "./server.js";

export const fixture = platformFixture({
  start: startIncidentsServer,
  tables: ["teams", "incidents"],
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
