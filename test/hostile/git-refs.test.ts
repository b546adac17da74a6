/**
 * `contractgen diff` takes a side as `rev:path` and reads it with git. A "revision" from the command
 * line is untrusted: one starting with `-` must never reach git as an option (`--output=<file>` makes
 * `git show` write that file before it fails). Each case runs the real bin in a throw-away repository
 * whose history holds a folder named `d:`, so `d:/../<anything>` is a path git could write to.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const BIN = resolve("bin/contractgen.js");
const SPEC = resolve("specs/billing.v2.yaml");
let repo: string;

const git = (...args: string[]) =>
  execFileSync("git", args, {
    cwd: repo,
    encoding: "utf8",
    env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" },
  });

function diff(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, "diff", ...args], { cwd: repo, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under the repository, .git included, with its size and mtime: any write shows. */
function snapshot(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const st = statSync(path);
        out.set(relative(repo, path), `${st.size} ${st.mtimeMs}`);
      }
    }
  };
  walk(repo);
  return out;
}

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), "contractgen-git-refs-"));
  git("init", "-q");
  copyFileSync(SPEC, join(repo, "b.yaml"));
  copyFileSync(SPEC, join(repo, "-dash.yaml"));
  mkdirSync(join(repo, "d:"));
  writeFileSync(join(repo, "d:", "keep.txt"), "a folder named d: in the repository's history\n");
  writeFileSync(join(repo, "victim.txt"), "the victim's own content\n");
  git("add", "--", "b.yaml", "-dash.yaml", "d:/keep.txt");
  git("commit", "-q", "-m", "contract");
  mkdirSync(join(repo, ".git", "hooks"), { recursive: true });
});

describe("a git side's revision never reaches git as an option", () => {
  it("--output=d:/../victim.txt is refused before git runs: the victim file keeps its content", () => {
    const before = readFileSync(join(repo, "victim.txt"), "utf8");
    const r = diff("--", "--output=d:/../victim.txt", "b.yaml");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("contractgen diff: --output=d:/../victim.txt: error [diff-git-ref-option]");
    expect(r.stderr).toMatch(/\n  hint: /);
    expect(readFileSync(join(repo, "victim.txt"), "utf8")).toBe(before);
  });

  it("--output=d:/../new.txt creates no file", () => {
    const r = diff("--", "--output=d:/../new.txt", "b.yaml");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("[diff-git-ref-option]");
    expect(existsSync(join(repo, "new.txt"))).toBe(false);
  });

  it("--output=d:/../.git/hooks/post-checkout writes no hook (which the next git checkout would run)", () => {
    const r = diff("--", "--output=d:/../.git/hooks/post-checkout", "b.yaml");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("[diff-git-ref-option]");
    expect(existsSync(join(repo, ".git", "hooks", "post-checkout"))).toBe(false);
  });

  it.each([
    "-p",
    "--output=written.txt",
    "--output=/tmp/contractgen-git-refs-written.txt",
    "--ext-diff",
    "--textconv",
    "-c core.pager=touch pwned",
    "-ccore.pager=touch pwned",
    "--exec-path=/tmp",
    "--upload-pack=touch pwned",
    "-O/tmp/contractgen-git-refs-order",
    "--git-dir=/tmp",
    "--work-tree=/",
    "--no-index",
    "-",
    "--",
    "--end-of-options",
  ])("%s:b.yaml is refused with exit 2, a code and no file written", (rev) => {
    const before = snapshot();
    const r = diff("--", `${rev}:b.yaml`, "b.yaml");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error [diff-git-ref-option] the revision ${JSON.stringify(rev)} starts with "-"`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(snapshot()).toEqual(before);
    // git takes the whole argument as the option's value, `:b.yaml` included.
    expect(existsSync("/tmp/contractgen-git-refs-written.txt:b.yaml")).toBe(false);
  });

  it("real revisions still work, and a path starting with - is a path", () => {
    const head = git("rev-parse", "HEAD").trim();
    for (const side of ["HEAD:b.yaml", "HEAD:./b.yaml", `${head}:b.yaml`, "HEAD~0:b.yaml", "HEAD:-dash.yaml"]) {
      const r = diff(side, "b.yaml");
      expect({ side, code: r.code, stderr: r.stderr }).toEqual({ side, code: 0, stderr: "" });
      expect(r.stdout).toContain("No changes found.");
    }
  });

  it("an unknown revision or a path missing at it is a coded error naming the side", () => {
    const unknown = diff("no-such-branch:b.yaml", "b.yaml");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('contractgen diff: no-such-branch:b.yaml: error [diff-git-ref-unknown] not a file, and git knows no commit "no-such-branch".');
    const missing = diff("HEAD:nope.yaml", "b.yaml");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('contractgen diff: HEAD:nope.yaml: error [diff-git-path-missing] not a file, and git cannot read "nope.yaml" at "HEAD"');
  });
});
