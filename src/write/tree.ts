/**
 * Writing generated output into a folder the user also owns.
 *
 * contractgen only ever creates new files, or replaces/deletes files its manifest (`.contractgen.json`)
 * lists *and* whose content still has the hash the manifest recorded. Everything else in the folder
 * (node_modules/, dist/, package-lock.json, .git, .env, hand-written sources, edited generated files)
 * is the user's: never read beyond an lstat, never moved, never deleted. Nothing is written through a
 * symbolic link, and nothing outside the folder is touched.
 *
 * Atomicity: a write is a transaction in `.contractgen.tx/` inside the output folder. New files are
 * staged there, then a plan is recorded (`plan.json`, by rename), then every replaced or deleted file
 * is renamed into the transaction as a backup and every staged file renamed into place, the manifest
 * last. Unlinking the plan is the commit point. A run that finds a transaction with a plan rolls it
 * back (every step is undoable by looking at what is still where) before doing anything else; without
 * a plan there is nothing to undo (nothing was moved yet, or everything was committed).
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readSync, realpathSync, renameSync, rmdirSync, rmSync, statSync, unlinkSync, writeFileSync, type Stats } from "node:fs";
import { createHash } from "node:crypto";
import { hostname } from "node:os";
import { join } from "node:path";
import type { FileTree } from "../emit/index.js";

/** Lists what contractgen generated in a folder (path → sha256), so that it may replace exactly that. */
export const MANIFEST = ".contractgen.json";
/** The in-progress write; its presence on start means the previous run was interrupted. */
export const TRANSACTION = ".contractgen.tx";
/** A manifest larger than this is not one contractgen wrote (ours are a few KiB). */
const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

/** What one generation produces. */
export interface GeneratedOutput {
  /** The manifest's leading fields (generator, versions, model hash), in order. */
  readonly header: Readonly<Record<string, unknown>>;
  readonly files: FileTree;
  /**
   * Files created once and then left to the user (e.g. handler skeletons meant to be edited): written
   * only when absent, never overwritten, never deleted, not compared by --check beyond existing.
   */
  readonly writeOnce?: ReadonlySet<string>;
}

export class OutputDirectoryError extends Error {}

/**
 * A path in the way, with why: `edited` is a generated file edited by hand since (what --force would
 * overwrite, losing the edits), `foreign` a file contractgen did not write, `irregular` anything else.
 */
export interface OutputConflict {
  readonly path: string;
  readonly reason: string;
  readonly kind: "edited" | "foreign" | "irregular";
}

/** Paths that cannot be written without --force (or at all), each with why. */
export class OutputConflictError extends OutputDirectoryError {
  constructor(
    readonly dir: string,
    readonly conflicts: readonly OutputConflict[],
  ) {
    super(`refusing to overwrite in ${dir}:\n${conflicts.map((c) => `  ${c.path}: ${c.reason}`).join("\n")}`);
  }
}

export interface WriteResult {
  /** The output folder's real path (a symlinked -o is resolved). */
  readonly dir: string;
  readonly written: readonly string[];
  readonly deleted: readonly string[];
  /** Files an earlier generation wrote that this one no longer does, kept because they were edited. */
  readonly kept: readonly string[];
  /**
   * Write-once files an earlier generation created that this one no longer does (a handler whose
   * operation left the contract): never deleted, no longer listed in the manifest — the user's now.
   */
  readonly released: readonly string[];
  /** An interrupted earlier write was rolled back first. */
  readonly recovered: boolean;
}

export interface StaleReport {
  readonly changed: string[];
  readonly missing: string[];
  /** Listed in the folder's manifest but edited by hand since (their content no longer has its hash). */
  readonly edited: string[];
  /** Listed in the folder's manifest, no longer generated, still present. */
  readonly obsolete: string[];
  /** A generated path holding something that is not a regular file (never opened). */
  readonly irregular: Array<{ path: string; kind: Kind }>;
  readonly recovered: boolean;
}

// ---------------------------------------------------------------------------------------------------
// Test hook: CONTRACTGEN_TEST_KILL_AT=n makes the process SIGKILL itself just before its n-th file-system
// mutation, so tests can prove that a crash at any point leaves recoverable output.
let mutations = 0;
function mutate(): void {
  const at = Number(process.env.CONTRACTGEN_TEST_KILL_AT ?? 0);
  if (at > 0 && ++mutations === at) process.kill(process.pid, "SIGKILL");
}

