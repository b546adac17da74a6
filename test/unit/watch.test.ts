import { mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { watchFiles } from "../../src/cli/watch.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Generous: these machines are shared, and a missed event only shows as a timeout. */
async function until(predicate: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !predicate(); i++) await sleep(50);
  expect(predicate(), what).toBe(true);
}

describe("watchFiles (generate --watch)", () => {
  const stops: Array<() => void> = [];
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
  });

  function setUp() {
    const dir = mkdtempSync(join(tmpdir(), "cg-watch-"));
    const spec = join(dir, "api.yaml");
    const shared = join(dir, "shared.yaml");
    writeFileSync(spec, "a: 1\n");
    writeFileSync(shared, "b: 1\n");
    // Older than the first run, as a contract usually is.
    const past = new Date(Date.now() - 60_000);
    utimesSync(spec, past, past);
    utimesSync(shared, past, past);
    stops.push(() => rmSync(dir, { recursive: true, force: true }));
    return { dir, spec, shared };
  }

  function start(files: string[], run: () => Promise<readonly string[]>, startedAt = Date.now()) {
    const messages: string[] = [];
    const watching = watchFiles(files, startedAt, run, { stderr: (t) => messages.push(t) });
    stops.unshift(watching.close);
    return messages;
  }

  it("runs again when a file it read is written in place, and not for other files in the folder", async () => {
    const { dir, spec, shared } = setUp();
    let runs = 0;
    start([spec, shared], async () => (runs++, [spec, shared]));
    await sleep(300);
    writeFileSync(join(dir, "unrelated.txt"), "x");
    await sleep(400);
    expect(runs).toBe(0);
    writeFileSync(shared, "b: 2\n");
    await until(() => runs === 1, "a run after the referenced file changed");
  });

  it("sees saves that replace the file by renaming a new one over it, again and again", async () => {
    const { dir, spec } = setUp();
    let runs = 0;
    start([spec], async () => (runs++, [spec]));
    for (const round of [1, 2]) {
      writeFileSync(join(dir, ".api.yaml.swp"), `a: ${round + 1}\n`);
      renameSync(join(dir, ".api.yaml.swp"), spec);
      await until(() => runs === round, `run ${round} after an atomic save`);
    }
  });

  it("never overlaps runs, and runs once more for a change made during a run", async () => {
    const { spec } = setUp();
    let runs = 0;
    let active = 0;
    let overlapped = false;
    let release: () => void = () => {};
    start([spec], async () => {
      runs++;
      active++;
      overlapped ||= active > 1;
      await new Promise<void>((r) => (release = r));
      active--;
      return [spec];
    });
    writeFileSync(spec, "a: 2\n");
    await until(() => runs === 1, "the first run");
    writeFileSync(spec, "a: 3\n"); // during the run
    await sleep(400);
    expect(runs).toBe(1);
    release();
    await until(() => runs === 2, "a second run for the change made during the first");
    release();
    await sleep(300);
    expect(runs).toBe(2);
    expect(overlapped).toBe(false);
  });

  it("runs again for a save made after the file was read but before the watch began", async () => {
    const { spec } = setUp();
    const startedAt = Date.now();
    await sleep(20);
    writeFileSync(spec, "a: 2\n"); // no watcher yet: no event will ever come for this
    let runs = 0;
    start([spec], async () => (runs++, [spec]), startedAt);
    await until(() => runs === 1, "a run for the unseen save");
    await sleep(300);
    expect(runs).toBe(1);
  });

  it("follows a file the contract starts referring to", async () => {
    const { dir, spec } = setUp();
    const sub = join(dir, "types");
    const extra = join(sub, "extra.yaml");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(sub);
    writeFileSync(extra, "c: 1\n");
    const past = new Date(Date.now() - 60_000);
    utimesSync(extra, past, past);
    let runs = 0;
    start([spec], async () => (runs++, [spec, extra]));
    writeFileSync(spec, "a: 2\n");
    await until(() => runs === 1, "a run for the contract");
    writeFileSync(extra, "c: 2\n");
    await until(() => runs === 2, "a run for the newly referenced file");
  });
});
