/**
 * The contract-review GitHub Action (action.yml, action/run.mjs), run as a runner runs its steps: a
 * real git repository with a base commit and a pull-request commit, the GITHUB_* files and variables
 * a runner sets, and a local HTTP server standing in for GitHub's REST API.
 */
import { spawn, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";

const RUN = resolve("action/run.mjs");
const SETUP = resolve("action/setup.mjs");
const BILLING_V1 = readFileSync("specs/billing.v1.yaml", "utf8");
const BILLING_V2 = readFileSync("specs/billing.v2.yaml", "utf8");
const BOOKSHELF = readFileSync("specs/openapi/bookshelf.yaml", "utf8");
const BOOKSHELF_OVERLAY = readFileSync("specs/openapi/bookshelf.overlay.yaml", "utf8");
const TOKEN = "ghs_contractgenTestToken0123456789";

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", ...args], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

function writeAll(dir: string, files: Record<string, string | null>): void {
  for (const [path, text] of Object.entries(files)) {
    const target = join(dir, path);
    if (text === null) {
      execFileSync("git", ["rm", "-q", "--", path], { cwd: dir });
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
}

/** A repository whose main branch holds `base` and whose branch `pr` (checked out) holds `pr` on top. */
function repository(base: Record<string, string>, pr: Record<string, string | null>): string {
  const dir = mkdtempSync(join(tmpdir(), "contractgen-action-"));
  git(dir, "init", "-q", "-b", "main");
  writeAll(dir, { "README.md": "repo\n", ...base });
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
  git(dir, "checkout", "-q", "-b", "pr");
  writeAll(dir, pr);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "pull request");
  return dir;
}

interface Annotation {
  readonly level: string;
  readonly props: Record<string, string>;
  readonly message: string;
}

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly summary: string;
  readonly outputs: Record<string, string>;
  readonly outputFile: string;
  readonly annotations: Annotation[];
}

const unescape = (s: string) => s.replace(/%0A/g, "\n").replace(/%0D/g, "\r").replace(/%3A/g, ":").replace(/%2C/g, ",").replace(/%25/g, "%");

function annotations(stdout: string): Annotation[] {
  return stdout
    .split("\n")
    .map((line) => /^::(error|warning|notice)(?: ([^:]*))?::(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({
      level: m[1]!,
      props: Object.fromEntries((m[2] ?? "").split(",").filter(Boolean).map((p) => [p.slice(0, p.indexOf("=")), unescape(p.slice(p.indexOf("=") + 1))])),
      message: unescape(m[3]!),
    }));
}

interface RunOptions {
  readonly inputs?: Record<string, string>;
  readonly env?: Record<string, string>;
  /** The pull_request event; null writes no event file. */
  readonly event?: object | null;
  /** Folder the step runs in, relative to the repository (working-directory). */
  readonly cwd?: string;
}

/** One step as a runner runs it: INPUT_* from `with:`, the GITHUB_* files and variables. */
function runStep(repo: string, command: string, options: RunOptions = {}): Promise<Run> {
  const runner = mkdtempSync(join(tmpdir(), "contractgen-runner-"));
  const files = { event: join(runner, "event.json"), summary: join(runner, "summary.md"), output: join(runner, "output.txt") };
  const event = options.event === undefined ? { action: "synchronize", number: 7, pull_request: { number: 7, base: { ref: "main" }, head: { ref: "pr" } } } : options.event;
  if (event) writeFileSync(files.event, JSON.stringify(event));
  writeFileSync(files.summary, "");
  writeFileSync(files.output, "");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? runner,
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: repo,
    GITHUB_EVENT_NAME: "pull_request",
    ...(event ? { GITHUB_EVENT_PATH: files.event } : {}),
    GITHUB_BASE_REF: "main",
    GITHUB_HEAD_REF: "pr",
    GITHUB_REPOSITORY: "acme/billing",
    GITHUB_SERVER_URL: "https://github.example",
    GITHUB_RUN_ID: "4242",
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_OUTPUT: files.output,
    RUNNER_TEMP: runner,
    ...options.env,
  };
  for (const [name, value] of Object.entries(options.inputs ?? {})) env[`INPUT_${name.toUpperCase().replace(/-/g, "_")}`] = value;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [RUN, command], { cwd: join(repo, options.cwd ?? "."), env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", fail);
    child.on("close", (status) => {
      const outputs: Record<string, string> = {};
      for (const line of readFileSync(files.output, "utf8").split("\n").filter(Boolean)) outputs[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
      done({ status, stdout, stderr, summary: readFileSync(files.summary, "utf8"), outputs, outputFile: readFileSync(files.output, "utf8"), annotations: annotations(stdout) });
    });
  });
}

/** What `contractgen diff` itself counts, for the same two sides. */
function cliSummary(repo: string, before: string, after: string, ...rest: string[]): { breaking: number; warning: number; info: number } {
  let json: string;
  try {
    json = execFileSync(process.execPath, [resolve("bin/contractgen.js"), "diff", before, after, "--format", "json", "--no-progress", ...rest], { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    json = String((e as { stdout?: string }).stdout);
  }
  return JSON.parse(json).summary;
}

/** The 1-based line of a file's text. */
const lineOf = (text: string, line: number) => text.split("\n")[line - 1] ?? "";

describe("action: a native contract", () => {
  let repo: string;
  beforeAll(() => {
    repo = repository({ "specs/billing.yaml": BILLING_V1 }, { "specs/billing.yaml": BILLING_V2 });
  });

  it("breaking changes: annotations on the revision's lines, the report in the summary, counts as outputs, exit 1", async () => {
    const run = await runStep(repo, "diff", { inputs: { contract: "specs/billing.yaml" } });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(1);
    const cli = cliSummary(repo, "main:specs/billing.yaml", "specs/billing.yaml");
    expect(cli.breaking).toBeGreaterThan(0);
    expect(run.outputs).toMatchObject({ breaking: String(cli.breaking), warning: String(cli.warning), info: String(cli.info), status: "changed", failed: "true" });
    expect(run.outputs["base-sha"]).toBe(git(repo, "rev-parse", "main"));
    // Annotations name the file from the repository root and lines of the pull request's version.
    const findings = run.annotations.filter((a) => a.props.file !== undefined);
    expect(findings.length).toBe(cli.breaking + cli.warning + cli.info);
    expect(new Set(findings.map((a) => a.props.file))).toEqual(new Set(["specs/billing.yaml"]));
    const minimum = findings.find((a) => a.props.title === "input-minimum-raised (refund_invoice)")!;
    expect(minimum.level).toBe("error");
    expect(lineOf(BILLING_V2, Number(minimum.props.line))).toMatch(/minimum: 1\b/);
    expect(lineOf(BILLING_V1, Number(minimum.props.line))).not.toMatch(/minimum: 1\b/);
    const unit = findings.find((a) => a.props.title === "input-unit-changed (refund_invoice)")!;
    expect(lineOf(BILLING_V2, Number(unit.props.line))).toContain("x-unit: cents");
    expect(findings.filter((a) => a.level === "error").length).toBe(cli.breaking);
    // The verdict, then the Markdown report with both sides named.
    expect(run.annotations.at(-1)).toMatchObject({ level: "error", props: { title: "contractgen diff" } });
    expect(run.summary).toContain("## Contract review: `specs/billing.yaml`");
    expect(run.summary).toContain("### Contract diff: `main:specs/billing.yaml` 1.1.0 → `specs/billing.yaml` 2.0.0");
    expect(run.summary).toContain(`**${cli.breaking} breaking**, ${cli.warning} warning, ${cli.info} info.`);
    expect(run.summary).toContain("| 🔴 breaking | `input-minimum-raised` | `refund_invoice` |");
    expect(run.summary).toMatch(/was `main:specs\/billing\.yaml:\d+:\d+`<br>now `specs\/billing\.yaml:\d+:\d+`/);
    expect(run.summary).toContain("**fails**: findings at or above breaking");
  });

  it("the exit status follows fail-on: none passes, warning and info fail, a bad value is a usage error", async () => {
    const none = await runStep(repo, "diff", { inputs: { contract: "specs/billing.yaml", "fail-on": "none" } });
    expect(none.status).toBe(0);
    expect(none.outputs.failed).toBe("false");
    expect(none.summary).toContain("fail-on: none");
    expect(none.annotations.some((a) => a.props.title === "contractgen diff")).toBe(false);
    expect((await runStep(repo, "diff", { inputs: { contract: "specs/billing.yaml", "fail-on": "warning" } })).status).toBe(1);
    const bad = await runStep(repo, "diff", { inputs: { contract: "specs/billing.yaml", "fail-on": "major" } });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('contractgen action: fail-on is "major".');
    expect(bad.stderr).toContain("hint: Use one of breaking, warning, info, none.");
  });

  it("a harmless change passes under fail-on breaking and fails under fail-on info", async () => {
    // A reworded summary, released as a patch version with its changelog entry.
    const edited = BILLING_V1.replace("version: 1.1.0\ntitle", "version: 1.1.1\ntitle")
      .replace("changelog:\n", "changelog:\n  - version: 1.1.1\n    date: 2026-03-20\n    summary: A clearer summary of create_customer.\n")
      .replace("summary: Create a customer, exactly once", "summary: Create one customer, exactly once");
    expect(edited.match(/1\.1\.1|Create one customer/g)).toHaveLength(3);
    const harmless = repository({ "specs/billing.yaml": BILLING_V1 }, { "specs/billing.yaml": edited });
    const run = await runStep(harmless, "diff", { inputs: { contract: "specs/billing.yaml" } });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.outputs).toMatchObject({ breaking: "0", warning: "0", status: "changed", failed: "false" });
    expect(Number(run.outputs.info)).toBeGreaterThan(0);
    expect(run.annotations.every((a) => a.level === "notice" && a.props.file === "specs/billing.yaml")).toBe(true);
    expect(run.summary).toContain("passes fail-on: breaking");
    expect((await runStep(harmless, "diff", { inputs: { contract: "specs/billing.yaml", "fail-on": "info" } })).status).toBe(1);
  });

  it("no change: zero counts, status unchanged", async () => {
    const same = repository({ "specs/billing.yaml": BILLING_V2 }, { "README.md": "changed\n" });
    const run = await runStep(same, "diff", { inputs: { contract: "specs/billing.yaml", "fail-on": "info" } });
    expect(run.status).toBe(0);
    expect(run.outputs).toMatchObject({ breaking: "0", warning: "0", info: "0", status: "unchanged" });
    expect(run.annotations).toEqual([]);
    expect(run.summary).toContain("**0 breaking**, 0 warning, 0 info.");
  });

  it("paths under working-directory: the contract relative to it, annotations relative to the repository root", async () => {
    const nested = repository({ "api/specs/billing.yaml": BILLING_V1 }, { "api/specs/billing.yaml": BILLING_V2 });
    const run = await runStep(nested, "diff", { inputs: { contract: "specs/billing.yaml", "fail-on": "none" }, cwd: "api" });
    expect(run.status).toBe(0);
    const files = new Set(run.annotations.filter((a) => a.props.file).map((a) => a.props.file));
    expect(files).toEqual(new Set(["api/specs/billing.yaml"]));
    expect(run.summary).toContain("`main:api/specs/billing.yaml` 1.1.0 → `api/specs/billing.yaml` 2.0.0");
  });

  it("a contract new in the pull request: nothing to compare, status new, exit 0", async () => {
    const fresh = repository({}, { "specs/billing.yaml": BILLING_V2 });
    const run = await runStep(fresh, "diff", { inputs: { contract: "specs/billing.yaml" } });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.outputs).toMatchObject({ breaking: "0", warning: "0", info: "0", status: "new", failed: "false" });
    expect(run.summary).toContain("`specs/billing.yaml` is new in this pull request (absent at main");
  });

  it("a new contract that is invalid fails with its diagnostics as annotations", async () => {
    const broken = BILLING_V2.replace(/^version: .*$/m, "version: not-a-version");
    const fresh = repository({}, { "specs/billing.yaml": broken });
    const run = await runStep(fresh, "diff", { inputs: { contract: "specs/billing.yaml" } });
    expect(run.status).toBe(1);
    expect(run.outputs.status).toBe("invalid");
    const error = run.annotations.find((a) => a.level === "error" && a.props.file === "specs/billing.yaml")!;
    expect(lineOf(broken, Number(error.props.line))).toContain("not-a-version");
    expect(run.summary).toContain("It is not a valid contract:");
  });

  it("a pull request that breaks the contract's validity fails, naming the line", async () => {
    const broken = BILLING_V2.replace(/^version: .*$/m, "version: not-a-version");
    const bad = repository({ "specs/billing.yaml": BILLING_V1 }, { "specs/billing.yaml": broken });
    const run = await runStep(bad, "diff", { inputs: { contract: "specs/billing.yaml", "fail-on": "none" } });
    expect(run.status).toBe(1);
    expect(run.outputs).toMatchObject({ status: "invalid", failed: "true" });
    const error = run.annotations.find((a) => a.level === "error" && a.props.file === "specs/billing.yaml")!;
    expect(error.props.title).toMatch(/\(pull request\)$/);
    expect(lineOf(broken, Number(error.props.line))).toContain("not-a-version");
    expect(run.summary).toContain("is not a valid contract in this pull request; nothing was compared.");
  });

  it("the base: base-ref wins, else the event's base commit, else GITHUB_BASE_REF; none or an unknown one is a usage error", async () => {
    // Against the pull request's own commit there is nothing to report.
    const self = await runStep(repo, "diff", { inputs: { contract: "specs/billing.yaml", "base-ref": "pr", "fail-on": "info" } });
    expect(self.status).toBe(0);
    expect(self.outputs.status).toBe("unchanged");
    const main = git(repo, "rev-parse", "main");
    const bySha = await runStep(repo, "diff", { inputs: { contract: "specs/billing.yaml" }, env: { GITHUB_BASE_REF: "" }, event: { pull_request: { number: 7, base: { sha: main } } } });
    expect(bySha.stderr).toBe("");
    expect(bySha.outputs["base-sha"]).toBe(main);
    expect(bySha.status).toBe(1);
    const none = await runStep(repo, "diff", { inputs: { contract: "specs/billing.yaml" }, env: { GITHUB_BASE_REF: "" }, event: null });
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("no base to compare with: this is not a pull_request event and base-ref is empty.");
    expect(none.annotations[0]).toMatchObject({ level: "error", props: { title: "contractgen action" } });
    const unknown = await runStep(repo, "diff", { inputs: { contract: "specs/billing.yaml", "base-ref": "release/9" } });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('the base "release/9" is not a commit of this checkout, and fetching it from origin failed.');
    expect(unknown.stderr).toContain("fetch-depth: 0");
    const option = await runStep(repo, "diff", { inputs: { contract: "specs/billing.yaml", "base-ref": "--output=/tmp/x" } });
    expect(option.status).toBe(2);
    expect(option.stderr).toContain("which git would read as an option; git was not run.");
  });

  it("a base branch that moved on is compared at the fork point, not read as the pull request undoing it", async () => {
    const moved = repository({ "specs/billing.yaml": BILLING_V1 }, { "README.md": "docs only\n" });
    git(moved, "checkout", "-q", "main");
    writeFileSync(join(moved, "specs/billing.yaml"), BILLING_V2);
    git(moved, "commit", "-q", "-am", "main moves on");
    git(moved, "checkout", "-q", "pr");
    const run = await runStep(moved, "diff", { inputs: { contract: "specs/billing.yaml", "fail-on": "info" } });
    expect(run.status).toBe(0);
    expect(run.outputs.status).toBe("unchanged");
    expect(run.outputs["base-sha"]).toBe(git(moved, "merge-base", "main", "pr"));
  });

  it("a missing contract input or file is a usage error with a hint", async () => {
    const empty = await runStep(repo, "diff", {});
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain("contractgen action: the contract input is empty.");
    const missing = await runStep(repo, "diff", { inputs: { contract: "specs/nope.yaml" } });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("the contract specs/nope.yaml does not exist in this checkout.");
  });
});

describe("action: an OpenAPI document with an overlay", () => {
  const files = (doc: string, overlay: string) => ({ "specs/openapi/bookshelf.yaml": doc, "specs/openapi/bookshelf.overlay.yaml": overlay });
  const inputs = { contract: "specs/openapi/bookshelf.yaml", overlays: "specs/openapi/bookshelf.overlay.yaml" };

  it("a breaking change to the document is annotated at the document's new line", async () => {
    const narrowed = BOOKSHELF.replace("minimum: 1, maximum: 100, default: 20", "minimum: 1, maximum: 50, default: 20");
    expect(narrowed).not.toBe(BOOKSHELF);
    const repo = repository(files(BOOKSHELF, BOOKSHELF_OVERLAY), files(narrowed, BOOKSHELF_OVERLAY));
    const run = await runStep(repo, "diff", { inputs });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(1);
    const cli = cliSummary(repo, "main:specs/openapi/bookshelf.yaml", "specs/openapi/bookshelf.yaml", "--overlay", "specs/openapi/bookshelf.overlay.yaml");
    expect(run.outputs).toMatchObject({ breaking: String(cli.breaking), warning: String(cli.warning), info: String(cli.info) });
    const max = run.annotations.find((a) => a.level === "error" && a.props.title?.startsWith("input-maximum-lowered"))!;
    expect(max.props.file).toBe("specs/openapi/bookshelf.yaml");
    expect(lineOf(narrowed, Number(max.props.line))).toContain("maximum: 50");
    expect(run.summary).toContain("`main:specs/openapi/bookshelf.yaml`");
  });

  it("a harmless change to the document passes", async () => {
    // A reworded description, released as a patch version with its changelog entry (in the overlay).
    const reworded = BOOKSHELF.replace("Only books by this author (exact match).", "Only the books of this author (an exact match).").replace("  version: 1.2.0", "  version: 1.2.1");
    const released = BOOKSHELF_OVERLAY.replace("        changelog:\n", '        changelog:\n          - version: 1.2.1\n            date: "2026-12-05"\n            summary: Reworded the author filter.\n');
    expect(reworded.match(/1\.2\.1|Only the books/g)).toHaveLength(2);
    expect(released).toContain("summary: Reworded the author filter.");
    const repo = repository(files(BOOKSHELF, BOOKSHELF_OVERLAY), files(reworded, released));
    const run = await runStep(repo, "diff", { inputs });
    expect(run.status).toBe(0);
    expect(run.outputs).toMatchObject({ breaking: "0", warning: "0", failed: "false", status: "changed" });
    expect(run.annotations.filter((a) => a.props.file).every((a) => a.level === "notice")).toBe(true);
  });

  it("the base is read with the overlay as it was at the base: a change to the overlay alone is reviewed", async () => {
    const shorter = BOOKSHELF_OVERLAY.replace("retention: 24h", "retention: 1h");
    expect(shorter).not.toBe(BOOKSHELF_OVERLAY);
    const repo = repository(files(BOOKSHELF, BOOKSHELF_OVERLAY), files(BOOKSHELF, shorter));
    // One overlay list for both sides (what the CLI's --overlay does) sees nothing.
    expect(cliSummary(repo, "main:specs/openapi/bookshelf.yaml", "specs/openapi/bookshelf.yaml", "--overlay", "specs/openapi/bookshelf.overlay.yaml")).toEqual({ breaking: 0, warning: 0, info: 0 });
    const run = await runStep(repo, "diff", { inputs });
    expect(run.status).toBe(1);
    const retention = run.annotations.find((a) => a.props.title?.startsWith("idempotency-retention-shortened"))!;
    expect(retention.level).toBe("error");
    expect(retention.props.file).toBe("specs/openapi/bookshelf.overlay.yaml");
    expect(lineOf(shorter, Number(retention.props.line))).toContain("retention: 1h");
  });

  it("an overlay new in the pull request: the base is read without it, and the summary says so", async () => {
    const repo = repository({ "specs/openapi/bookshelf.yaml": BOOKSHELF }, files(BOOKSHELF, BOOKSHELF_OVERLAY));
    const run = await runStep(repo, "diff", { inputs: { ...inputs, "fail-on": "none" } });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.summary).toContain("Overlays new in this pull request (the base is read without them): `specs/openapi/bookshelf.overlay.yaml`.");
    expect(Number(run.outputs.breaking) + Number(run.outputs.warning) + Number(run.outputs.info)).toBeGreaterThan(0);
  });
});

