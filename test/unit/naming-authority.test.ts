/**
 * One naming authority (src/model/naming.ts): the semantic diff and the model read names from it and
 * never from an emitter, so a reviewer of a diff rule needs no emitter to know what a command, flag,
 * method or tool is called; and the emitters' names are the naming module's.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { operationFlags } from "../../src/emit/cli/commands.js";
import { cliFlagNames } from "../../src/model/naming.js";
import { parseContract } from "../../src/contract/parse.js";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

describe("naming authority", () => {
  it("the diff and the model import nothing from the emitters", () => {
    const offenders = [...sources("src/diff"), ...sources("src/model")].filter((f) => /from "(\.\.\/)+emit\//.test(readFileSync(f, "utf8")));
    expect(offenders).toEqual([]);
  });

  it("the CLI emitter's flags are the naming module's, field for field", () => {
    for (const spec of ["specs/billing.v2.yaml", "specs/incidents.yaml", "specs/releases.yaml"]) {
      const model = parseContract(spec).model!;
      for (const op of model.operations) {
        const emitted = operationFlags(op);
        const named = cliFlagNames(op);
        expect(emitted.flags.map((f) => [f.field, f.flag])).toEqual(named.flags.map((f) => [f.field, f.flag]));
        expect(emitted.inputOnly).toEqual(named.inputOnly);
      }
    }
  });
});
