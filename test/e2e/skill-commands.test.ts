/**
 * Every command line an example's Agent Skill shows is one its CLI accepts, and every worked example
 * succeeds against the reference platform (issue 42, item 3). The lines are read from the skill as
 * checked in (generated-examples/<name>/skill/, what `generate` writes): fenced `sh` blocks and inline
 * code that starts with the bin. Each flag a command's section names is one that command takes. The
 * worked examples run in order from the platform's initial state, as a user would fill them in: a
 * `<placeholder>` takes the value the platform's contract-test fixture gives for that field (its
 * sample of a call known to succeed) or, for a field the sample leaves out, a value its schema
 * accepts; `<token>` the confirm token the preview before it printed, read from the field the
 * reference names.
 */
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { BILLING_SPEC } from "../../examples/billing/server.js";
import { BOOKSHELF_OVERLAYS, BOOKSHELF_SPEC } from "../../examples/bookshelf/server.js";
import { INCIDENTS_SPEC } from "../../examples/incidents/server.js";
import { RELEASES_SPEC } from "../../examples/releases/server.js";
import { loadExampleContract } from "../../examples/shared/example.js";
import type { Fixture } from "../../src/tests-runtime/harness.js";
import { schemaValue } from "../../src/tests-runtime/schema-values.js";

const EXAMPLES = ["billing.v2", "incidents", "releases", "bookshelf"] as const;
/** Each example's contract-test fixture and contract (spec, overlays). */
const PLATFORMS: Readonly<Record<(typeof EXAMPLES)[number], { fixture: string; spec: string; overlays?: readonly string[] }>> = {
  "billing.v2": { fixture: "../../examples/billing/contract-fixture.js", spec: BILLING_SPEC },
  incidents: { fixture: "../../examples/incidents/contract-fixture.js", spec: INCIDENTS_SPEC },
  releases: { fixture: "../../examples/releases/contract-fixture.js", spec: RELEASES_SPEC },
  bookshelf: { fixture: "../../examples/bookshelf/contract-fixture.js", spec: BOOKSHELF_SPEC, overlays: BOOKSHELF_OVERLAYS },
};
const dir = mkdtempSync(join(tmpdir(), "contractgen-skill-commands-"));

interface Skill {
  readonly bin: string;
  /** Path (SKILL.md, references/x.md) → text. */
  readonly files: Map<string, string>;
}

function skillOf(example: string): Skill {
  const root = resolve(`generated-examples/${example}/skill`);
  const [name] = readdirSync(root);
  const files = new Map<string, string>([["SKILL.md", readFileSync(join(root, name!, "SKILL.md"), "utf8")]]);
  for (const file of readdirSync(join(root, name!, "references")).sort()) files.set(`references/${file}`, readFileSync(join(root, name!, "references", file), "utf8"));
  const bin = /Run the `([^`]+)` CLI/.exec(files.get("SKILL.md")!)?.[1];
  expect(bin, `${example}: SKILL.md names its bin`).toBeDefined();
  return { bin: bin!, files };
}

/** Words of a command line as a POSIX shell splits it (plain or single-quoted words, as the emitter quotes). */
const shellWords = (line: string): string[] => [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replaceAll("'\\''", "'") : m[2]!));

/** Every fenced `sh` block of a file, each as its lines. */
const blocksOf = (text: string): string[][] => [...text.matchAll(/^(`{3,})sh\n([\s\S]*?)\n\1$/gm)].map((m) => m[2]!.split("\n"));

