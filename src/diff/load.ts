/** One side of a diff: a contract file, or a file at a git revision (`main:specs/billing.yaml`). */
import { execFileSync, type ExecFileSyncOptions } from "node:child_process";
import { existsSync } from "node:fs";
import { openContract, openContractBytes, type OpenedContract } from "../import/open.js";
import type { ParseOptions } from "../contract/parse.js";

export interface LoadedSide {
  readonly label: string;
  readonly result: OpenedContract;
}

/** `rev:path` (git's own syntax) when `arg` is not an existing file and looks like one. */
export function parseGitRef(arg: string): { rev: string; path: string } | null {
  if (existsSync(arg)) return null;
  const m = /^([^:]+):(.+)$/.exec(arg);
  return m ? { rev: m[1]!, path: m[2]! } : null;
}

/** Every reason a git side cannot be read, with its stable code → the hint printed under it. */
export const SIDE_ERRORS = {
  "diff-git-ref-option": "Name a branch, tag or commit (main:specs/billing.yaml); a file whose name starts with `-` is written ./-name.yaml.",
  "diff-git-ref-unknown": "Name a branch, tag or commit of this repository (git rev-parse must know it), or pass a file path.",
  "diff-git-path-missing": "Give the file's path from the repository root (main:specs/billing.yaml) or from the current folder (main:./billing.yaml), as it is at that revision.",
} as const;

export type SideErrorCode = keyof typeof SIDE_ERRORS;

export class SideError extends Error {
  constructor(
    readonly code: SideErrorCode,
    /** The argument as given: where the problem is. */
    readonly where: string,
    message: string,
  ) {
    super(message);
  }
}

/** git's first line on stderr, as ` (what git said)` for a message, or "" when it said nothing. */
function gitSaid(e: unknown): string {
  const line = String((e as { stderr?: Buffer }).stderr ?? "").trim().split("\n")[0]!.replace(/^fatal: /, "");
  return line ? ` (${line})` : "";
}

const GIT: ExecFileSyncOptions = { stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 };

/**
 * The file at `rev:path`, read without ever letting git take the revision for an option: a rev
 * starting with `-` is refused before git runs (`--output=…` would make git write a file), the rev is
 * resolved to a commit id behind --end-of-options, and the blob is read with `cat-file` (raw bytes:
 * no textconv, filters or pager) under that id, so the one argument left starts with a hex digit.
 */
function readGitFile(arg: string, rev: string, path: string): Buffer {
  if (rev.startsWith("-")) {
    throw new SideError("diff-git-ref-option", arg, `the revision ${JSON.stringify(rev)} starts with "-", which git would read as an option; git was not run.`);
  }
  let commit: string;
  try {
    commit = String(execFileSync("git", ["rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`], GIT)).trim();
  } catch (e) {
    throw new SideError("diff-git-ref-unknown", arg, `not a file, and git knows no commit ${JSON.stringify(rev)}${gitSaid(e)}.`);
  }
  if (!/^[0-9a-f]{40,64}$/.test(commit)) throw new SideError("diff-git-ref-unknown", arg, `not a file, and git knows no commit ${JSON.stringify(rev)}.`);
  try {
    return execFileSync("git", ["cat-file", "blob", "--end-of-options", `${commit}:${path}`], GIT) as Buffer;
  } catch (e) {
    throw new SideError("diff-git-path-missing", arg, `not a file, and git cannot read ${JSON.stringify(path)} at ${JSON.stringify(rev)}${gitSaid(e)}.`);
  }
}

/**
 * Read a side. A git side is parsed as if it were the working-tree file at the same path, so its
 * relative $refs resolve against the working tree (git shows one file, not a tree).
 */
export async function loadSide(arg: string, options: { refRoots?: readonly string[]; overlays?: readonly string[]; onProgress?: ParseOptions["onProgress"]; metaValid?: Set<string> } = {}): Promise<LoadedSide> {
  const parseOptions = { checkBudget: false, refRoots: options.refRoots ?? [], overlays: options.overlays ?? [], overlaysForOpenApiOnly: true, onProgress: options.onProgress, metaValid: options.metaValid };
  const ref = parseGitRef(arg);
  // The catalogue budget is one of the diff's own rules (with both locations), not a reason to refuse a side.
  // Either side may be a contract or an OpenAPI document, imported in memory.
  if (!ref) return { label: arg, result: await openContract(arg, parseOptions) };
  const content = readGitFile(arg, ref.rev, ref.path);
  return { label: arg, result: await openContractBytes(ref.path.replace(/^\.\//, ""), content, parseOptions) };
}
