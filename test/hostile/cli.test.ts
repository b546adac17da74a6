/**
 * Hostile use of generated CLIs: names that collide with the CLI's own commands and flags, `no-`
 * fields, sloppy numbers, endless --input, bad --base-url and --journal, and one platform written
 * two ways. In process (emitted command specs, fake client) where that suffices; as real processes
 * of the checked-in generated CLIs (built by global-setup) where files, stdin and HTTP matter.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type CommandSpec } from "../../src/cli-runtime/program.js";
import { commandSpecs } from "../../src/emit/cli/commands.js";
import { RESERVED_COMMANDS, RESERVED_FLAGS } from "../../src/model/naming.js";
import { journalTarget } from "../../src/runtime/client.js";
import { parseContractText } from "../../src/contract/parse.js";
import { emitPackage } from "../../src/emit/index.js";
import { startBillingServer } from "../../examples/billing/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { type LossyProxy, startLossyProxy } from "../e2e/lossy-proxy.js";

const parsed = parseContractText(
  "clash.yaml",
  `contract: clash
version: 1.0.0
changelog: [{ version: 1.0.0, date: 2026-01-01 }]
transport: { http: { baseUrl: "http://127.0.0.1:1" } }
errors: { BAD: { class: invalid_input, action: fix_field, http: 400 } }
operations:
  completion:
    summary: An operation named like the CLI's completion command.
    http: { method: GET, path: /completion }
    effects: { kind: read }
    input:
      type: object
      properties:
        help: { type: string }
        set_help: { type: string }
        version: { type: string }
        no_cache: { type: string }
        cache: { type: boolean }
        a1b: { type: string }
        a_1b: { type: string }
        limit: { type: integer, minimum: 0 }
        ratio: { type: number }
    output: { type: object }
  help:
    summary: An operation named like commander's help command.
    http: { method: GET, path: /help }
    effects: { kind: read }
    input: { type: object, properties: { q: { type: string } } }
    output: { type: object }
`,
);
const model = parsed.model!;
const specs = commandSpecs(model);

async function run(args: string[], stdin: string | Buffer = "{}", commands: readonly CommandSpec[] = specs) {
  const calls: Array<[string, unknown, unknown]> = [];
  let stdout = "";
  let stderr = "";
  // Like the SDK: a call returns a promise, an …All traversal a paginator to collect().
  const method = (name: string) => (input: unknown, bounds?: unknown) => {
    calls.push([name, input, bounds]);
    return name.endsWith("All") ? { collect: async () => ({ items: [], complete: true, reasons: [] }) } : Promise.resolve({ ok: true });
  };
  const client = Object.fromEntries(commands.flatMap((c) => [c.sdkMethod, c.allMethod].filter((m): m is string => m !== null).map((m) => [m, method(m)])));
  const code = await runCli(
    { name: "clash", version: "1.0.0", description: "", tokenEnv: null, commands, createClient: () => ({ ...client, close() {} }) },
    args,
    { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stdin: () => stdin },
  );
  return { code, calls, stdout, stderr };
}

/** The JSON of a CLI error: stdout stays empty, the error is the first line of stderr. */
function errorOf(r: { stdout: string; stderr: string }): any {
  expect(r.stdout).toBe("");
  return JSON.parse(r.stderr.split("\n", 1)[0]!);
}

