#!/usr/bin/env node
/** Serve the billing reference platform: node dist/examples/billing/main.js --port 4010 --token dev-secret-token */
import { runExampleCli } from "../shared/cli.js";
import { BILLING_SPEC, startBillingServer } from "./server.js";

await runExampleCli({ spec: BILLING_SPEC, start: startBillingServer, extra: () => ({}) });
