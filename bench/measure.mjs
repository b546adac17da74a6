// Shared by the benchmarks that run each step as its own process, so memory is per run.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * Runs a command under /usr/bin/time: wall seconds and peak RSS (MiB) of the process and the children
 * it waited for, exit status, stdout, and the last lines of its output for error messages.
 */
export function measured(cmd, args, options = {}) {
  const r = spawnSync("/usr/bin/time", ["-f", "@@TIME %e %M", cmd, ...args], { encoding: "utf8", maxBuffer: 512 << 20, ...options });
  const stderr = r.stderr ?? "";
  const m = /@@TIME ([\d.]+) (\d+)/.exec(stderr);
  const rest = stderr.replace(/@@TIME.*\n?/, "").replace(/^Command (exited with non-zero status|terminated by signal) .*\n?/m, "");
  const tail = `${r.stdout ?? ""}${rest}`.trim().split("\n").slice(-5).join("\n");
  return { seconds: m ? Number(m[1]) : NaN, peakMiB: m ? Math.round(Number(m[2]) / 1024) : NaN, status: r.status, stdout: r.stdout ?? "", tail };
}

/** Total size of the files under `dir` (node_modules and dist left out), optionally filtered by path. */
export function dirBytes(dir, filter = () => true) {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name === "dist") continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) total += dirBytes(p, filter);
    else if (filter(p)) total += statSync(p).size;
  }
  return total;
}