/** A stand-in for GitHub's REST API: issue comments of one pull request, paginated like GitHub. */
class FakeGitHub {
  readonly requests: Array<{ method: string; url: string; authorization: string | undefined; body: unknown }> = [];
  comments: Array<{ id: number; body: string; html_url: string }> = [];
  /** Answer every request with this status (and a body echoing the token, to see it never printed). */
  failWith: number | null = null;
  private next = 1000;
  private server!: Server;
  url = "";

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }

  private async handle(req: IncomingMessage, res: import("node:http").ServerResponse): Promise<void> {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = raw ? JSON.parse(raw) : undefined;
    this.requests.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body });
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    if (this.failWith) return send(this.failWith, { message: `Resource not accessible by integration (you sent ${req.headers.authorization})` });
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { message: "Bad credentials" });
    const url = new URL(req.url!, this.url);
    if (req.method === "GET" && url.pathname === "/repos/acme/billing/issues/7/comments") {
      const per = Number(url.searchParams.get("per_page") ?? 30);
      const page = Number(url.searchParams.get("page") ?? 1);
      return send(200, this.comments.slice((page - 1) * per, page * per));
    }
    if (req.method === "POST" && url.pathname === "/repos/acme/billing/issues/7/comments") {
      const comment = { id: this.next++, body: body.body, html_url: `https://github.example/acme/billing/pull/7#issuecomment-${this.next}` };
      this.comments.push(comment);
      return send(201, comment);
    }
    const patch = /^\/repos\/acme\/billing\/issues\/comments\/(\d+)$/.exec(url.pathname);
    if (req.method === "PATCH" && patch) {
      const comment = this.comments.find((c) => c.id === Number(patch[1]));
      if (!comment) return send(404, { message: "Not Found" });
      comment.body = body.body;
      return send(200, comment);
    }
    send(404, { message: "Not Found" });
  }
}

