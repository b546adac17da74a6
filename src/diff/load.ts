/** One side of a diff: a contract file, or a file at a git revision (`main:specs/billing.yaml`). */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { parseContract, parseContractText, type ParseOptions, type ParseResult } from "../spec/parse.js";

export interface LoadedSide {
  readonly label: string;
  readonly result: ParseResult;
}

/** `rev:path` (git's own syntax) when `arg` is not an existing file and looks like one. */
export function parseGitRef(arg: string): { rev: string; path: string } | null {
  if (existsSync(arg)) return null;
  const m = /^([^:]+):(.+)$/.exec(arg);
  return m ? { rev: m[1]!, path: m[2]! } : null;
}

export class SideError extends Error {}

/**
 * Read a side. A git side is parsed as if it were the working-tree file at the same path, so its
 * relative $refs resolve against the working tree (git shows one file, not a tree).
 */
export function loadSide(arg: string, options: { refRoots?: readonly string[]; onProgress?: ParseOptions["onProgress"]; metaValid?: Set<string> } = {}): LoadedSide {
  const parseOptions = { checkBudget: false, refRoots: options.refRoots ?? [], onProgress: options.onProgress, metaValid: options.metaValid };
  const ref = parseGitRef(arg);
  // The catalogue budget is one of the diff's own rules (with both locations), not a reason to refuse a side.
  if (!ref) return { label: arg, result: parseContract(arg, parseOptions) };
  let content: Buffer;
  try {
    content = execFileSync("git", ["show", `${ref.rev}:${ref.path}`], { stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
  } catch (e) {
    const stderr = String((e as { stderr?: Buffer }).stderr ?? "").trim().split("\n")[0];
    throw new SideError(`${arg}: not a file, and git cannot show it (${stderr || "git failed"}).`);
  }
  return { label: arg, result: parseContractText(ref.path.replace(/^\.\//, ""), content, parseOptions) };
}
