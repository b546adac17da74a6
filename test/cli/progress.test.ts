/** Progress on a terminal: stderr only, only on a TTY, only for work longer than the delay. */
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { run, type Io } from "../../src/cli/main.js";
import { createProgress } from "../../src/cli/progress.js";

const BIN = resolve("bin/contractgen.js");
const work = resolve("test-results/cli-progress");
const SPEC = "specs/billing.v2.yaml";
// A progress line: carriage return, text, erase to end of line (or the bare clear).
const PROGRESS = /\r(?:contractgen: [^\r\n]*)?\x1b\[K/g;

function fakeIo(isTTY: boolean) {
  const out = { stdout: "", stderr: "" };
  const io: Io = {
    stdout: (t) => void (out.stdout += t),
    stderr: (t) => void (out.stderr += t),
    color: false,
    stderrIsTTY: isTTY,
    progressDelayMs: 0,
  };
  return { io, out };
}

describe("progress reporter", () => {
  it("waits for the delay, throttles redraws within a phase, redraws on a new phase, clears at the end", () => {
    let now = 0;
    const written: string[] = [];
    const p = createProgress({ write: (t) => written.push(t), isTTY: true, delayMs: 1000, throttleMs: 100, now: () => now });
    p.update("parse", 0, 1);
    now = 999;
    p.update("validate", 1, 13);
    expect(written).toEqual([]);
    now = 1000;
    p.update("validate", 2, 13);
    now = 1050;
    p.update("validate", 3, 13); // throttled
    p.update("emit sdk", 0, 5); // new phase: drawn at once
    p.end();
    p.end(); // nothing left to clear
    expect(written).toEqual([
      "\rcontractgen: validate 2/13 (1.0 s)\x1b[K",
      "\rcontractgen: emit sdk 0/5 (1.1 s)\x1b[K",
      "\r\x1b[K",
    ]);
  });

  it("prints nothing when the work ends within the delay, when stderr is not a terminal, or with --no-progress", () => {
    let now = 0;
    const written: string[] = [];
    const quick = createProgress({ write: (t) => written.push(t), isTTY: true, now: () => now });
    now = 900;
    quick.update("validate", 5, 13);
    quick.end();
    const pipe = createProgress({ write: (t) => written.push(t), isTTY: false, delayMs: 0, now: () => now });
    const off = createProgress({ write: (t) => written.push(t), isTTY: true, enabled: false, delayMs: 0, now: () => now });
    for (const p of [pipe, off]) {
      now += 5000;
      p.update("validate", 5, 13);
      p.end();
    }
    expect(written).toEqual([]);
  });
});

describe("progress in the commands", () => {
  const stable = (s: string) => s.replace(/in \d+ ms/g, "in N ms");

  it("generate on a terminal: phases on stderr, stdout identical to a run without a terminal", async () => {
    const tty = fakeIo(true);
    const pipe = fakeIo(false);
    rmSync(work, { recursive: true, force: true });
    expect(await run(["generate", SPEC, "-o", join(work, "tty")], tty.io)).toBe(0);
    expect(await run(["generate", SPEC, "-o", join(work, "pipe")], pipe.io)).toBe(0);
    for (const phase of ["validate", "model", "emit sdk", "emit cli", "emit mcp", "emit tests", "emit package", "write"]) {
      expect(tty.out.stderr).toContain(`\rcontractgen: ${phase} `);
    }
    expect(tty.out.stderr.endsWith("\r\x1b[K")).toBe(true);
    expect(stable(tty.out.stdout.replace("/tty:", "/x:"))).toBe(stable(pipe.out.stdout.replace("/pipe:", "/x:")));
    expect(tty.out.stdout).not.toMatch(/\r|\x1b/);
    // Without a terminal: not one byte of progress; with one, the rest of stderr is unchanged.
    expect(pipe.out.stderr).not.toMatch(/\r|\x1b/);
    expect(tty.out.stderr.replace(PROGRESS, "")).toBe(pipe.out.stderr);
  });

  it("validate and diff on a terminal show progress on stderr only; --no-progress silences it", async () => {
    const tty = fakeIo(true);
    const pipe = fakeIo(false);
    const off = fakeIo(true);
    expect(await run(["validate", SPEC], tty.io)).toBe(0);
    expect(await run(["validate", SPEC], pipe.io)).toBe(0);
    expect(await run(["validate", "--no-progress", SPEC], off.io)).toBe(0);
    expect(tty.out.stderr).toContain("\rcontractgen: validate ");
    expect(tty.out.stdout).toBe(pipe.out.stdout);
    expect(off.out).toEqual(pipe.out);

    const dtty = fakeIo(true);
    const dpipe = fakeIo(false);
    const args = ["diff", "specs/billing.v1.yaml", SPEC, "--fail-on", "never"];
    expect(await run(args, dtty.io)).toBe(0);
    expect(await run(args, dpipe.io)).toBe(0);
    expect(dtty.out.stderr).toContain("\rcontractgen: old: validate ");
    expect(dtty.out.stderr).toContain("\rcontractgen: compare ");
    expect(dtty.out.stdout).toBe(dpipe.out.stdout);
    expect(dpipe.out.stderr).toBe("");
  });

  it("import-openapi on a terminal: operations mapped, done of total, on stderr only", async () => {
    const doc = "node_modules/@readme/oas-examples/3.0/json/petstore.json";
    const tty = fakeIo(true);
    const pipe = fakeIo(false);
    rmSync(work, { recursive: true, force: true });
    expect(await run(["import-openapi", doc, "-o", join(work, "tty.yaml")], tty.io)).toBe(0);
    expect(await run(["import-openapi", doc, "-o", join(work, "pipe.yaml")], pipe.io)).toBe(0);
    expect(tty.out.stderr).toContain("\rcontractgen: read and bundle");
    expect(tty.out.stderr).toMatch(/\rcontractgen: map operations \d+\/\d+ /);
    expect(tty.out.stderr.replace(PROGRESS, "")).toBe(pipe.out.stderr);
    expect(stable(tty.out.stdout.replace("tty.yaml", "x.yaml"))).toBe(stable(pipe.out.stdout.replace("pipe.yaml", "x.yaml")));
    expect(pipe.out.stderr).not.toMatch(/\r|\x1b/);
  });

  it.runIf(existsSync("/usr/bin/script"))("a real generate in a pseudo-terminal shows progress; through a pipe it shows none", () => {
    const out = join(work, "pty");
    const env = { ...process.env, CONTRACTGEN_PROGRESS_DELAY_MS: "0" };
    const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} generate ${SPEC} -o ${JSON.stringify(out)}`;
    // util-linux script: runs the command on a new pseudo-terminal, the transcript on its stdout.
    const pty = spawnSync("script", ["-q", "-e", "-c", cmd, "/dev/null"], { encoding: "utf8", env });
    expect(pty.status).toBe(0);
    expect(pty.stdout).toContain("\rcontractgen: emit sdk ");
    expect(pty.stdout).toMatch(/wrote \d+ of \d+ files|\d+ files up to date/);
    const piped = spawnSync(process.execPath, [BIN, "generate", SPEC, "-o", out], { encoding: "utf8", env });
    expect(piped.status).toBe(0);
    expect(`${piped.stdout}${piped.stderr}`).not.toMatch(/\r|\x1b|contractgen: emit/);
  });
});
