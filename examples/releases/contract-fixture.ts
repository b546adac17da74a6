/** The generated contract suite's fixture for the releases reference platform (test/contract-suite). */
import { platformFixture } from "../shared/contract-fixture.js";
import { RELEASE_FACTS, RELEASES_SPEC, startReleasesServer } from "./server.js";

export const fixture = platformFixture({
  spec: RELEASES_SPEC,
  start: startReleasesServer,
  tables: ["releases"],
  datasets: { empty: "empty", mixed: "mixed" },
  boundedTasks: true,
  shardFailure: { code: "UPSTREAM_TIMEOUT", message: "A release store shard did not answer in time; its releases are missing from this page." },
  taskResults(operation, input) {
    // The suite's token may write releases, so drafts are visible and examined too.
    const facts = RELEASE_FACTS.default;
    return operation === "count_stable_releases" && Object.keys(input).length === 0 ? { recordsExamined: facts.releases, answer: facts.stable } : undefined;
  },
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
  async errors(operation, code, ctx) {
    switch (`${operation} ${code}`) {
      case "get_release RELEASE_NOT_FOUND":
        return { release_id: 1 };
      case "list_releases CURSOR_EXPIRED": {
        // Cursors live 10 minutes.
        const page = await ctx.get("/releases?limit=1");
        ctx.advanceTime(11 * 60_000);
        return { limit: 1, cursor: page.next_cursor };
      }
      case "count_stable_releases CURSOR_EXPIRED": {
        // An incomplete count (a per-call bound below the project's releases) gives a continuation; it lives 10 minutes too.
        await ctx.restartBounded(2);
        const first = await ctx.get("/stable-release-count");
        ctx.advanceTime(11 * 60_000);
        return { continuation: first.continuation };
      }
      default:
        return undefined;
    }
  },
});
