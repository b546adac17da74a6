/**
 * README.md is a map of what ships: every command of the `contractgen` program has its page in
 * docs/commands/ and the README links it (completion, which has no options of its own, is named in
 * the README), and the bin path the development notes give is the one bin/ runs.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const readme = readFileSync("README.md", "utf8");
const help = spawnSync(process.execPath, ["bin/contractgen.js", "--help"], { encoding: "utf8" }).stdout;
const commands = [...help.slice(help.indexOf("Commands:")).matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]!).filter((c) => c !== "help");

describe("README.md", () => {
  it("links a page for every command, and each page is headed by its command", () => {
    expect(commands).toEqual(expect.arrayContaining(["validate", "generate", "diff", "budget", "completion"]));
    for (const c of commands) {
      if (c === "completion") {
        expect(readme).toContain("`contractgen completion");
        continue;
      }
      expect(readme, c).toContain(`(docs/commands/${c}.md)`);
      expect(readFileSync(`docs/commands/${c}.md`, "utf8").split("\n")[0], c).toBe(`# \`contractgen ${c}\``);
    }
  });

  it("gives the path bin/contractgen.js really runs", () => {
    const stated = readFileSync("docs/development.md", "utf8").match(/bin\/contractgen\.js runs (\S+?)\)/)![1]!;
    expect(readFileSync("bin/contractgen.js", "utf8")).toContain(`"../${stated}"`);
    expect(existsSync(stated)).toBe(true);
  });
});
