// What generated-examples/ holds: every contract in specs/ generated as is, the OpenAPI example of
// specs/openapi/ with its overlay, plus variants that exercise other generate options.
// `npm run update:golden` writes them; test/emit/golden.test.ts checks them with `generate --check`.
import { readdirSync } from "node:fs";

/** @returns {Array<{ name: string, spec: string, args: string[] }>} sorted by name */
export function goldenTargets() {
  const specs = readdirSync("specs").filter((f) => f.endsWith(".yaml")).sort().map((f) => f.replace(/\.yaml$/, ""));
  const targets = specs.map((name) => ({ name, spec: `specs/${name}.yaml`, args: [] }));
  // An OpenAPI document plus an overlay, imported in memory: the OpenAPI-first team's package.
  targets.push({ name: "bookshelf", spec: "specs/openapi/bookshelf.yaml", args: ["--overlay", "specs/openapi/bookshelf.overlay.yaml"] });
  // Skeleton mode: handler stubs (write-once) served through the contract host, over MCP and over HTTP.
  targets.push({ name: "incidents-skeleton", spec: "specs/incidents.yaml", args: ["--server", "skeleton"] });
  return targets.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