describe("command and flag names never collide with the CLI's own", () => {
  it("the generated README lists a renamed command by the name the CLI gives it", async () => {
    const readme = (await emitPackage(model)).get("README.md")!;
    // The SDK and MCP tables keep `completion` (method, tool); the CLI table names the command the CLI really has.
    const cliTable = readme.slice(readme.indexOf("| command | summary |")).split("\n\n")[0]!;
    const cliRows = cliTable.split("\n").filter((line) => line.startsWith("| `"));
    expect(cliRows.some((row) => row.startsWith("| `completion-operation` |"))).toBe(true);
    expect(cliRows.some((row) => row.startsWith("| `completion` |"))).toBe(false);
  });
  it("renames reserved commands deterministically and says so in --help", async () => {
    expect(specs.map((s) => s.name)).toEqual(["completion-operation", "help-operation"]);
    for (const name of specs.map((s) => s.name)) expect(RESERVED_COMMANDS.has(name)).toBe(false);
    const help = await run(["completion-operation", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Command for operation completion");
    const top = await run(["--help"]);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain("completion-operation");
    expect((await run(["completion", "bash"])).stdout).toContain("complete -F");
    expect((await run(["help-operation", "--q", "x"])).calls).toEqual([["help", { q: "x" }, undefined]]);
  });

  it("gives every field a unique flag and commander key, reserved names prefixed, then numbered", async () => {
    const flags = specs[0]!.flags.map((f) => [f.field, f.flag]);
    expect(flags).toEqual([
      ["help", "set-help-2"],
      ["set_help", "set-help"],
      ["version", "set-version"],
      ["no_cache", "no-cache"],
      ["cache", "cache"],
      ["a1b", "a1b"],
      ["a_1b", "set-a-1b"],
      ["limit", "limit"],
      ["ratio", "ratio"],
    ]);
    for (const [, flag] of flags) expect(RESERVED_FLAGS.has(flag!)).toBe(false);
    for (const spec of specs) expect((await run([spec.name, "--help"])).code).toBe(0);
    const r = await run(["completion-operation", "--set-help-2", "h", "--set-help", "s", "--set-version", "v", "--a1b", "x", "--set-a-1b", "y"]);
    expect(r.code).toBe(0);
    expect(r.calls).toEqual([["completion", { help: "h", set_help: "s", version: "v", a1b: "x", a_1b: "y" }, undefined]]);
  });

  it("--no-cache <value> sets the no_cache field (not commander's negation of --cache)", async () => {
    const r = await run(["completion-operation", "--no-cache", "X"]);
    expect(r.code).toBe(0);
    expect(r.calls).toEqual([["completion", { no_cache: "X" }, undefined]]);
    const both = await run(["completion-operation", "--cache", "--no-cache", "Y"]);
    expect(both.calls).toEqual([["completion", { no_cache: "Y", cache: true }, undefined]]);
  });
});

describe("fields named like Object.prototype members are flags like any other", () => {
  // Optional fields of every flag type; commander keeps option values in plain objects.
  const proto = parseContractText(
    "proto.yaml",
    `contract: proto
version: 1.0.0
changelog: [{ version: 1.0.0, date: 2026-01-01 }]
transport: { http: { baseUrl: "http://127.0.0.1:1" } }
errors: { BAD: { class: invalid_input, action: fix_field, http: 400 } }
operations:
  get_thing:
    summary: Read.
    http: { method: GET, path: /thing }
    effects: { kind: read }
    input:
      type: object
      properties:
        constructor: { type: string }
        toString: { type: string, enum: [a, b] }
        valueOf: { type: integer }
        hasOwnProperty: { type: array, items: { type: string } }
        isPrototypeOf: { type: boolean }
        propertyIsEnumerable: { type: number }
        toLocaleString: { type: array, items: { type: integer } }
        __proto__: { type: string }
        __defineGetter__: { type: string }
    output: { type: object }
`,
  ).model!;
  const protoSpecs = commandSpecs(proto);

  it("a call that omits them sends none of them (no inherited member becomes a value)", async () => {
    const r = await run(["get-thing"], "{}", protoSpecs);
    expect(r.stdout).not.toContain("error");
    expect(r.code).toBe(0);
    const input = r.calls[0]![1] as object;
    expect(Reflect.ownKeys(input)).toEqual([]);
  });

  it("a call that passes them passes each value through, as own properties", async () => {
    const flags = new Map(protoSpecs[0]!.flags.map((f) => [f.field, `--${f.flag}`]));
    const r = await run(
      ["get-thing", flags.get("constructor")!, "c", flags.get("toString")!, "b", flags.get("valueOf")!, "7", flags.get("hasOwnProperty")!, "x", flags.get("hasOwnProperty")!, "y",
        flags.get("isPrototypeOf")!, flags.get("propertyIsEnumerable")!, "1.5", flags.get("toLocaleString")!, "3", flags.get("__proto__")!, "p", flags.get("__defineGetter__")!, "g"],
      "{}",
      protoSpecs,
    );
    expect(r.stdout).not.toContain("error");
    expect(r.code).toBe(0);
    const input = r.calls[0]![1] as Record<string, unknown>;
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect(Object.fromEntries(Reflect.ownKeys(input).map((k) => [k, input[k as string]]))).toEqual(
      JSON.parse('{"constructor":"c","toString":"b","valueOf":7,"hasOwnProperty":["x","y"],"isPrototypeOf":true,"propertyIsEnumerable":1.5,"toLocaleString":[3],"__proto__":"p","__defineGetter__":"g"}'),
    );
  });

  it("--input values for them are kept when no flag overrides them", async () => {
    const r = await run(["get-thing", "--input", "-"], '{"constructor":"from-input","__proto__":"q"}', protoSpecs);
    expect(r.code).toBe(0);
    const input = r.calls[0]![1] as Record<string, unknown>;
    expect(Reflect.ownKeys(input).sort()).toEqual(["__proto__", "constructor"]);
    expect(input.constructor).toBe("from-input");
  });
});

describe("numbers are parsed strictly and bounded", () => {
  const paged: CommandSpec[] = [{ ...specs[0]!, allMethod: "completionAll" }];
  it.each([
    [["--limit", "0x10"], "expected an integer"],
    [["--limit", "1e1"], "expected an integer"],
    [["--limit", " 5 "], "expected an integer"],
    [["--limit", "5.0"], "expected an integer"],
    [["--limit", "99999999999999999999"], "exact integer range"],
    [["--ratio", "0x10"], "expected a number"],
    [["--ratio", " 1"], "expected a number"],
    [["--ratio", "Infinity"], "expected a number"],
    [["--ratio", "1e400"], "finite"],
    [["--ratio", "1."], "expected a number"],
    [["--all", "--max-pages", "1e1"], "from 1 to 100000"],
    [["--all", "--max-pages", "0"], "from 1 to 100000"],
    [["--all", "--max-items", "0x10"], "from 1 to 10000000"],
    [["--all", "--max-items", "10000001"], "from 1 to 10000000"],
  ])("refuses completion-operation %j", async (args, message) => {
    const r = await run(["completion-operation", ...args], "{}", paged);
    expect(r.code).toBe(2);
    expect(r.calls).toEqual([]);
    expect(errorOf(r).error.message).toContain(message);
  });

  it.each([
    [["--timeout", "2147483648"]],
    [["--timeout", "1e300"]],
    [["--timeout", "0"]],
    [["--timeout", "86400001"]],
    [["--timeout", " 5"]],
    [["--max-attempts", "1e1"]],
    [["--max-attempts", "101"]],
    [["--max-attempts", "0x2"]],
  ])("refuses the global %j with a usage error", async (args) => {
    const r = await run([...args, "completion-operation"]);
    expect(r.code).toBe(2);
    expect(r.calls).toEqual([]);
    expect(errorOf(r).error.message).toMatch(/expected an integer from 1 to (86400000|100)/);
  });

  it("accepts decimal values within bounds", async () => {
    const r = await run(["--timeout", "86400000", "--max-attempts", "100", "completion-operation", "--limit", "7", "--ratio", "-1.5e-3", "--all", "--max-pages", "100000", "--max-items", "10000000"], "{}", paged);
    expect(r.stdout).not.toContain("error");
    expect(r.code).toBe(0);
    expect(r.calls).toEqual([["completionAll", { limit: 7, ratio: -0.0015 }, { maxPages: 100000, maxItems: 10000000 }]]);
  });
});

describe("--input is bounded (10 MiB)", () => {
  const dir = mkdtempSync(join(tmpdir(), "contractgen-hostile-input-"));
  it("refuses a larger file or stdin with a usage error", async () => {
    const big = join(dir, "big.json");
    writeFileSync(big, `{${" ".repeat(10 * 1024 * 1024)}}`);
    const file = await run(["completion-operation", "--input", big]);
    expect(file.code).toBe(2);
    expect(errorOf(file).error.message).toContain("larger than 10485760 bytes (10 MiB)");
    const stdin = await run(["completion-operation", "--input", "-"], Buffer.from(`{${" ".repeat(10 * 1024 * 1024)}}`));
    expect(stdin.code).toBe(2);
    expect(stdin.calls).toEqual([]);
    writeFileSync(join(dir, "ok.json"), `{"q":"x"${" ".repeat(1024)}}`);
    expect((await run(["help-operation", "--input", join(dir, "ok.json")])).calls).toEqual([["help", { q: "x" }, undefined]]);
  });
  it("a folder is a usage error", async () => {
    const r = await run(["completion-operation", "--input", dir]);
    expect(r.code).toBe(2);
    expect(errorOf(r).error.message).toContain("cannot be read (EISDIR)");
  });
});

// ---------------------------------------------------------------------------------------------
// The generated billing CLI as a process.
// ---------------------------------------------------------------------------------------------

const TOKEN = "hostile-cli-token";
const dir = mkdtempSync(join(tmpdir(), "contractgen-hostile-cli-"));
const MAIN = resolve("test-results/sdk/billing.v2/cli/main.js");
let billing: RunningPlatform;
beforeAll(async () => {
  billing = await startBillingServer({ token: TOKEN });
});
afterAll(async () => {
  await billing?.close();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

function cli(args: string[], stdin?: (child: import("node:child_process").ChildProcess) => void): Promise<Run> {
  return new Promise((done) => {
    const child = execFile(process.execPath, [MAIN, ...args], { encoding: "utf8", timeout: 30_000, maxBuffer: 1 << 20, env: { PATH: process.env.PATH ?? "", BILLING_TOKEN: TOKEN } }, (error, stdout, stderr) => {
      const code = error ? ((error as { code?: number }).code ?? -1) : 0;
      let json: unknown = null;
      try {
        // A result is on stdout; an error leaves stdout empty and its JSON is stderr's first line.
        json = JSON.parse(code === 0 ? stdout : stderr.split("\n", 1)[0]!);
      } catch {
        /* asserted by the callers */
      }
      done({ code, stdout, stderr, json });
    });
    stdin?.(child);
  });
}

function journalRows(path: string): number {
  if (!existsSync(path)) return 0;
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM operation_journal").get() as { n: number }).n;
  } catch {
    return 0;
  } finally {
    db.close();
  }
}

describe("the generated CLI refuses endless input", () => {
  it("--input /dev/zero is a usage error, not unbounded growth", async () => {
    const r = await cli(["--base-url", billing.url, "get-invoice", "--input", "/dev/zero"]);
    expect(r.code).toBe(2);
    expect(r.json.error.message).toContain("larger than 10485760 bytes");
  });
  it("--input - with more than 10 MiB on stdin is a usage error", async () => {
    const r = await cli(["--base-url", billing.url, "get-invoice", "--input", "-"], (child) => {
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 12 && child.stdin!.write(chunk)) sent++;
        if (sent < 12) child.stdin!.once("drain", () => (sent++, pump()));
        else child.stdin!.end();
      };
      child.stdin!.on("error", () => {}); // the CLI may stop reading (and exit) before all is written
      pump();
    });
    expect(r.code).toBe(2);
    expect(r.json.error.message).toContain("larger than 10485760 bytes");
  });
});

describe("a base URL that cannot be used is a usage error before any journal entry", () => {
  it.each([
    ["not a url", "not an absolute URL"],
    ["https://user:pa55word@127.0.0.1:1", "contains credentials"],
    ["ftp://127.0.0.1:1", "is not http or https"],
    ["http://127.0.0.1:1/?q=1", "query or fragment"],
    ["http://127.0.0.1:6000", "port 6000 is one fetch refuses"],
  ])("--base-url %s", async (url, problem) => {
    const journal = join(dir, `base-${problem.replace(/\W+/g, "-")}.sqlite`);
    const r = await cli(["--base-url", url, "--journal", journal, "create-customer", "--email", "a@example.com", "--name", "A"]);
    expect(r.code).toBe(2);
    expect(r.json.error).toMatchObject({ code: "CLIENT_INVALID_BASE_URL", outcome: "rejected" });
    expect(r.json.error.message).toContain(problem);
    expect(r.stdout + r.stderr).not.toContain("pa55word");
    expect(journalRows(journal)).toBe(0);
  });
});

describe("a bad --journal is a usage error naming the path and the problem", () => {
  const folder = join(dir, "a-folder");
  mkdirSync(folder, { recursive: true });
  const text = join(dir, "notes.txt");
  writeFileSync(text, "these are not the rows you are looking for\n".repeat(200));
  const other = join(dir, "other.sqlite");
  const db = new Database(other);
  db.exec("CREATE TABLE operation_journal (x TEXT)");
  db.close();
  it.each([
    [join(dir, "missing", "j.sqlite"), "does not exist"],
    [folder, "is a folder"],
    [text, "not a SQLite database"],
    [other, "not a journal's"],
  ])("--journal %s", async (path, problem) => {
    const r = await cli(["--base-url", billing.url, "--journal", path, "create-customer", "--email", "j@example.com", "--name", "J"]);
    expect(r.code).toBe(2);
    expect(r.json.error.code).toBe("CLIENT_JOURNAL_UNUSABLE");
    expect(r.json.error.message).toContain(path);
    expect(r.json.error.message).toContain(problem);
  });
});

describe("one platform, one journal identity", () => {
  it.each([
    ["http://localhost:4010", "http://127.0.0.1:4010"],
    ["http://LOCALHOST:4010/", "http://127.0.0.1:4010"],
    ["http://[::1]:4010//", "http://127.0.0.1:4010"],
    ["http://127.0.0.1:80/v1/", "http://127.0.0.1/v1"],
    ["HTTPS://API.Example.COM:443/V1", "https://api.example.com/V1"],
    ["https://api.example.com./v1", "https://api.example.com/v1"],
  ])("%s is %s", (a, b) => {
    expect(journalTarget(a)).toBe(b);
  });

  it("a lost response via 127.0.0.1, re-run via http://LOCALHOST:port/: one customer", async () => {
    let dropped = false;
    let proxy: LossyProxy | undefined;
    try {
      proxy = await startLossyProxy(billing.url, (req) => {
        if (dropped || req.method !== "POST") return false;
        dropped = true;
        return true;
      });
      const journal = join(dir, "identity.sqlite");
      const args = ["create-customer", "--email", "identity@example.com", "--name", "Identity"];
      const first = await cli(["--base-url", proxy.url, "--journal", journal, ...args]);
      expect(first.code).toBe(9);
      const again = await cli(["--base-url", `${proxy.url.replace("127.0.0.1", "LOCALHOST")}/`, "--journal", journal, ...args]);
      expect(again.code).toBe(0);
      expect(again.json.email).toBe("identity@example.com");
      const listed = await cli(["--base-url", billing.url, "list-customers", "--email", "identity@example.com", "--all"]);
      expect(listed.json.items).toHaveLength(1);
    } finally {
      await proxy?.close();
    }
  });
});
