/**
 * Option parsing every command shares: a mistyped option gets "Did you mean" even when a required
 * option is missing (commander checks its mandatory options first; contractgen checks its required
 * ones after unknown options), and whole-number options take any safe integer (the generated MCP
 * server's --max-catalogue-tokens took at most 9 digits).
 */
import { CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram, run } from "../../src/cli/main.js";
import { parseMcpArgs, positiveInteger } from "../../src/mcp-runtime/bin.js";

async function contractgen(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await run(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false });
  return { code, stdout, stderr };
}

describe("an unknown option close to a known one, with a required option missing", () => {
  it("generate --ouput x: Did you mean --out?", async () => {
    const r = await contractgen("generate", "specs/billing.v2.yaml", "--ouput", "x");
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: unknown option '--ouput'\n(Did you mean --out?)\n");
  });

  it("import-openapi --ouput and overlay-from --opneapi: Did you mean, for every command with a required option", async () => {
    expect((await contractgen("import-openapi", "specs/openapi/bookshelf.yaml", "--ouput", "x.yaml")).stderr).toBe("error: unknown option '--ouput'\n(Did you mean --out?)\n");
    expect((await contractgen("overlay-from", "c.yaml", "--opneapi", "d.yaml", "-o", "x.yaml")).stderr).toBe("error: unknown option '--opneapi'\n(Did you mean --openapi?)\n");
    expect((await contractgen("overlay-from", "c.yaml", "--openapi", "d.yaml", "--ouput", "x.yaml")).stderr).toBe("error: unknown option '--ouput'\n(Did you mean --out?)\n");
  });

  it("a missing required option is still reported, as commander words it, when nothing else is wrong", async () => {
    const r = await contractgen("generate", "specs/billing.v2.yaml");
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: required option '-o, --out <dir>' not specified\n");
    expect((await contractgen("overlay-from", "c.yaml", "-o", "x.yaml")).stderr).toBe("error: required option '--openapi <document>' not specified\n");
    expect((await contractgen("import-openapi", "specs/openapi/bookshelf.yaml")).stderr).toBe("error: required option '-o, --out <file>' not specified\n");
  });

  it("help needs no required option", async () => {
    const r = await contractgen("generate", "--help");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("-o, --out <dir>");
  });

  it("no command keeps a commander-mandatory option (which would be checked before unknown options)", () => {
    const program = buildProgram({ stdout: () => {}, stderr: () => {}, color: false }, () => {});
    const mandatory = program.commands.flatMap((c) => c.options.filter((o) => o.mandatory).map((o) => `${c.name()} ${o.flags}`));
    expect(mandatory).toEqual([]);
  });
});

/** The MCP bin's command line, parsed as a generated server parses it; a refusal's message, or "accepted". */
const mcpInfo = { bearerEnv: "NOTES_MCP_BEARER", baseUrlEnv: null };
const mcpIo = { stdout: () => {}, stderr: () => {}, env: {} };
const parse = (...argv: string[]) => parseMcpArgs({ name: "notes-mcp", version: "1.0.0" }, mcpInfo, argv, mcpIo);
const refusal = (...argv: string[]) => {
  try {
    parse(...argv);
  } catch (e) {
    if (e instanceof CommanderError) return e.message;
    throw e;
  }
  return "accepted";
};

describe("whole-number options", () => {

  it("--max-catalogue-tokens takes any safe integer (1000000000 was refused: at most 9 digits)", () => {
    expect(parse("--max-catalogue-tokens", "1000000000")?.serve.maxCatalogueTokens).toBe(1_000_000_000);
    expect(parse("--max-catalogue-tokens", String(Number.MAX_SAFE_INTEGER))?.serve.maxCatalogueTokens).toBe(Number.MAX_SAFE_INTEGER);
    expect(parse("--max-catalogue-tokens", "1")?.serve.maxCatalogueTokens).toBe(1);
  });

  it("refuses beyond Number.MAX_SAFE_INTEGER, and what is not a whole number of at least 1, saying why", () => {
    expect(refusal("--max-catalogue-tokens", "9007199254740992")).toBe(
      "error: option '--max-catalogue-tokens <n>' argument '9007199254740992' is invalid. 9007199254740992 is too large: the largest whole number taken is 9007199254740991 (Number.MAX_SAFE_INTEGER).",
    );
    expect(refusal("--max-catalogue-tokens", "0")).toBe("error: option '--max-catalogue-tokens <n>' argument '0' is invalid. expected a whole number of at least 1.");
    expect(refusal("--max-catalogue-tokens", "1e9")).toBe("error: option '--max-catalogue-tokens <n>' argument '1e9' is invalid. expected a whole number of at least 1 (decimal digits only).");
    expect(refusal("--max-catalogue-tokens", "-5")).toContain("expected a whole number of at least 1");
    expect(() => positiveInteger("12.5")).toThrow("decimal digits only");
    expect(() => positiveInteger("1".repeat(40))).toThrow(`${"1".repeat(24)}… is too large`);
  });
});

describe("the MCP server's --mode", () => {

  it("tools (the default), discovery (also --discovery) or code; code keeps the allow-lists that choose its methods", () => {
    expect(parse()?.serve).toEqual({});
    expect(parse("--mode", "tools")?.serve).toEqual({});
    expect(parse("--mode", "discovery")?.serve).toEqual({ discovery: true });
    expect(parse("--discovery")?.serve).toEqual({ discovery: true });
    expect(parse("--mode", "code", "--toolsets", "notes")?.serve).toEqual({ code: true, toolsets: ["notes"] });
  });

  it("refuses a mode it does not know, --discovery beside another mode, and --text in code mode (the program shapes its result)", () => {
    expect(refusal("--mode", "eval")).toContain("Allowed choices are tools, discovery, code");
    expect(refusal("--discovery", "--mode", "code")).toBe("error: --discovery contradicts --mode code");
    expect(refusal("--mode", "code", "--text", "compact")).toContain("code mode returns what the program returns");
  });
});