// ---------------------------------------------------------------------------------------------------
// Looking without following links or opening anything that is not a regular file.

export type Kind = "absent" | "file" | "folder" | "symbolic link" | "FIFO" | "socket" | "device";

function kindOf(st: Stats): Kind {
  if (st.isFile()) return "file";
  if (st.isDirectory()) return "folder";
  if (st.isSymbolicLink()) return "symbolic link";
  if (st.isFIFO()) return "FIFO";
  if (st.isSocket()) return "socket";
  return "device";
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT" || (e as NodeJS.ErrnoException).code === "ENOTDIR") return null;
    throw e;
  }
}

/** A relative path with no way out of the folder and no way into our own transaction. */
function isSafePath(rel: unknown): rel is string {
  if (typeof rel !== "string" || rel === "" || rel.includes("\0") || rel.includes("\\") || rel.startsWith("/")) return false;
  const parts = rel.split("/");
  return parts.every((p) => p !== "" && p !== "." && p !== "..") && parts[0] !== TRANSACTION;
}

interface Inspection {
  /** What is at the path itself ("absent" when a parent is missing or blocked). */
  readonly kind: Kind;
  readonly size: number;
  /** The first parent component that exists and is not a real folder (a link, a file…). */
  readonly blocker?: { readonly path: string; readonly kind: Kind };
}

/** lstat every component of `rel` under `root`: a symlinked parent is reported, never followed. */
function inspect(root: string, rel: string): Inspection {
  const parts = rel.split("/");
  for (let i = 1; i < parts.length; i++) {
    const prefix = parts.slice(0, i).join("/");
    const st = lstatOrNull(join(root, prefix));
    if (!st) return { kind: "absent", size: 0 };
    if (!st.isDirectory()) return { kind: "absent", size: 0, blocker: { path: prefix, kind: kindOf(st) } };
  }
  const st = lstatOrNull(join(root, rel));
  return st ? { kind: kindOf(st), size: st.size } : { kind: "absent", size: 0 };
}

/**
 * Read a regular file without following a link and without blocking on a FIFO swapped in since the
 * lstat: O_NOFOLLOW | O_NONBLOCK, then fstat. Returns null if it is not a regular file.
 */
function readRegular(path: string, limit = Number.POSITIVE_INFINITY): Buffer | null {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > limit) return null;
    const chunks: Buffer[] = [];
    const buf = Buffer.alloc(1 << 16);
    for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0; ) chunks.push(Buffer.from(buf.subarray(0, n)));
    return Buffer.concat(chunks);
  } finally {
    closeSync(fd);
  }
}

function sha256(content: string | Buffer): string {
  return createHash("sha256").update(content).digest("hex");
}

/** A regular file's sha256 (read in chunks, so a huge file the user put there costs no memory). */
function hashRegular(path: string): string | null {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) return null;
    const hash = createHash("sha256");
    const buf = Buffer.alloc(1 << 16);
    for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0; ) hash.update(buf.subarray(0, n));
    return hash.digest("hex");
  } finally {
    closeSync(fd);
  }
}

// ---------------------------------------------------------------------------------------------------
// The manifest.

interface Manifest {
  readonly files: ReadonlyMap<string, string>;
  readonly writeOnce: readonly string[];
}

/** Each output's file hashes, computed once: the manifest lists them and the writer compares them (tens of MB on a large contract). */
const outputHashes = new WeakMap<GeneratedOutput, Map<string, string>>();
function fileHash(output: GeneratedOutput, path: string, content: string): string {
  let hashes = outputHashes.get(output);
  if (hashes === undefined) outputHashes.set(output, (hashes = new Map()));
  let hash = hashes.get(path);
  if (hash === undefined) hashes.set(path, (hash = sha256(content)));
  return hash;
}

/**
 * The manifest text for an output: header fields, then every file's hash, then write-once paths —
 * those in `claimed` when given: a write-once file the user already had (their own `.gitignore`) is
 * never written, so it is not listed as contractgen's either.
 */