/** The `## \`command\`` sections of a reference: command → section text. */
function sectionsOf(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const heads = [...text.matchAll(/^## `([^`]+)`$/gm)];
  heads.forEach((m, i) => out.set(m[1]!, text.slice(m.index!, heads[i + 1]?.index)));
  return out;
}

const main = (example: string) => resolve(`test-results/sdk/${example}/cli/main.js`);

/** The long options a --help lists. */
function optionsOf(example: string, args: string[]): Set<string> {
  const help = spawnSync(process.execPath, [main(example), ...args, "--help"], { encoding: "utf8" });
  expect(help.status, `${args.join(" ")} --help`).toBe(0);
  return new Set([...help.stdout.matchAll(/^\s+(?:-\w, )?(--[a-z0-9-]+)/gm)].map((m) => m[1]!));
}

describe.each(EXAMPLES)("the Agent Skill of %s", (example) => {
  const skill = skillOf(example);
  const global = optionsOf(example, []);
  const commandOptions = new Map<string, Set<string>>();
  const optionsFor = (command: string) => {
    if (!commandOptions.has(command)) commandOptions.set(command, optionsOf(example, [command]));
    return commandOptions.get(command)!;
  };

  it("shows only command lines the CLI accepts: a command it has, flags that command takes, a value after each value flag", () => {
    const lines: Array<{ file: string; line: string }> = [];
    for (const [file, text] of skill.files) {
      for (const block of blocksOf(text)) for (const line of block) lines.push({ file, line });
      for (const m of text.matchAll(/`([^`\n]+)`/g)) if (m[1]!.startsWith(`${skill.bin} `)) lines.push({ file, line: m[1]! });
    }
    expect(lines.length).toBeGreaterThan(2);
    const commands = new Set([...skill.files.values()].flatMap((text) => [...sectionsOf(text).keys()]));
    for (const { file, line } of lines) {
      const words = shellWords(line);
      expect(words[0], `${file}: ${line}`).toBe(skill.bin);
      // `<bin> <command> --help` stands for every command.
      const targets = words[1] === "<command>" ? [...commands] : [words[1]!];
      for (const command of targets) {
        expect(commands.has(command), `${file}: ${line}: ${command} is a command of the skill`).toBe(true);
        const accepted = new Set([...optionsFor(command), ...global]);
        words.slice(2).forEach((word, i, rest) => {
          if (!word.startsWith("--")) return;
          expect(accepted.has(word), `${file}: ${line}: ${command} takes ${word}`).toBe(true);
          const next = rest[i + 1];
          if (!["--dry-run", "--all", "--help"].includes(word)) expect(next !== undefined && !next.startsWith("--"), `${file}: ${line}: ${word} has a value`).toBe(true);
        });
      }
    }
  });

  it("names, in each command's section, only flags that command (or the CLI) takes", () => {
    let named = 0;
    for (const [file, text] of skill.files) {
      for (const [command, section] of sectionsOf(text)) {
        const accepted = new Set([...optionsFor(command), ...global]);
        for (const m of section.matchAll(/`(--[a-z0-9-]+)[^`]*`/g)) {
          named++;
          expect(accepted.has(m[1]!), `${file} ${command}: ${m[1]}`).toBe(true);
        }
      }
    }
    expect(named).toBeGreaterThan(0);
  });

  it("runs every worked example against the reference platform, from its initial state, with the fixture's values for placeholders", async () => {
    const fixture = (await import(PLATFORMS[example].fixture)).fixture as Fixture;
    const model = await loadExampleContract(PLATFORMS[example].spec, PLATFORMS[example].overlays);
    const contract = JSON.parse(readFileSync(`generated-examples/${example}/sdk/contract.json`, "utf8")) as { commands: Array<{ operation: string; name: string; flags: Array<{ field: string; flag: string }> }> };
    const body = skill.files.get("SKILL.md")!;
    const credentialVars = [...(/^- Credentials: (.*)$/m.exec(body)?.[1] ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    const baseUrlVar = /^- Platform: `([^`]+)`/m.exec(body)?.[1];
    expect(baseUrlVar).toBeDefined();
    await fixture.start?.();
    let ran = 0;
    try {
      for (const [file, text] of skill.files) {
        for (const [command, section] of sectionsOf(text)) {
          const spec = contract.commands.find((c) => c.name === command)!;
          expect(spec, `${file}: ${command} is a command of the package`).toBeDefined();
          const tokenField = /confirm token in `([^`]+)`/.exec(section)?.[1];
          for (const block of blocksOf(section)) {
            await fixture.reset();
            const env: Record<string, string> = { PATH: process.env.PATH ?? "", [baseUrlVar!]: fixture.baseUrl };
            for (const name of credentialVars) env[name] = fixture.token ?? "";
            const journal = join(dir, `${example}-${command}-${ran}.sqlite`);
            const sample = fixture.sampleInput(spec.operation, 0) ?? {};
            let previous: Record<string, unknown> | null = null;
            for (const line of block) {
              const words = shellWords(line).map((word, i, all) => {
                const placeholder = /^<([a-z0-9-]+)>$/.exec(word)?.[1];
                if (placeholder === undefined) return word;
                if (placeholder === "token" && all[i - 1] === "--confirm") {
                  expect(tokenField, `${file} ${command}: the reference says where the confirm token is`).toBeDefined();
                  return String(previous?.[tokenField!]);
                }
                const field = spec.flags.find((f) => f.flag === placeholder)?.field;
                expect(field, `${file}: ${line}: <${placeholder}> is a flag of ${command}`).toBeDefined();
                if (sample[field!] !== undefined) return String(sample[field!]);
                const root = model.operations.find((op) => op.names.id === spec.operation)!.input.schema as Record<string, unknown>;
                const value = schemaValue(root, (root.properties as Record<string, unknown>)[field!]);
                expect(value, `${file}: ${line}: a value for <${placeholder}>`).toBeDefined();
                return String(value!.value);
              });
              const r = await new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
                execFile(process.execPath, [main(example), "--journal", journal, ...words.slice(1)], { encoding: "utf8", env }, (error, stdout, stderr) =>
                  done({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
                ),
              );
              expect(r.code === 0 ? "exit 0" : `exit ${r.code}: ${r.stderr.split("\n")[0]}`, `${file}: ${line}`).toBe("exit 0");
              previous = JSON.parse(r.stdout) as Record<string, unknown>;
              ran++;
            }
          }
        }
      }
    } finally {
      await fixture.stop?.();
    }
    expect(ran).toBeGreaterThanOrEqual(contract.commands.length);
  });
});
