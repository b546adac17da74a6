/**
 * The generated README tells the truth about the package's bins and suite (issue 41): every flag value
 * it documents is one the generated CLI or MCP server accepts, re-running a confirmed command is
 * described as each kind of operation behaves, and the fixture's whole interface is written down,
 * here and in `contractgen test --help`.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { emitPackageFiles } from "../../src/emit/package/package.js";
import { commandSpecs, confirmRerunText } from "../../src/emit/cli/commands.js";
import { parseContract } from "../../src/contract/parse.js";
import { parseMcpArgs } from "../../src/mcp-runtime/bin.js";
import { runCli } from "../../src/cli-runtime/program.js";
import type { ContractModel, OperationModel } from "../../src/model/types.js";

const SPECS = ["specs/billing.v2.yaml", "specs/billing.v1.yaml", "specs/incidents.yaml", "specs/releases.yaml"];
const model = (spec: string): ContractModel => parseContract(spec).model!;
const readmeOf = (m: ContractModel, mcp: "adapter" | "skeleton" = "adapter") => emitPackageFiles(m, mcp)["README.md"]!;

/** The text of one `## ` section of a README. */
function section(readme: string, heading: string): string {
  const from = readme.indexOf(`\n## ${heading}`);
  expect(from, `README has a "## ${heading}" section`).toBeGreaterThan(-1);
  const to = readme.indexOf("\n## ", from + 4);
  return readme.slice(from, to === -1 ? undefined : to);
}

/** Every `--flag a|b|c` the text documents: the flag and each value it says is allowed. */
function documentedChoices(text: string): Array<{ flag: string; value: string }> {
  const found: Array<{ flag: string; value: string }> = [];
  for (const m of text.matchAll(/`--([a-z][a-z-]*) ([a-z0-9_-]+(?:\|[a-z0-9_-]+)+)`/g)) for (const value of m[2]!.split("|")) found.push({ flag: m[1]!, value });
  return found;
}

const io = () => {
  const out = { stdout: "", stderr: "" };
  return { out, io: { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t), env: {} } };
};
const mcpInfo = { bearerEnv: "X_MCP_TOKEN", baseUrlEnv: null };

/** Whether the generated MCP server's command line takes `--flag value`. */
function mcpAccepts(flag: string, value: string): boolean {
  const { io: mcpIo } = io();
  try {
    return parseMcpArgs({ name: "x-mcp", version: "1.0.0" }, mcpInfo, [`--${flag}`, value], mcpIo) !== null;
  } catch {
    return false;
  }
}

/** Whether the generated CLI takes the global `--flag value` (before a command that needs no platform). */
async function cliAccepts(m: ContractModel, flag: string, value: string): Promise<boolean> {
  const { out, io: cliIo } = io();
  const def = { name: "x", version: "1.0.0", description: "x", credentialEnv: [], baseUrlEnv: null, commands: commandSpecs(m), createClient: () => { throw new Error("no client"); } };
  const code = await runCli(def as never, [`--${flag}`, value, "completion", "bash"], cliIo);
  return code === 0 && out.stdout.length > 0;
}

describe("the generated README documents only flag values the bins accept", () => {
  it("the checker itself refuses a value the MCP server does not take (--text summary)", () => {
    expect(mcpAccepts("text", "compact")).toBe(true);
    expect(mcpAccepts("text", "summary")).toBe(false);
  });

  it.each(SPECS)("%s: every `--flag a|b` of the MCP server section is accepted by the MCP server", (spec) => {
    for (const mode of ["adapter", "skeleton"] as const) {
      const choices = documentedChoices(section(readmeOf(model(spec), mode), "MCP server"));
      expect(choices.map((c) => c.flag)).toContain("text");
      for (const { flag, value } of choices) expect(mcpAccepts(flag, value), `${spec} (${mode}): --${flag} ${value}`).toBe(true);
    }
  });

  it.each(SPECS)("%s: every `--flag a|b` of the command line section is accepted by the CLI", async (spec) => {
    const m = model(spec);
    const choices = documentedChoices(section(readmeOf(m), "Command line"));
    expect(choices.map((c) => c.flag)).toContain("output");
    for (const { flag, value } of choices) expect(await cliAccepts(m, flag, value), `${spec}: --${flag} ${value}`).toBe(true);
  });
});