describe("action: the sticky pull-request comment", () => {
  const github = new FakeGitHub();
  let repo: string;
  beforeAll(async () => {
    await github.start();
    repo = repository({ "specs/billing.yaml": BILLING_V1, "specs/other.yaml": BILLING_V1 }, { "specs/billing.yaml": BILLING_V2 });
  });
  afterAll(() => github.stop());

  const withToken = (extra: Record<string, string> = {}) => ({ inputs: { contract: "specs/billing.yaml", "github-token": TOKEN, ...extra }, env: { GITHUB_API_URL: github.url } });
  const leaks = (run: Run) => [run.stdout, run.stderr, run.summary, run.outputFile].filter((t) => t.includes(TOKEN) || t.includes(TOKEN.slice(4, 20)));

  it("no token: no request at all", async () => {
    const run = await runStep(repo, "diff", { inputs: { contract: "specs/billing.yaml" }, env: { GITHUB_API_URL: github.url } });
    expect(run.status).toBe(1);
    expect(github.requests).toEqual([]);
    expect(run.outputs["comment-url"]).toBeUndefined();
  });

  it("the first run creates the comment, the second updates the same one; other comments are left alone", async () => {
    // 120 comments already: the marker search pages through them; one is another contract's.
    github.comments = Array.from({ length: 120 }, (_, i) => ({ id: i + 1, body: i === 5 ? "<!-- contractgen-diff:specs/other.yaml -->\nold" : `comment ${i}`, html_url: `https://github.example/c/${i + 1}` }));
    const first = await runStep(repo, "diff", withToken());
    expect(first.status).toBe(1);
    const posts = github.requests.filter((r) => r.method === "POST");
    expect(posts).toHaveLength(1);
    expect(posts[0]!.url).toBe("/repos/acme/billing/issues/7/comments");
    const created = github.comments.at(-1)!;
    expect(github.comments).toHaveLength(121);
    expect(created.body.startsWith("<!-- contractgen-diff:specs/billing.yaml -->\n## Contract review: `specs/billing.yaml`")).toBe(true);
    expect(created.body).toContain("| 🔴 breaking | `input-minimum-raised` |");
    expect(created.body).toContain("[contractgen run](https://github.example/acme/billing/actions/runs/4242)");
    expect(first.outputs["comment-url"]).toBe(created.html_url);
    expect(github.requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(github.requests.filter((r) => r.method === "GET").map((r) => r.url)).toEqual([
      "/repos/acme/billing/issues/7/comments?per_page=100&page=1",
      "/repos/acme/billing/issues/7/comments?per_page=100&page=2",
    ]);

    // The pull request changes again: a harmless revision now.
    writeFileSync(join(repo, "specs/billing.yaml"), BILLING_V1.replace(/(\n {4}summary: )([^\n]+)/, "$1$2 (reworded)"));
    github.requests.length = 0;
    const second = await runStep(repo, "diff", withToken());
    expect(second.status).toBe(0);
    expect(github.requests.map((r) => r.method)).toEqual(["GET", "GET", "PATCH"]);
    expect(github.requests[2]!.url).toBe(`/repos/acme/billing/issues/comments/${created.id}`);
    expect(github.comments).toHaveLength(121);
    expect(created.body).toContain("**0 breaking**");
    expect(created.body).not.toContain("input-minimum-raised");
    expect(github.comments[5]!.body).toBe("<!-- contractgen-diff:specs/other.yaml -->\nold");
    for (const run of [first, second]) expect(leaks(run)).toEqual([]);
    writeFileSync(join(repo, "specs/billing.yaml"), BILLING_V2);
  });

  it("comment: changes starts no comment for a clean diff but updates an earlier one; never writes none", async () => {
    const clean = repository({ "specs/billing.yaml": BILLING_V2 }, { "README.md": "docs\n" });
    github.comments = [];
    github.requests.length = 0;
    const run = await runStep(clean, "diff", withToken({ comment: "changes" }));
    expect(run.status).toBe(0);
    expect(github.requests.map((r) => r.method)).toEqual(["GET"]);
    expect(github.comments).toEqual([]);
    github.comments = [{ id: 9, body: "<!-- contractgen-diff:specs/billing.yaml -->\nstale: 3 breaking", html_url: "https://github.example/c/9" }];
    await runStep(clean, "diff", withToken({ comment: "changes" }));
    expect(github.comments[0]!.body).toContain("**0 breaking**");
    github.requests.length = 0;
    await runStep(clean, "diff", withToken({ comment: "never" }));
    expect(github.requests).toEqual([]);
  });

  it("a refused comment (a fork's read-only token) is a warning; the verdict stands and the token is never printed", async () => {
    github.failWith = 403;
    github.requests.length = 0;
    try {
      const run = await runStep(repo, "diff", withToken());
      expect(run.status).toBe(1);
      expect(github.requests.length).toBe(1);
      const warning = run.annotations.find((a) => a.props.title === "contractgen comment")!;
      expect(warning.level).toBe("warning");
      expect(warning.message).toContain("the pull-request comment was not written: GET ");
      expect(warning.message).toContain("HTTP 403 (Resource not accessible by integration (you sent Bearer ***))");
      expect(leaks(run)).toEqual([]);
      expect(run.summary).toContain("## Contract review");
    } finally {
      github.failWith = null;
    }
  });

  it("a token but no pull request in the event: a warning, no request", async () => {
    github.requests.length = 0;
    const run = await runStep(repo, "diff", { ...withToken({ "base-ref": "main" }), event: { ref: "refs/heads/main" } });
    expect(run.status).toBe(1);
    expect(github.requests).toEqual([]);
    expect(run.annotations.some((a) => a.level === "warning" && a.message.includes("the event names no pull request"))).toBe(true);
    expect(leaks(run)).toEqual([]);
  });
});

describe("action: generate --check", () => {
  it("passes while the checked-in package is current, fails naming the stale files once it is not", async () => {
    const repo = repository({ "specs/billing.yaml": BILLING_V1 }, { "specs/billing.yaml": BILLING_V2 });
    execFileSync(process.execPath, [resolve("bin/contractgen.js"), "generate", "specs/billing.yaml", "-o", "sdk", "--no-progress"], { cwd: repo, stdio: "ignore" });
    const current = await runStep(repo, "generate-check", { inputs: { contract: "specs/billing.yaml", "generate-check": "sdk" } });
    expect(current.status).toBe(0);
    expect(current.outputs["generated-current"]).toBe("true");
    expect(current.summary).toContain("## Generated package: `sdk`\n\nUp to date with `specs/billing.yaml`.");
    writeFileSync(join(repo, "specs/billing.yaml"), BILLING_V2.replace("Refund a failed or disputed invoice", "Refund an invoice"));
    const stale = await runStep(repo, "generate-check", { inputs: { contract: "specs/billing.yaml", "generate-check": "sdk" } });
    expect(stale.status).toBe(1);
    expect(stale.outputs["generated-current"]).toBe("false");
    expect(stale.summary).toContain("`sdk` is stale or the contract is invalid:");
    expect(stale.summary).toMatch(/changed: \S+/);
    expect(stale.annotations).toContainEqual(expect.objectContaining({ level: "error", props: { title: "contractgen generate --check" } }));
    // Options the package was generated with are passed on.
    const skeleton = await runStep(repo, "generate-check", { inputs: { contract: "specs/billing.yaml", "generate-check": "sdk", "generate-options": "--mcp skeleton" } });
    expect(skeleton.status).toBe(1);
    const none = await runStep(repo, "generate-check", { inputs: { contract: "specs/billing.yaml" } });
    expect(none.status).toBe(0);
    expect(none.summary).toBe("");
  });
});

describe("action: markers and limits", () => {
  it("the marker of a path cannot end the HTML comment early", async () => {
    const { marker } = (await import(RUN)) as { marker: (p: string) => string };
    expect(marker("specs/billing.yaml")).toBe("<!-- contractgen-diff:specs/billing.yaml -->");
    const odd = marker("specs/a-->b <x>.yaml");
    expect(odd.slice(4, -3)).not.toMatch(/--|>/);
    expect(odd).not.toBe(marker("specs/a-b.yaml"));
  });

  it("a report over the limit is cut at a row, counting the rows cut; the summary's limit is in UTF-8 bytes", async () => {
    const { truncate } = (await import(RUN)) as { truncate: (md: string, limit: number, note: string, bytes?: boolean) => string };
    const rows = Array.from({ length: 100 }, (_, i) => `| 🔴 breaking | \`rule-${i}\` | x |`);
    const md = `### head\n\n${rows.join("\n")}\n`;
    expect(truncate(md, md.length, "{rows} cut")).toBe(md);
    const cut = truncate(md, 1000, "… {rows} more rows cut.");
    expect(cut.length).toBeLessThanOrEqual(1000);
    const kept = cut.split("\n").filter((l) => l.startsWith("| ")).length;
    expect(kept).toBeGreaterThan(0);
    expect(cut).toContain(`… ${100 - kept} more rows cut.`);
    expect(cut.split("\n").filter((l) => l.startsWith("| ")).every((l) => rows.includes(l))).toBe(true);
    const bytes = truncate(md, 1000, "… {rows} more rows cut.", true);
    expect(Buffer.byteLength(bytes)).toBeLessThanOrEqual(1000);
    expect(bytes.length).toBeLessThan(cut.length);
  });
});

describe("action.yml", () => {
  const action = parse(readFileSync("action.yml", "utf8")) as {
    inputs: Record<string, { description: string; required?: boolean; default?: string }>;
    outputs: Record<string, { value: string }>;
    runs: { using: string; steps: Array<{ id?: string; if?: string; run?: string; uses?: string; env?: Record<string, string>; with?: Record<string, string>; "working-directory"?: string }> };
  };
  const source = readFileSync(RUN, "utf8");

  it("is a composite action whose steps run files that exist", () => {
    expect(action.runs.using).toBe("composite");
    const scripts = action.runs.steps.flatMap((s) => [...(s.run ?? "").matchAll(/"\$GITHUB_ACTION_PATH\/([^"]+)"/g)].map((m) => m[1]!));
    expect(scripts).toEqual(expect.arrayContaining(["action/setup.mjs", "action/run.mjs"]));
    for (const s of scripts) expect(existsSync(resolve(s)), s).toBe(true);
    for (const step of action.runs.steps) {
      if (step.uses) expect(step.uses).toMatch(/^actions\/(setup-node|cache)@v\d+$/);
      else {
        expect(step.run).toMatch(/^node "\$GITHUB_ACTION_PATH\/action\/(setup|run)\.mjs" [a-z-]+$/);
        expect((step as { shell?: string }).shell).toBe("bash");
      }
    }
  });

  it("declares every input the script reads, and passes each to the step that reads it", async () => {
    const { INPUTS } = (await import(RUN)) as { INPUTS: Record<string, string[]> };
    // The script's list is what it reads: every input("…") call is in it.
    const read = new Set([...source.matchAll(/\binput\("([a-z-]+)"\)|listInput\("([a-z-]+)"\)/g)].map((m) => m[1] ?? m[2]!));
    expect(new Set(Object.values(INPUTS).flat())).toEqual(read);
    for (const [command, names] of Object.entries(INPUTS)) {
      const step = action.runs.steps.find((s) => s.run?.endsWith(` ${command}`))!;
      expect(step, command).toBeDefined();
      expect(step["working-directory"]).toBe("${{ inputs.working-directory }}");
      for (const name of names) {
        expect(action.inputs[name], name).toBeDefined();
        expect(step.env?.[`INPUT_${name.toUpperCase().replace(/-/g, "_")}`], `${command}: ${name}`).toBe(`\${{ inputs.${name} }}`);
      }
    }
    // Every input named anywhere in the file is declared.
    const text = readFileSync("action.yml", "utf8");
    for (const m of text.matchAll(/inputs\.([a-z-]+)/g)) expect(action.inputs[m[1]!], m[1]).toBeDefined();
    expect(action.inputs.contract!.required).toBe(true);
    expect(action.inputs["fail-on"]!.default).toBe("breaking");
  });

  it("exposes as outputs what the steps write", async () => {
    const repo = repository({ "specs/billing.yaml": BILLING_V1 }, { "specs/billing.yaml": BILLING_V2 });
    const run = await runStep(repo, "diff", { inputs: { contract: "specs/billing.yaml" } });
    const ids = new Set(action.runs.steps.map((s) => s.id));
    for (const [name, { value }] of Object.entries(action.outputs)) {
      const m = /^\$\{\{ steps\.([a-z-]+)\.outputs\.([a-z-]+) \}\}$/.exec(value);
      expect(m, name).not.toBeNull();
      expect(ids.has(m![1]!)).toBe(true);
      expect(m![2]).toBe(name);
    }
    for (const name of Object.keys(run.outputs)) expect(action.outputs[name], name).toBeDefined();
  });

  it("the setup step's cache keys: written as outputs, and the build key follows the sources", async () => {
    const setup = (await import(SETUP)) as { buildKey: (home: string) => string; compiler: () => string[] };
    const lock = JSON.parse(readFileSync("package-lock.json", "utf8")).packages;
    expect(setup.compiler()).toEqual([`typescript@${lock["node_modules/typescript"].version}`, `@types/node@${lock["node_modules/@types/node"].version}`]);
    const home = mkdtempSync(join(tmpdir(), "contractgen-home-"));
    writeAll(home, { "package.json": "{}", "package-lock.json": "{}", "tsconfig.json": "{}", "src/a.ts": "export const a = 1;\n" });
    const before = setup.buildKey(home);
    writeAll(home, { "src/a.ts": "export const a = 2;\n" });
    expect(setup.buildKey(home)).not.toBe(before);
    writeAll(home, { "src/a.ts": "export const a = 1;\n", "README.md": "not compiled\n" });
    expect(setup.buildKey(home)).toBe(before);
    const out = join(home, "out.txt");
    execFileSync(process.execPath, [SETUP, "key"], { env: { ...process.env, GITHUB_OUTPUT: out } });
    expect(readFileSync(out, "utf8")).toBe(`key=contractgen-${process.platform}-${process.arch}-${setup.buildKey(resolve("."))}\nnpm-key=contractgen-npm-${process.platform}-${process.arch}-${createHash("sha256").update(readFileSync("package-lock.json")).digest("hex").slice(0, 32)}\n`);
  });
});
