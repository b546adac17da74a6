#!/usr/bin/env node
/**
 * The contract-review GitHub Action (action.yml at the repository root), as one testable script.
 *
 *   node action/run.mjs diff             diff the contract against the pull request's base: annotations,
 *                                        job summary, step outputs, sticky comment, exit per fail-on
 *   node action/run.mjs generate-check   `contractgen generate --check` of a checked-in package
 *
 * Inputs arrive as INPUT_<NAME> environment variables (action.yml maps each one); everything else is
 * what a runner sets: GITHUB_WORKSPACE, GITHUB_EVENT_PATH, GITHUB_BASE_REF, GITHUB_STEP_SUMMARY,
 * GITHUB_OUTPUT, GITHUB_API_URL, GITHUB_REPOSITORY. contractgen itself is this checkout's dist/
 * (action/setup.mjs builds it), imported in process: the base side is read with the overlays as they
 * were at the base, which the CLI's one `--overlay` list cannot say.
 *
 * Exit codes: 0 passed, 1 findings at or above fail-on (or an invalid contract, or a stale package),
 * 2 a usage problem (a missing input, an unknown base, an unreadable config).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The contractgen checkout this script belongs to (its dist/ is what runs). */
const HOME = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Every input the script reads, by command (the test holds action.yml to this list). */
export const INPUTS = {
  diff: ["contract", "overlays", "base-ref", "fail-on", "github-token", "config", "comment"],
  "generate-check": ["contract", "overlays", "generate-check", "generate-options"],
};

/** Largest comment GitHub accepts is 65,536 characters; a job summary 1 MiB per step. */
const COMMENT_LIMIT = 60_000;
const SUMMARY_LIMIT = 1_000_000;
const FAIL_ON = ["breaking", "warning", "info", "none"];

class UsageError extends Error {
  constructor(message, hint) {
    super(message);
    this.hint = hint;
  }
}

/** An input as action.yml passes it: INPUT_BASE_REF for base-ref. */
function input(name) {
  return (process.env[`INPUT_${name.toUpperCase().replace(/-/g, "_")}`] ?? "").trim();
}

