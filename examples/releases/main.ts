#!/usr/bin/env node
/** Serve the releases reference platform: node dist/examples/releases/main.js --port 4030 --token dev-secret-token --dataset mixed */
import { positiveIntegerOption, runExampleCli } from "../shared/cli.js";
import { RELEASE_DATASETS, RELEASES_SPEC, type ReleaseDataset, startReleasesServer } from "./server.js";

await runExampleCli({
  spec: RELEASES_SPEC,
  start: startReleasesServer,
  extraOptions: {
    dataset: `releases to seed: ${RELEASE_DATASETS.join(", ")} (default: default)`,
    "count-max-examined": "releases examined per count_stable_releases call (default 10000)",
  },
  extra: (values) => {
    const dataset = values.dataset ?? "default";
    if (!(RELEASE_DATASETS as readonly string[]).includes(dataset)) throw new Error(`--dataset must be one of ${RELEASE_DATASETS.join(", ")}`);
    const countMaxExamined = positiveIntegerOption("count-max-examined", values["count-max-examined"]);
    return { dataset: dataset as ReleaseDataset, ...(countMaxExamined === undefined ? {} : { countMaxExamined }) };
  },
});