describe("re-running a confirmed command, as each kind of operation behaves", () => {
  const billing = model("specs/billing.v2.yaml");
  const refund = billing.operations.find((op) => op.names.id === "refund_invoice")!;

  it("a keyed operation: the journal's recorded result, nothing sent; with another journal the platform refuses the spent token", () => {
    const readme = readmeOf(billing).replace(/\s+/g, " ");
    expect(readme).not.toContain("prints the recorded result instead of executing again");
    expect(readme).toContain(
      "`refund-invoice`: prints the result the journal recorded and sends nothing, for 24h (the operation key's retention); with another journal it reaches the platform under a new key, which refuses the spent token (CONFIRMATION_REQUIRED).",
    );
    const details = commandSpecs(billing).find((c) => c.operation === "refund_invoice")!.details;
    expect(details).toContain(`Re-running a confirmed call (same parameters, same --confirm token) after it succeeded: ${confirmRerunText(refund)}`);
  });

  it("without an operation key the token is single-use at the platform, unless singleUse is false", () => {
    const unkeyed: OperationModel = { ...refund, idempotency: null };
    expect(confirmRerunText(unkeyed)).toBe("no operation key, so no journal: it reaches the platform again, which refuses the spent token (CONFIRMATION_REQUIRED), since the token is single-use; preview again for a new token.");
    const reusable: OperationModel = { ...refund, idempotency: null, preview: { ...refund.preview!, singleUse: false } };
    expect(confirmRerunText(reusable)).toBe("no operation key, so no journal: it reaches the platform again, which executes it again, since the token is not single-use (preview.singleUse: false) and stays valid for 10m.");
    expect(confirmRerunText(billing.operations.find((op) => op.names.id === "get_invoice")!)).toBeNull();
  });
});

describe("the fixture's interface is written down where users look", () => {
  // Every member of the Fixture interface, read from its source: a member added there and not here fails.
  const harness = readFileSync("src/tests-runtime/harness.ts", "utf8");
  const body = harness.slice(harness.indexOf("export interface Fixture {"), harness.indexOf("\n}\n", harness.indexOf("export interface Fixture {")));
  const members = [...body.matchAll(/^ {2}(?:readonly )?([a-zA-Z]+)\??[(:]/gm)].map((m) => m[1]!);

  it("reads the interface's members", () => {
    expect(members).toEqual(expect.arrayContaining(["baseUrl", "token", "credentials", "reset", "sampleInput", "observe", "failAfterCommit", "enabler"]));
  });

  it("the generated README's contract-test section names the export, the module types, the token's source and every member", () => {
    const text = section(readmeOf(model("specs/billing.v2.yaml")), "Contract tests").replace(/\s+/g, " ");
    expect(text).toContain("named export `fixture` is a `Fixture`");
    expect(text).toContain("(`.ts`, `.mts`, `.js`, `.mjs`");
    expect(text).toContain("reads it from `CONTRACT_TOKEN`, else `BILLING_TOKEN`");
    for (const member of members.filter((m) => m !== "credentials")) expect(text, member).toContain(`\`${member}`);
  });

  it("a contract with credential schemes documents `credentials` instead of `token`", () => {
    const m = model("specs/billing.v2.yaml");
    const schemes = { ...m, transport: { ...m.transport, auth: { form: "schemes", schemes: [{ name: "key", type: "apiKey", in: "header", paramName: "X-Key", env: "KEY" }], require: [["key"]] } } } as unknown as ContractModel;
    const text = section(readmeOf(schemes), "Contract tests").replace(/\s+/g, " ");
    expect(text).toContain("`credentials`, a `Map` by scheme name");
  });

  it("`contractgen test --help` names the export, the module types, the token's source and every member", () => {
    const r = spawnSync(process.execPath, [resolve("bin/contractgen.js"), "test", "--help"], { encoding: "utf8" });
    expect(r.status).toBe(0);
    const text = r.stdout.replace(/\s+/g, " ");
    expect(text).toContain("named export `fixture` is a Fixture");
    expect(text).toContain("(.ts, .mts, .js, .mjs)");
    expect(text).toContain("CONTRACT_TOKEN");
    for (const member of members) expect(text, member).toContain(member);
  });
});