export function renderManifest(output: GeneratedOutput, claimed?: ReadonlySet<string>): string {
  const writeOnce = [...(output.writeOnce ?? [])].filter((p) => output.files.has(p) && (claimed === undefined || claimed.has(p))).sort();
  const hashed = [...output.files].filter(([p]) => !output.writeOnce?.has(p));
  const manifest = {
    ...output.header,
    files: Object.fromEntries(hashed.map(([path, content]) => [path, fileHash(output, path, content)])),
    ...(writeOnce.length > 0 ? { writeOnce } : {}),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** The folder's manifest: `null` when absent, a reason string when something else is there. */
function readManifest(root: string): Manifest | null | string {
  const at = inspect(root, MANIFEST);
  if (at.kind === "absent") return null;
  if (at.kind !== "file") return `is a ${at.kind}`;
  const bytes = readRegular(join(root, MANIFEST), MAX_MANIFEST_BYTES);
  if (!bytes) return "not a contractgen manifest (too large)";
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch {
    return "not a contractgen manifest (not JSON)";
  }
  const v = value as { generator?: unknown; files?: unknown; writeOnce?: unknown };
  if (typeof v !== "object" || v === null || v.generator !== "contractgen" || typeof v.files !== "object" || v.files === null || Array.isArray(v.files)) {
    return 'not a contractgen manifest (no "generator": "contractgen" with a "files" object)';
  }
  const files = new Map<string, string>();
  for (const [path, hash] of Object.entries(v.files)) {
    if (!isSafePath(path) || path === MANIFEST || typeof hash !== "string" || !/^[0-9a-f]{64}$/.test(hash)) {
      return `not a valid contractgen manifest (entry ${JSON.stringify(path).slice(0, 200)})`;
    }
    files.set(path, hash);
  }
  const writeOnce = v.writeOnce ?? [];
  if (!Array.isArray(writeOnce) || !writeOnce.every((p) => isSafePath(p) && p !== MANIFEST)) return 'not a valid contractgen manifest ("writeOnce")';
  return { files, writeOnce: writeOnce as string[] };
}

// ---------------------------------------------------------------------------------------------------
// Resolving the output folder.

/** The folder's real path: a symlinked folder is resolved once, here, and only its target is used. */
function resolveOutput(dir: string, create: boolean): string | null {
  const st = lstatOrNull(dir);
  if (!st) {
    if (!create) return null;
    try {
      mkdirSync(dir, { recursive: true });
    } catch (e) {
      throw new OutputDirectoryError(`cannot create ${dir}: ${(e as Error).message}`);
    }
  }
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    throw new OutputDirectoryError(`${dir} is a symbolic link to a folder that does not exist.`);
  }
  if (!statSync(real).isDirectory()) throw new OutputDirectoryError(`${dir} exists and is not a folder.`);
  return real;
}

// ---------------------------------------------------------------------------------------------------
// The transaction.

interface Step {
  /** Index of the staged file and of the backup in the transaction folder. */
  readonly id: number;
  readonly path: string;
  /** An entry is there now and is moved into the transaction first (replaced or deleted). */
  readonly backup: boolean;
  /** sha256 of the staged file; absent for a deletion. */
  readonly sha?: string;
}

interface Plan {
  readonly version: 1;
  /** Moved out of the way first: deleted files, and (with --force) non-folders blocking a path. */
  readonly asides: readonly Step[];
  /** Folders created next, parents first. */
  readonly dirs: readonly string[];
  /** Then every staged file renamed in (its old version backed up first); the manifest is last. */
  readonly writes: readonly Step[];
}

const tx = (root: string, ...rest: string[]) => join(root, TRANSACTION, ...rest);

function isPlan(v: unknown): v is Plan {
  const p = v as Plan;
  const okStep = (s: Step) => typeof s === "object" && s !== null && Number.isSafeInteger(s.id) && s.id >= 0 && isSafePath(s.path) && typeof s.backup === "boolean" && (s.sha === undefined || (typeof s.sha === "string" && /^[0-9a-f]{64}$/.test(s.sha)));
  return typeof p === "object" && p !== null && p.version === 1 && Array.isArray(p.asides) && p.asides.every(okStep) && Array.isArray(p.writes) && p.writes.every((s) => okStep(s) && s.sha !== undefined) && Array.isArray(p.dirs) && p.dirs.every(isSafePath);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Every parent of `rel` under `root` must be a real folder; undo never goes through a link either. */
function assertNoLinkedParent(root: string, rel: string): void {
  const blocker = inspect(root, rel).blocker;
  if (blocker) throw new OutputDirectoryError(`cannot roll back ${rel} in ${root}: ${blocker.path} is a ${blocker.kind}; the interrupted write is kept in ${TRANSACTION}/ for inspection.`);
}

function rollback(root: string, plan: Plan): void {
  const stuck = (path: string, id: number) =>
    new OutputDirectoryError(`cannot roll back ${path} in ${root}: something new is there; its previous version is ${TRANSACTION}/old/${id}.`);
  for (const w of [...plan.writes].reverse()) {
    const target = join(root, w.path);
    const staged = lstatOrNull(tx(root, "new", String(w.id))) !== null;
    const backedUp = w.backup && lstatOrNull(tx(root, "old", String(w.id))) !== null;
    // The staged file leaves the transaction only by being renamed into place; a backup only by being
    // restored (so: staged gone, backup gone = this step was already undone by an interrupted rollback).
    const movedIn = !staged && (backedUp || !w.backup);
    if (!movedIn && !backedUp) continue;
    assertNoLinkedParent(root, w.path);
    if (movedIn) {
      const st = lstatOrNull(target);
      if (st) {
        if (!st.isFile() || hashRegular(target) !== w.sha) throw stuck(w.path, w.id);
        mutate();
        unlinkSync(target);
      }
    }
    if (backedUp) {
      if (lstatOrNull(target)) throw stuck(w.path, w.id);
      mutate();
      renameSync(tx(root, "old", String(w.id)), target);
    }
  }
  for (const d of [...plan.dirs].reverse()) {
    try {
      mutate();
      rmdirSync(join(root, d));
    } catch {
      // Not created yet, or the user put something in it: either way it stays.
    }
  }
  for (const a of [...plan.asides].reverse()) {
    if (!lstatOrNull(tx(root, "old", String(a.id)))) continue;
    assertNoLinkedParent(root, a.path);
    if (lstatOrNull(join(root, a.path))) throw stuck(a.path, a.id);
    mutate();
    renameSync(tx(root, "old", String(a.id)), join(root, a.path));
  }
  mutate();
  unlinkSync(tx(root, "plan.json"));
}

/**
 * Finish what an interrupted run left: roll back a transaction that has a plan, drop one that has
 * none (nothing had been moved yet, or it was committed). Refuses while another live process owns it.
 */
function recover(root: string): boolean {
  const st = lstatOrNull(tx(root));
  if (!st) return false;
  if (!st.isDirectory()) throw new OutputDirectoryError(`${tx(root)} exists and is not contractgen's transaction folder; move it away.`);
  const ownerAt = tx(root, "owner");
  const owner = lstatOrNull(ownerAt)?.isFile() ? readRegular(ownerAt, 4096)?.toString("utf8") : undefined;
  const [pid, host] = (owner ?? "").split(" ");
  const ownerPid = Number(pid);
  if (owner && Number.isSafeInteger(ownerPid) && ownerPid > 0 && ownerPid !== process.pid && (host !== hostname() || processAlive(ownerPid))) {
    throw new OutputDirectoryError(`another contractgen (pid ${pid} on ${host}) is writing ${root}; try again when it is done (or remove ${tx(root)} if no contractgen is running).`);
  }
  const planAt = tx(root, "plan.json");
  const planSt = lstatOrNull(planAt);
  if (planSt) {
    let plan: unknown;
    try {
      plan = planSt.isFile() ? JSON.parse(readRegular(planAt, MAX_MANIFEST_BYTES)?.toString("utf8") ?? "") : undefined;
    } catch {
      plan = undefined;
    }
    if (!isPlan(plan)) throw new OutputDirectoryError(`${planAt} is not a plan contractgen wrote; inspect ${tx(root)} and remove it.`);
    rollback(root, plan);
  }
  mutate();
  rmSync(tx(root), { recursive: true, force: true });
  return true;
}

// ---------------------------------------------------------------------------------------------------
// Planning and writing.

function checkPaths(output: GeneratedOutput): void {
  for (const path of output.files.keys()) if (!isSafePath(path) || path === MANIFEST) throw new Error(`generated path ${JSON.stringify(path)} is not a plain relative path`);
}

function withManifest(output: GeneratedOutput, claimed?: ReadonlySet<string>): Map<string, string> {
  checkPaths(output);
  // The manifest is the commit record of the files: renamed in after all of them.
  return new Map([...output.files, [MANIFEST, renderManifest(output, claimed)]]);
}

/** The write-once files that are contractgen's in this folder: absent (about to be created), or listed by its manifest. */
function claimedWriteOnce(root: string, output: GeneratedOutput, manifest: Manifest | null | string): Set<string> {
  const listed = new Set(typeof manifest === "object" && manifest !== null ? manifest.writeOnce : []);
  return new Set([...(output.writeOnce ?? [])].filter((path) => output.files.has(path) && (listed.has(path) || inspect(root, path).kind === "absent")));
}

/**
 * Write `output` into `dir`. Only creates files, or replaces/deletes files the folder's manifest lists
 * with their current hash; anything else in the way is refused (OutputConflictError) — with `force`,
 * replaced, except folders. Never writes through a link or outside the folder; atomic (see above).
 */
export function writeTree(dir: string, output: GeneratedOutput, options: { force?: boolean } = {}): WriteResult {
  const force = options.force === true;
  checkPaths(output); // before anything is touched
  const root = resolveOutput(dir, true)!;
  const recovered = recover(root);
  const manifest = readManifest(root);
  const files = withManifest(output, claimedWriteOnce(root, output, manifest));
  const owned = typeof manifest === "object" && manifest !== null ? manifest.files : new Map<string, string>();
  const released = (typeof manifest === "object" && manifest !== null ? manifest.writeOnce : []).filter(
    (path) => !(output.writeOnce?.has(path) && output.files.has(path)) && inspect(root, path).kind !== "absent",
  );

  const conflicts: OutputConflict[] = [];
  const asides: Step[] = [];
  const asidePaths = new Set<string>();
  const writes: Step[] = [];
  const kept: string[] = [];
  let id = 0;
  const setAside = (path: string) => {
    if (asidePaths.has(path)) return;
    asidePaths.add(path);
    asides.push({ id: id++, path, backup: true });
  };

  // Files earlier generations wrote that this one does not: deleted if unmodified, otherwise kept.
  for (const [path, hash] of owned) {
    if (files.has(path)) continue;
    const at = inspect(root, path);
    if (at.kind === "absent" || at.blocker) continue;
    if (at.kind === "file" && hashRegular(join(root, path)) === hash) setAside(path);
    else if (force && at.kind !== "folder") setAside(path);
    else kept.push(path);
  }

  for (const [path, content] of files) {
    const at = inspect(root, path);
    if (at.blocker && !asidePaths.has(at.blocker.path)) {
      // A parent that is a link (or a file): never written through; --force moves the entry itself away.
      if (!force) {
        conflicts.push({ path: at.blocker.path, reason: `is a ${at.blocker.kind} where contractgen needs a folder (for ${path})`, kind: "irregular" });
        continue;
      }
      setAside(at.blocker.path);
    }
    if (output.writeOnce?.has(path) && at.kind !== "absent") continue;
    const sha = path === MANIFEST ? sha256(content) : fileHash(output, path, content);
    if (at.kind === "absent") {
      writes.push({ id: id++, path, backup: false, sha });
    } else if (at.kind === "file") {
      const current = at.size === Buffer.byteLength(content) ? hashRegular(join(root, path)) : null;
      if (current === sha) continue; // already what we would write
      const mine = path === MANIFEST ? manifest !== null && typeof manifest === "object" : owned.get(path) === (current ?? hashRegular(join(root, path)));
      if (mine || force) writes.push({ id: id++, path, backup: true, sha });
      else if (path === MANIFEST) conflicts.push({ path, reason: String(manifest), kind: "foreign" });
      else if (owned.has(path)) conflicts.push({ path, reason: "edited since contractgen generated it", kind: "edited" });
      else conflicts.push({ path, reason: "exists and was not generated by contractgen", kind: "foreign" });
    } else if (at.kind === "folder" || !force) {
      conflicts.push({ path, reason: `is a ${at.kind}${at.kind === "folder" ? " (not replaced, even with --force)" : ""}`, kind: "irregular" });
    } else {
      writes.push({ id: id++, path, backup: true, sha });
    }
  }
  if (conflicts.length > 0) throw new OutputConflictError(root, conflicts);

  // Folders to create: every missing parent (or one that a set-aside entry occupies now).
  const dirs = new Set<string>();
  for (const w of writes) {
    const parts = w.path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const prefix = parts.slice(0, i).join("/");
      if (dirs.has(prefix)) continue;
      if (asidePaths.has(prefix) || !lstatOrNull(join(root, prefix))) dirs.add(prefix);
    }
  }
  const plan: Plan = { version: 1, asides, dirs: [...dirs].sort((a, b) => a.split("/").length - b.split("/").length || (a < b ? -1 : 1)), writes };

  if (asides.length === 0 && writes.length === 0) return { dir: root, written: [], deleted: [], kept, released, recovered };
  try {
    mutate();
    mkdirSync(tx(root));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") throw new OutputDirectoryError(`another contractgen started writing ${root} at the same time; try again.`);
    throw ioError(root, e);
  }
  try {
    mutate();
    writeFileSync(tx(root, "owner"), `${process.pid} ${hostname()}`);
    mkdirSync(tx(root, "new"));
    mkdirSync(tx(root, "old"));
    for (const w of writes) {
      mutate();
      writeFileSync(tx(root, "new", String(w.id)), files.get(w.path)!);
    }
    mutate();
    writeFileSync(tx(root, "plan.tmp"), JSON.stringify(plan));
    mutate();
    renameSync(tx(root, "plan.tmp"), tx(root, "plan.json"));
  } catch (e) {
    // Nothing in the folder was touched yet: dropping the transaction is the whole undo.
    rmSync(tx(root), { recursive: true, force: true });
    throw ioError(root, e);
  }
  try {
    for (const a of asides) {
      mutate();
      renameSync(join(root, a.path), tx(root, "old", String(a.id)));
    }
    for (const d of plan.dirs) {
      mutate();
      mkdirSync(join(root, d));
    }
    for (const w of writes) {
      if (w.backup) {
        mutate();
        renameSync(join(root, w.path), tx(root, "old", String(w.id)));
      }
      mutate();
      renameSync(tx(root, "new", String(w.id)), join(root, w.path));
    }
    mutate();
    unlinkSync(tx(root, "plan.json")); // the commit point
  } catch (e) {
    try {
      recover(root);
    } catch (undo) {
      throw new OutputDirectoryError(`${ioError(root, e).message}\n${(undo as Error).message}`);
    }
    throw ioError(root, e);
  }
  mutate();
  rmSync(tx(root), { recursive: true, force: true });
  // Deleted files may leave folders empty that generation had made; the user's folders are not empty.
  const deleted = asides.map((a) => a.path).filter((p) => owned.has(p));
  for (const path of deleted) {
    for (let parts = path.split("/").slice(0, -1); parts.length > 0; parts = parts.slice(0, -1)) {
      try {
        mutate();
        rmdirSync(join(root, parts.join("/")));
      } catch {
        break;
      }
    }
  }
  return { dir: root, written: writes.map((w) => w.path), deleted, kept, released, recovered };
}

/** An I/O failure (no space, no permission…) is the user's situation to fix, not a contractgen bug. */
function ioError(root: string, e: unknown): Error {
  if (e instanceof OutputDirectoryError || typeof (e as NodeJS.ErrnoException)?.code !== "string") return e as Error;
  return new OutputDirectoryError(`cannot write ${root}: ${(e as Error).message}; the previous output is unchanged.`);
}

/**
 * Compare a folder with what would be generated; all lists empty means up to date. Looks only at the
 * paths generation covers and the folder's manifest lists (never walks the folder), and opens only
 * regular files. Rolls back an interrupted write first, like a write would.
 */
export function compareTree(dir: string, output: GeneratedOutput): StaleReport {
  const report: StaleReport = { changed: [], missing: [], edited: [], obsolete: [], irregular: [], recovered: false };
  const root = resolveOutput(dir, false);
  if (!root) {
    report.missing.push(...withManifest(output).keys());
    return report;
  }
  const recovered = recover(root);
  const manifest = readManifest(root);
  const files = withManifest(output, claimedWriteOnce(root, output, manifest));
  const owned = typeof manifest === "object" && manifest !== null ? manifest.files : new Map<string, string>();
  for (const [path, content] of files) {
    const at = inspect(root, path);
    if (at.blocker) report.irregular.push({ path: at.blocker.path, kind: at.blocker.kind });
    else if (at.kind === "absent") report.missing.push(path);
    else if (output.writeOnce?.has(path)) continue;
    else if (at.kind !== "file") report.irregular.push({ path, kind: at.kind });
    else {
      const current = at.size === Buffer.byteLength(content) ? readRegular(join(root, path)) : null;
      if (current?.toString("utf8") !== content) {
        report.changed.push(path);
        if (owned.has(path) && hashRegular(join(root, path)) !== owned.get(path)) report.edited.push(path);
      }
    }
  }
  for (const [path, hash] of owned) {
    if (files.has(path)) continue;
    const at = inspect(root, path);
    if (at.kind === "absent" || at.blocker) continue;
    report.obsolete.push(path);
    if (at.kind !== "file" || hashRegular(join(root, path)) !== hash) report.edited.push(path);
  }
  return { ...report, recovered };
}