/** The overlays input: one path per line (commas also separate), blank lines ignored. */
function listInput(name) {
  return input(name)
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The token, kept out of everything this script prints or writes. */
const secrets = [];
function scrub(text) {
  let out = String(text);
  for (const s of secrets) if (s) out = out.split(s).join("***");
  return out;
}
const out = (text) => process.stdout.write(scrub(text));
const err = (text) => process.stderr.write(scrub(text));

/** Workflow-command escaping (data and properties differ). */
function cmdData(text) {
  return String(text).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}
function cmdProperty(text) {
  return cmdData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}
function annotate(level, message, props = {}) {
  const p = Object.entries(props)
    .filter(([, v]) => v !== undefined && v !== null && v !== "")
    .map(([k, v]) => `${k}=${cmdProperty(v)}`)
    .join(",");
  out(`::${level}${p ? ` ${p}` : ""}::${cmdData(message)}\n`);
}

function summary(markdown) {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (file) appendFileSync(file, scrub(markdown));
}

function setOutputs(values) {
  const file = process.env.GITHUB_OUTPUT;
  const lines = Object.entries(values).map(([k, v]) => `${k}=${String(v).replace(/[\r\n]+/g, " ")}\n`);
  if (file) appendFileSync(file, scrub(lines.join("")));
}

/**
 * Shorten Markdown at a line boundary, saying where the rest is ({rows}: how many table rows were
 * cut). `bytes`: the limit counts UTF-8 bytes (the job summary's), else characters (a comment's).
 */
export function truncate(markdown, limit, note, bytes = false) {
  const size = (t) => (bytes ? Buffer.byteLength(t) : t.length);
  if (size(markdown) <= limit) return markdown;
  let end = limit - size(note) - 2;
  while (end > 0 && size(markdown.slice(0, end)) > limit - size(note) - 2) end = Math.floor(end * 0.9);
  const cut = markdown.lastIndexOf("\n", end);
  const kept = markdown.slice(0, cut > 0 ? cut : end);
  const rows = markdown.slice(kept.length).split("\n").filter((l) => l.startsWith("| ")).length;
  return `${kept}\n\n${note.replace("{rows}", String(rows))}\n`;
}

function git(args, cwd, options = {}) {
  return execFileSync("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024, ...options });
}
function tryGit(args, cwd) {
  try {
    return String(git(args, cwd)).trim();
  } catch {
    return null;
  }
}

/** The event payload (pull_request, pull_request_target…), or {} when none was given. */
function readEvent() {
  const path = process.env.GITHUB_EVENT_PATH;
  if (!path || !existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    throw new UsageError(`GITHUB_EVENT_PATH (${path}) is not JSON.`, "Run the action in a workflow job; the runner writes the event there.");
  }
}

/** A commit a revision names, never letting git take the revision for an option. */
function commitOf(rev, cwd) {
  if (!rev || rev.startsWith("-")) return null;
  const id = tryGit(["rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`], cwd);
  return id && /^[0-9a-f]{40,64}$/.test(id) ? id : null;
}

/**
 * The base to compare with: base-ref if given, else the pull request's base commit from the event,
 * else GITHUB_BASE_REF (as origin/<branch>, then <branch>). A base the checkout lacks (a shallow
 * clone) is fetched from origin once. Then the fork point: merge-base(base, HEAD) when history allows,
 * so a base branch that moved on is not read as the pull request undoing its changes.
 */
function resolveBase(cwd, event) {
  const given = input("base-ref");
  const eventSha = event.pull_request?.base?.sha;
  const branch = process.env.GITHUB_BASE_REF || event.pull_request?.base?.ref || "";
  let candidates;
  let name;
  if (given) {
    candidates = [given, `origin/${given}`];
    name = given;
  } else if (eventSha || branch) {
    candidates = [eventSha, branch && `origin/${branch}`, branch].filter(Boolean);
    name = branch || String(eventSha).slice(0, 12);
  } else {
    throw new UsageError("no base to compare with: this is not a pull_request event and base-ref is empty.", "Run on pull_request, or set base-ref (a branch, tag or commit).");
  }
  const bad = candidates.find((c) => c.startsWith("-"));
  if (bad) throw new UsageError(`the base ${JSON.stringify(bad)} starts with "-", which git would read as an option; git was not run.`, "Name a branch, tag or commit.");
  let commit = null;
  for (const c of candidates) if ((commit = commitOf(c, cwd))) break;
  if (!commit) {
    // A shallow checkout (fetch-depth 1) has no base: fetch it, by commit or by branch.
    const what = given || eventSha || branch;
    const refspec = /^[0-9a-f]{40}$/.test(what) ? what : `+refs/heads/${what}:refs/remotes/origin/${what}`;
    tryGit(["fetch", "--no-tags", "--depth=1", "origin", "--end-of-options", refspec], cwd);
    for (const c of candidates) if ((commit = commitOf(c, cwd))) break;
  }
  if (!commit) {
    throw new UsageError(`the base ${JSON.stringify(given || eventSha || branch)} is not a commit of this checkout, and fetching it from origin failed.`, "Check out with actions/checkout and fetch-depth: 0, or fetch the base branch before this step.");
  }
  const fork = tryGit(["merge-base", commit, "HEAD"], cwd);
  return { commit: fork && /^[0-9a-f]{40,64}$/.test(fork) ? fork : commit, name };
}

/** The file at a commit (raw bytes: cat-file runs no textconv or filter), or null when absent. */
function readAt(commit, repoPath, root) {
  try {
    return git(["cat-file", "blob", `${commit}:${repoPath}`], root);
  } catch {
    return null;
  }
}

function toRepo(root, cwd, path) {
  const rel = relative(root, resolve(cwd, path)).split(sep).join("/");
  return rel.startsWith("../") || rel === ".." || isAbsolute(rel) ? null : rel;
}

/** Repository paths of every YAML/JSON file under a folder at a commit (bounded like a contract's $refs). */
function treeFiles(commit, folder, root) {
  const listed = tryGit(["ls-tree", "-r", "-z", "--name-only", commit, "--", folder === "" ? "." : folder], root);
  if (!listed) return [];
  return listed
    .split("\0")
    .filter((p) => /\.(ya?ml|json)$/i.test(p))
    .slice(0, 256);
}

async function loadDist() {
  const dist = (p) => import(pathToFileURL(join(HOME, "dist", "src", p)).href);
  const [open, engine, report, rules, config, diffCmd, io] = await Promise.all([
    dist("import/open.js"),
    dist("diff/engine.js"),
    dist("diff/report/index.js"),
    dist("diff/rules/index.js"),
    dist("diff/config.js"),
    dist("cli/commands/diff.js"),
    dist("cli/io.js"),
  ]).catch((e) => {
    throw new UsageError(`contractgen is not built in ${HOME} (${e.message.split("\n")[0]}).`, "The action's setup step builds it (node action/setup.mjs install); run it first.");
  });
  return { open, engine, report, rules, config, diffCmd, io };
}

/** The marker that finds this contract's comment again. */
export function marker(repoPath) {
  return `<!-- contractgen-diff:${encodeURI(repoPath).replace(/--/g, "-%2D").replace(/>/g, "%3E")} -->`;
}

async function githubApi(method, url, token, body) {
  const res = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: "application/vnd.github+json",
      "x-github-api-version": "2022-11-28",
      "user-agent": "contractgen-action",
      ...(body ? { "content-type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) {
    let said = text;
    try {
      said = JSON.parse(text).message ?? text;
    } catch {}
    const e = new Error(`${method} ${url.replace(/\?.*$/, "")}: HTTP ${res.status}${said ? ` (${String(said).slice(0, 200)})` : ""}`);
    e.status = res.status;
    throw e;
  }
  return text ? JSON.parse(text) : null;
}

/** Create this contract's comment on the pull request, or update the one that carries its marker. */
async function stickyComment(body, repoPath, event, create) {
  const token = input("github-token");
  if (!token) return null;
  const number = event.pull_request?.number ?? (event.issue?.pull_request ? event.issue.number : undefined);
  const repo = process.env.GITHUB_REPOSITORY;
  if (!number || !repo) {
    annotate("warning", "github-token was given, but the event names no pull request (or GITHUB_REPOSITORY is unset): no comment was written.", { title: "contractgen" });
    return null;
  }
  const api = (process.env.GITHUB_API_URL || "https://api.github.com").replace(/\/+$/, "");
  const base = `${api}/repos/${repo.split("/").map(encodeURIComponent).join("/")}`;
  const mark = marker(repoPath);
  let existing = null;
  for (let page = 1; page <= 50 && !existing; page++) {
    const list = await githubApi("GET", `${base}/issues/${number}/comments?per_page=100&page=${page}`, token);
    if (!Array.isArray(list)) break;
    existing = list.find((c) => typeof c.body === "string" && c.body.includes(mark)) ?? null;
    if (list.length < 100) break;
  }
  const text = `${mark}\n${body}`;
  if (existing) {
    const updated = await githubApi("PATCH", `${base}/issues/comments/${existing.id}`, token, { body: text });
    return { action: "updated", id: existing.id, url: updated?.html_url ?? existing.html_url ?? "" };
  }
  if (!create) return null;
  const created = await githubApi("POST", `${base}/issues/${number}/comments`, token, { body: text });
  return { action: "created", id: created?.id, url: created?.html_url ?? "" };
}

function runUrl() {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: run } = process.env;
  return server && repo && run ? `${server}/${repo}/actions/runs/${run}` : null;
}

/** Diagnostics of a side as annotations (errors only) and as Markdown lines. */
function diagnosticsOut(diagnostics, label, where) {
  const errors = diagnostics.filter((d) => d.severity === "error");
  const lines = [];
  for (const d of errors) {
    const file = where(d.location.file);
    annotate("error", `${d.message} ${d.hint}`, { file, line: d.location.line, col: d.location.col, title: `${d.code} (${label})` });
    lines.push(`- \`${file}:${d.location.line}:${d.location.col}\` **${d.code}** ${d.message.replace(/</g, "&lt;")}`);
  }
  return lines;
}

async function diffCommand() {
  const cwd = process.cwd();
  const contract = input("contract");
  if (!contract) throw new UsageError("the contract input is empty.", "Set contract: to the contract YAML or OpenAPI document, relative to working-directory.");
  const failOnInput = (input("fail-on") || "breaking").toLowerCase();
  if (!FAIL_ON.includes(failOnInput) && failOnInput !== "never") throw new UsageError(`fail-on is ${JSON.stringify(failOnInput)}.`, `Use one of ${FAIL_ON.join(", ")}.`);
  const failOn = failOnInput === "none" ? "never" : failOnInput;
  const commentMode = (input("comment") || "always").toLowerCase();
  if (!["always", "changes", "never"].includes(commentMode)) throw new UsageError(`comment is ${JSON.stringify(commentMode)}.`, "Use always, changes or never.");
  const token = input("github-token");
  secrets.push(token);
  const overlays = listInput("overlays");
  const event = readEvent();
  const root = tryGit(["rev-parse", "--show-toplevel"], cwd);
  if (!root) throw new UsageError(`${cwd} is not inside a git checkout.`, "Run actions/checkout (with fetch-depth: 0) before this action.");
  const repoPath = toRepo(root, cwd, contract);
  if (!repoPath) throw new UsageError(`the contract ${contract} is outside the repository ${root}.`, "Give a path inside the checkout, relative to working-directory.");
  if (!existsSync(resolve(cwd, contract))) throw new UsageError(`the contract ${contract} does not exist in this checkout.`, "Give the path relative to working-directory; a contract the pull request deletes cannot be reviewed by this action.");
  const overlayPaths = overlays.map((o) => {
    const p = toRepo(root, cwd, o);
    if (!p) throw new UsageError(`the overlay ${o} is outside the repository ${root}.`, "Give a path inside the checkout.");
    if (!existsSync(resolve(cwd, o))) throw new UsageError(`the overlay ${o} does not exist in this checkout.`, "Give the path relative to working-directory, or drop it from overlays.");
    return p;
  });
  const base = resolveBase(cwd, event);
  const short = base.commit.slice(0, 7);
  const baseLabel = `${base.name}:${repoPath}`;
  const heading = `## Contract review: \`${repoPath}\``;

  const baseBytes = readAt(base.commit, repoPath, root);
  if (baseBytes === null) {
    // New in this pull request: nothing to compare, but the contract must still be valid.
    const { open } = await loadDist();
    const rev = await open.openContract(resolve(root, repoPath), { checkBudget: false, overlays: overlayPaths.map((p) => resolve(root, p)), overlaysForOpenApiOnly: true });
    const where = (f) => toRepo(root, root, f) ?? f;
    const problems = rev.model ? [] : diagnosticsOut(rev.diagnostics, "new", where);
    const md = [heading, "", `\`${repoPath}\` is new in this pull request (absent at ${base.name}, ${short}): nothing to compare.`, ...(problems.length ? ["", "It is not a valid contract:", "", ...problems] : []), ""].join("\n");
    summary(`${md}\n`);
    setOutputs({ breaking: 0, warning: 0, info: 0, status: problems.length ? "invalid" : "new", "base-sha": base.commit, failed: problems.length ? "true" : "false" });
    out(`contractgen: ${repoPath} is new (absent at ${base.name}, ${short}); nothing to compare.\n`);
    await comment(md, repoPath, event, commentMode === "changes" ? "never" : commentMode);
    return problems.length ? 1 : 0;
  }

  const d = await loadDist();
  let config = {};
  const configPath = input("config");
  if (configPath) {
    try {
      config = d.config.loadDiffConfig(resolve(cwd, configPath), d.rules.RULES);
    } catch (e) {
      if (e instanceof d.config.ConfigError) throw new UsageError(`diff configuration: ${e.message}`, "See docs/commands/diff.md for its keys.");
      throw e;
    }
  }

  // The base side, as it was: the contract, its overlays and the files the revision reads, in a
  // scratch folder laid out like the repository (relative $refs and overlay folders keep working).
  const scratch = mkdtempSync(join(process.env.RUNNER_TEMP || tmpdir(), "contractgen-base-"));
  try {
    const write = (p, bytes) => {
      const target = join(scratch, ...p.split("/"));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, bytes);
    };
    write(repoPath, baseBytes);
    const baseOverlays = [];
    const overlaysNew = [];
    for (const p of overlayPaths) {
      const bytes = readAt(base.commit, p, root);
      if (bytes === null) overlaysNew.push(p);
      else {
        write(p, bytes);
        baseOverlays.push(join(scratch, ...p.split("/")));
      }
    }
    const metaValid = new Set();
    const options = (list) => ({ checkBudget: false, refRoots: [], overlays: list, overlaysForOpenApiOnly: true, metaValid });
    const revision = await d.open.openContract(resolve(root, repoPath), options(overlayPaths.map((p) => resolve(root, p))));
    const written = new Set([repoPath, ...overlayPaths]);
    const copy = (paths) => {
      for (const p of paths) {
        if (!p || written.has(p)) continue;
        written.add(p);
        const bytes = readAt(base.commit, p, root);
        if (bytes !== null) write(p, bytes);
      }
    };
    copy((revision.files ?? []).map((f) => toRepo(root, root, f)));
    const baseFile = join(scratch, ...repoPath.split("/"));
    let before = await d.open.openContract(baseFile, options(baseOverlays));
    if (!before.model && before.diagnostics.some((x) => /^(ref-unresolved|file-not-found)$/.test(x.code))) {
      // A file only the base references: bring the YAML/JSON files of the contract's folder.
      copy(treeFiles(base.commit, repoPath.includes("/") ? repoPath.slice(0, repoPath.lastIndexOf("/")) : "", root));
      before = await d.open.openContract(baseFile, options(baseOverlays));
    }

    // Locations: the revision's files relative to the repository root (what annotations need), the
    // base's as <base>:<path>.
    const where = (file) => {
      const abs = resolve(root, file);
      const inScratch = relative(scratch, abs);
      if (!inScratch.startsWith("..") && !isAbsolute(inScratch)) return `${base.name}:${inScratch.split(sep).join("/")}`;
      return toRepo(root, root, file) ?? file;
    };
    if (!revision.model) {
      const problems = diagnosticsOut(revision.diagnostics, "pull request", where);
      const md = [heading, "", `\`${repoPath}\` is not a valid contract in this pull request; nothing was compared.`, "", ...problems, ""].join("\n");
      summary(`${md}\n`);
      setOutputs({ breaking: 0, warning: 0, info: 0, status: "invalid", "base-sha": base.commit, failed: "true" });
      await comment(md, repoPath, event, commentMode);
      return 1;
    }
    if (!before.model) {
      const errors = before.diagnostics.filter((x) => x.severity === "error");
      const md = [heading, "", `\`${repoPath}\` was not a valid contract at ${base.name} (${short}); nothing was compared. It is valid now.`, "", ...errors.map((x) => `- \`${where(x.location.file)}:${x.location.line}\` **${x.code}** ${x.message.replace(/</g, "&lt;")}`), ""].join("\n");
      annotate("warning", `${repoPath} was not a valid contract at ${base.name}; nothing was compared.`, { title: "contractgen" });
      summary(`${md}\n`);
      setOutputs({ breaking: 0, warning: 0, info: 0, status: "base-invalid", "base-sha": base.commit, failed: "false" });
      await comment(md, repoPath, event, commentMode);
      return 0;
    }

    const report = d.engine.runDiff(
      { model: before.model, source: before.source, label: baseLabel, ...d.open.diffFacts(before) },
      { model: revision.model, source: revision.source, label: repoPath, ...d.open.diffFacts(revision) },
      config,
    );
    const loc = (l) => (l ? { ...l, file: where(l.file) } : l);
    const relabel = (f) => ({ ...f, old: loc(f.old), new: loc(f.new), anchor: loc(f.anchor), consequences: f.consequences.map(relabel) });
    const shown = { ...report, findings: report.findings.map(relabel), ignored: report.ignored.map(relabel) };

    out(d.report.renderReport(shown, "github", false));
    // Schemas compared only as far as the diff's node limit (what the CLI prints as diff-schema-too-large).
    for (const pointer of report.oversized?.new ?? []) {
      const at = revision.source?.locate(pointer);
      annotate("warning", `The schema at ${pointer} expands to more nodes than the diff compares once its references are followed; it was compared only that far.`, { file: at ? where(at.file) : repoPath, line: at?.line, title: "diff-schema-too-large" });
    }
    const s = report.summary;
    const failed = d.diffCmd.failsOn(report.findings, failOn);
    const overlayNote = overlaysNew.length ? [``, `Overlays new in this pull request (the base is read without them): ${overlaysNew.map((p) => `\`${p}\``).join(", ")}.`] : [];
    const verdict = failOn === "never" ? "fail-on: none" : failed ? `**fails**: findings at or above ${failOn}` : `passes fail-on: ${failOn}`;
    const head = [heading, "", `Against \`${base.name}\` (${short}); ${verdict}.`, ...overlayNote, ""].join("\n");
    const body = d.report.renderReport(shown, "markdown", false);
    const md = `${head}\n${body}`;
    summary(truncate(`${md}\n`, SUMMARY_LIMIT, "… {rows} more rows cut to fit the job summary; run `contractgen diff` locally for all of them.", true));
    const changed = s.breaking + s.warning + s.info > 0;
    const commented = await comment(md, repoPath, event, commentMode === "changes" && !changed ? "update-only" : commentMode);
    setOutputs({ breaking: s.breaking, warning: s.warning, info: s.info, status: changed ? "changed" : "unchanged", "base-sha": base.commit, failed: failed ? "true" : "false", ...(commented?.url ? { "comment-url": commented.url } : {}) });
    out(`contractgen: ${repoPath} against ${base.name} (${short}): ${s.breaking} breaking, ${s.warning} warning, ${s.info} info (fail-on: ${failOnInput}).\n`);
    if (failed) annotate("error", `${repoPath}: findings at or above ${failOn} (${s.breaking} breaking, ${s.warning} warning, ${s.info} info); the job summary lists them.`, { title: "contractgen diff" });
    return failed ? 1 : 0;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The sticky comment, when a token is given; a refusal (a fork's read-only token) is a warning. */
async function comment(md, repoPath, event, mode) {
  if (!input("github-token") || mode === "never") return null;
  const link = runUrl();
  const body = truncate(`${md}\n${link ? `\n<sub>[contractgen run](${link})</sub>\n` : ""}`, COMMENT_LIMIT, `… {rows} more rows cut to fit a comment${link ? `; all of them are in the [job summary](${link})` : "; the job summary lists all of them"}.`);
  try {
    // "update-only": nothing changed, so an earlier comment is corrected but none is started.
    const r = await stickyComment(body, repoPath, event, mode !== "update-only");
    if (r) out(`contractgen: ${r.action} comment ${r.id ?? ""} on the pull request.\n`);
    return r;
  } catch (e) {
    annotate("warning", `the pull-request comment was not written: ${e.message}. A pull request from a fork gets a read-only token; the job summary has the report.`, { title: "contractgen comment" });
    return null;
  }
}

/** `generate --check` of the checked-in package, through the CLI (its own messages and exit codes). */
function generateCheck() {
  const dir = input("generate-check");
  if (!dir) return 0;
  const contract = input("contract");
  if (!contract) throw new UsageError("the contract input is empty.", "Set contract: to the contract the package is generated from.");
  const extra = input("generate-options").split(/\s+/).filter(Boolean);
  const args = [join(HOME, "bin", "contractgen.js"), "generate", contract, "-o", dir, "--check", "--no-progress", ...listInput("overlays").flatMap((o) => ["--overlay", o]), ...extra];
  const run = spawnSync(process.execPath, args, { cwd: process.cwd(), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const said = `${run.stdout ?? ""}${run.stderr ?? ""}`;
  out(run.stdout ?? "");
  err(run.stderr ?? "");
  const fence = "`".repeat(Math.max(3, ...[...said.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  const heading = `## Generated package: \`${dir}\``;
  if (run.status === 0) {
    summary(`${heading}\n\nUp to date with \`${contract}\`.\n\n`);
    setOutputs({ "generated-current": "true" });
    return 0;
  }
  const what = run.status === 1 ? "is stale or the contract is invalid" : "could not be checked";
  summary(truncate(`${heading}\n\n\`${dir}\` ${what}:\n\n${fence}text\n${said.trim()}\n${fence}\n\n`, SUMMARY_LIMIT, "… cut to fit the job summary.", true));
  setOutputs({ "generated-current": "false" });
  annotate("error", `${dir} ${what} (contractgen generate --check exited ${run.status ?? run.signal}); the job summary shows why.`, { title: "contractgen generate --check" });
  return run.status === 2 ? 2 : 1;
}

async function main(argv) {
  const command = argv[0] ?? "diff";
  try {
    if (command === "diff") return await diffCommand();
    if (command === "generate-check") return generateCheck();
    throw new UsageError(`unknown command ${JSON.stringify(command)}.`, "Use diff or generate-check.");
  } catch (e) {
    if (e instanceof UsageError) {
      annotate("error", `${e.message} ${e.hint}`, { title: "contractgen action" });
      err(`contractgen action: ${e.message}\n  hint: ${e.hint}\n`);
      return 2;
    }
    err(`contractgen action: internal error: ${e?.stack ?? e}\n`);
    return 70;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
