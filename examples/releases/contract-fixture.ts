/** The generated contract suite's fixture for the releases reference platform (test/contract-suite). */
import { platformFixture } from "../shared/contract-fixture.js";
import { startReleasesServer } from "./server.js";

export const fixture = platformFixture({
  start: startReleasesServer,
  tables: ["releases"],
  samples(operation, variant) {
    if (variant !== 0) return undefined;
    switch (operation) {
      case "list_releases":
      case "count_stable_releases":
        return {};
      case "get_release":
        return { release_id: 182736400 };
      default:
        return undefined;
    }
  },
});
