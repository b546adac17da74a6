/** Shell completion scripts of contractgen and of a generated CLI: valid shell, useful answers. */
import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";

const scripts = {
  contractgen: () => execFileSync(process.execPath, [resolve("bin/contractgen.js"), "completion", "bash"], { encoding: "utf8" }),
  billing: () => execFileSync(process.execPath, [resolve("test-results/sdk/billing.v2/cli/main.js"), "completion", "bash"], { encoding: "utf8" }),
};
const hasZsh = spawnSync("zsh", ["--version"]).status === 0;

/** What bash completion offers for the words typed so far. */
function complete(script: string, fn: string, words: string[]): string[] {
  const file = join(tmpdir(), `completion-${process.pid}-${fn}.bash`);
  writeFileSync(file, script);
  const cmd = `source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; ${fn}; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync("bash", ["-c", cmd], { encoding: "utf8" }).split("\n").filter(Boolean);
}

describe("completion scripts", () => {
  it("contractgen's bash script completes its commands and options", () => {
    const script = scripts.contractgen();
    expect(spawnSync("bash", ["-n"], { input: script }).status).toBe(0);
    expect(complete(script, "_contractgen_completion", ["contractgen", "gen"])).toEqual(["generate"]);
    expect(complete(script, "_contractgen_completion", ["contractgen", "generate", "--ch"])).toEqual(["--check"]);
    expect(complete(script, "_contractgen_completion", ["contractgen", "tes"])).toEqual(["test"]);
    expect(complete(script, "_contractgen_completion", ["contractgen", "test", "--rep"])).toEqual(["--report-dir"]);
    expect(complete(script, "_contractgen_completion", ["contractgen", "validate", "--format", ""])).toEqual(["text", "json"]);
  });

  it("a generated CLI's bash script completes operations, flags and enum choices", () => {
    const script = scripts.billing();
    expect(spawnSync("bash", ["-n"], { input: script }).status).toBe(0);
    expect(complete(script, "_billing_completion", ["billing", "refund"])).toEqual(["refund-invoice"]);
    expect(complete(script, "_billing_completion", ["billing", "refund-invoice", "--con"])).toEqual(["--confirm"]);
    expect(complete(script, "_billing_completion", ["billing", "refund-invoice", "--reason", ""])).toEqual(["duplicate", "fraudulent", "requested_by_customer", "failed_delivery"]);
  });

  it.skipIf(!hasZsh)("zsh scripts parse", () => {
    for (const [name, args] of [["contractgen", [resolve("bin/contractgen.js")]], ["billing", [resolve("test-results/sdk/billing.v2/cli/main.js")]]] as const) {
      const script = execFileSync(process.execPath, [...args, "completion", "zsh"], { encoding: "utf8" });
      expect(script).toContain(`#compdef ${name}`);
      expect(spawnSync("zsh", ["-n"], { input: script }).status).toBe(0);
    }
  });
});
