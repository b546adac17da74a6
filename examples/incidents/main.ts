#!/usr/bin/env node
/** Serve the incidents reference platform: node dist/examples/incidents/main.js --port 4020 --token dev-secret-token */
import { positiveIntegerOption, runExampleCli } from "../shared/cli.js";
import { INCIDENTS_SPEC, startIncidentsServer } from "./server.js";

await runExampleCli({
  spec: INCIDENTS_SPEC,
  start: startIncidentsServer,
  extraOptions: { "count-max-examined": "incidents examined per count_incidents call (default 5000)" },
  extra: (values) => {
    const countMaxExamined = positiveIntegerOption("count-max-examined", values["count-max-examined"]);
    return countMaxExamined === undefined ? {} : { countMaxExamined };
  },
});
