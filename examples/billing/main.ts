#!/usr/bin/env node
/** Serve the billing reference platform: node dist/examples/billing/main.js --port 4010 --token secret */
import { runExampleCli } from "../shared/cli.js";
import { BILLING_SPEC, startBillingServer } from "./server.js";

await runExampleCli({ spec: BILLING_SPEC, start: startBillingServer, extra: () => ({}) });
