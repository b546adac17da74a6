/**
 * README.md describes what ships: every command of the `contractgen` program is documented, the
 * status line names none of them as unbuilt, and the bin path it gives is the one bin/ runs.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const readme = readFileSync("README.md", "utf8");
const help = spawnSync(process.execPath, ["bin/contractgen.js", "--help"], { encoding: "utf8" }).stdout;
const commands = [...help.slice(help.indexOf("Commands:")).matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]!).filter((c) => c !== "help");

describe("README.md", () => {
  it("lists every command, each with its own section (completion only in the table)", () => {
    expect(commands).toEqual(expect.arrayContaining(["validate", "generate", "diff", "budget", "completion"]));
    for (const c of commands) {
      expect(readme, c).toContain(`| \`contractgen ${c} `);
      if (c !== "completion") expect(readme, c).toContain(`### \`contractgen ${c}\``);
    }
  });

  it("has a status line that calls no shipped command unbuilt", () => {
    const status = readme.match(/^Status: [\s\S]*?\n\n/m)![0];
    const unbuilt = status.slice(status.search(/not (built|done)/) === -1 ? status.length : status.lastIndexOf(".", status.search(/not (built|done)/)));
    for (const c of commands) expect(unbuilt, c).not.toContain(`\`${c}\``);
  });

  it("gives the path bin/contractgen.js really runs", () => {
    const stated = readme.match(/bin\/contractgen\.js runs (\S+?)\)/)![1]!;
    expect(readFileSync("bin/contractgen.js", "utf8")).toContain(`"../${stated}"`);
    expect(existsSync(stated)).toBe(true);
  });
});
