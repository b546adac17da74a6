/**
 * The README is a map and docs/ holds the reference: the README stays short and starts with the two
 * set-up commands, every relative link in README.md and docs/**\/*.md reaches a file, and
 * docs/benchmarks.md is exactly what scripts/benchmarks-doc.mjs writes from bench/results/.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "..", "..");

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...markdownFiles(path));
    else if (name.endsWith(".md")) out.push(path);
  }
  return out;
}

/** Link targets of inline markdown links and images, outside fenced code blocks and inline code. */
function linkTargets(text: string): string[] {
  const targets: string[] = [];
  let inFence = false;
  for (const line of text.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const prose = line.replace(/`[^`]*`/g, "``");
    for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]);
  }
  return targets;
}

describe("README.md", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const lines = readme.replace(/\n$/, "").split("\n");

  it("has at most 150 lines", () => {
    expect(lines.length).toBeLessThanOrEqual(150);
  });

  it("starts with the title and the two set-up commands", () => {
    expect(lines[0]).toBe("# contractgen");
    expect(lines[2]).toBe("```sh");
    expect(lines[3]).toMatch(/^npm ci && npx contractgen generate specs\/billing\.v2\.yaml -o \/tmp\/billing-sdk\s+# /);
    expect(lines[4]).toMatch(/^npm test\s+# /);
    expect(lines[5]).toBe("```");
  });

  it("states no benchmark figures and links the benchmarks page", () => {
    expect(readme).toContain("](docs/benchmarks.md)");
    expect(readme).not.toMatch(/\d(\.\d+)?×/);
  });
});

describe("relative links", () => {
  const files = [join(ROOT, "README.md"), ...markdownFiles(join(ROOT, "docs"))];

  it.each(files.map((f) => [relative(ROOT, f), f]))("%s: every relative link reaches a file", (_name, file) => {
    const broken: string[] = [];
    for (const target of linkTargets(readFileSync(file, "utf8"))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#")) continue;
      const path = decodeURIComponent(target.split("#")[0].split("?")[0]);
      if (path === "") continue;
      if (!existsSync(resolve(dirname(file), path))) broken.push(target);
    }
    expect(broken).toEqual([]);
  });

  it("the docs folder has every page the README promises", () => {
    for (const page of ["validate", "generate", "test", "budget", "import-openapi", "overlay-from", "diff"]) {
      expect(existsSync(join(ROOT, "docs", "commands", `${page}.md`))).toBe(true);
    }
    for (const page of ["architecture", "benchmarks", "limits", "openapi", "contract-format"]) {
      expect(existsSync(join(ROOT, "docs", `${page}.md`))).toBe(true);
    }
  });
});

describe("docs/benchmarks.md", () => {
  it("is what scripts/benchmarks-doc.mjs writes from bench/results/ (--check)", () => {
    const r = spawnSync(process.execPath, ["scripts/benchmarks-doc.mjs", "--check"], { cwd: ROOT, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});
