/**
 * Writing one file the user may also own (an imported contract, a report). Like the folder writer
 * (tree.ts), contractgen replaces only a file it wrote itself and nobody edited since: `owned` decides
 * from the current content. Nothing is written through a link or over anything but a regular file,
 * and the new content appears at once (staged beside the target, then renamed over it).
 */
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { OutputConflictError } from "./tree.js";

export interface WriteFileOptions {
  /** True when the existing content is ours and unedited (only then is it replaced without force). */
  readonly owned: (existing: string) => boolean;
  /** Replace a regular file that is not ours; still never a link, a folder or a device. */
  readonly force?: boolean;
}

/** Write `content` to `path` atomically; throws OutputConflictError when the file is not ours to replace. */
export function writeOwnedFile(path: string, content: string, options: WriteFileOptions): "created" | "replaced" | "unchanged" {
  let existing: string | undefined;
  let st;
  try {
    st = lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  if (st) {
    if (!st.isFile()) {
      const kind = st.isSymbolicLink() ? "a symbolic link" : st.isDirectory() ? "a folder" : "not a regular file";
      throw new OutputConflictError(dirname(path), [{ path: basename(path), reason: `${kind}; never replaced`, kind: "irregular" }]);
    }
    existing = readFileSync(path, "utf8");
    if (existing === content) return "unchanged";
    if (!options.owned(existing) && options.force !== true) {
      throw new OutputConflictError(dirname(path), [{ path: basename(path), reason: "not written by contractgen, or edited since; rerun with --force to replace it", kind: "foreign" }]);
    }
  }
  // A new output's folder is created, as `generate` creates its output folder.
  if (!st) mkdirSync(dirname(path), { recursive: true });
  const staged = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const fd = openSync(staged, "wx", 0o644);
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(staged, path);
  } catch (e) {
    try {
      unlinkSync(staged);
    } catch {
      // already gone
    }
    throw e;
  }
  return existing === undefined ? "created" : "replaced";
}
