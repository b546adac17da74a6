import { readFileSync } from "node:fs";

/**
 * The package's contract data: `sdk/contract.json`, beside this runtime's folder (`dist/sdk/` once
 * built: the build script copies it). It holds what the MCP server and the CLI describe (tools,
 * toolsets, commands) as plain JSON, read once at start, so that tsc never infers types over
 * megabytes of literals and the data exists once per package.
 */
const DATA_FILE = new URL("../contract.json", import.meta.url);

let data: Readonly<Record<string, unknown>> | undefined;

/** One section of the contract data; the generated module that reads it gives it its type. */
export function contractData(section: "tools" | "toolsets" | "commands"): unknown {
  data ??= JSON.parse(readFileSync(DATA_FILE, "utf8")) as Readonly<Record<string, unknown>>;
  const value = Object.hasOwn(data, section) ? data[section] : undefined;
  if (value === undefined) throw new Error(`${DATA_FILE.pathname} has no "${section}" section: regenerate the package.`);
  return value;
}
