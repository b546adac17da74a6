/**
 * Folders nobody generates into. `generate -o /` used to write a package's files into the root of the
 * file system (and `--check -o /` to call it up to date); `-o ~` or `-o /etc` is as surely a slip.
 * The output folder is compared after resolving `.`/`..` and symbolic links (`-o link-to-etc` is
 * /etc), as written too, so a folder reached through a link is refused under either name. Only the
 * folders themselves: `/var/tmp/out`, `~/projects/sdk` are fine.
 */
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, parse, resolve } from "node:path";

/** The stable code of the refusal, and its hint (`--force` is named by the command that has it). */
export const OUTPUT_FOLDER_REFUSED = "output-folder-refused";

/** System folders (POSIX and macOS), besides the file-system root and the home folder. */
export const SYSTEM_FOLDERS: readonly string[] = [
  "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32", "/libexec", "/media", "/mnt", "/opt",
  "/proc", "/root", "/run", "/sbin", "/srv", "/sys", "/usr", "/var",
  // Where /bin, /lib… lead on merged-/usr systems, and the usual install prefix.
  "/usr/bin", "/usr/sbin", "/usr/lib", "/usr/lib32", "/usr/lib64", "/usr/libx32", "/usr/libexec", "/usr/local", "/usr/local/bin",
  "/Applications", "/Library", "/System", "/Users", "/Volumes", "/private", "/private/etc", "/private/var",
];

/** The real path of `path`, or of its deepest existing parent with the rest appended (a folder not created yet). */
function realOrPlanned(path: string): string {
  const rest: string[] = [];
  let at = path;
  for (;;) {
    try {
      return join(realpathSync(at), ...rest.reverse());
    } catch {
      const up = dirname(at);
      if (up === at) return path;
      rest.push(basename(at));
      at = up;
    }
  }
}

/** Windows system folders from the environment (C:\Windows, C:\Program Files, …). */
function windowsFolders(): string[] {
  const env = process.env;
  return [env.SystemRoot, env.windir, env.ProgramFiles, env["ProgramFiles(x86)"], env.ProgramW6432, env.ProgramData].filter((p): p is string => typeof p === "string" && p !== "");
}

/**
 * What `folder` is when it is no place to write into ("the system folder /etc"), or null. `home`: whether the home folder itself counts
 * (a generated package's dozens of files do not belong there; one imported contract file may).
 */
export function refusedFolder(folder: string, options: { home: boolean } = { home: true }): string | null {
  const written = resolve(folder);
  const real = realOrPlanned(written);
  // Case-insensitive file systems are the default on macOS and Windows.
  const fold = process.platform === "darwin" || process.platform === "win32" ? (p: string) => p.toLowerCase() : (p: string) => p;
  const same = (a: string, b: string) => fold(a.replace(/[\\/]+$/, "") || a) === fold(b.replace(/[\\/]+$/, "") || b);
  for (const p of [written, real]) {
    if (parse(p).root === p) return `the root of ${process.platform === "win32" ? "a drive" : "the file system"}`;
  }
  if (options.home) {
    const home = homedir();
    const homes = [home, realOrPlanned(home)];
    if ([written, real].some((p) => homes.some((h) => h !== "" && same(p, h)))) return "your home folder itself";
  }
  const system = process.platform === "win32" ? windowsFolders() : SYSTEM_FOLDERS;
  const hit = system.find((s) => same(written, s) || same(real, s));
  if (hit !== undefined) return `the system folder ${hit}`;
  return null;
}

/** A folder as the user gave it, with where it really leads when that differs: `"/usr/" (/usr)`. */
export function shownFolder(folder: string): string {
  const real = realOrPlanned(resolve(folder));
  return `${JSON.stringify(folder)}${real !== folder ? ` (${real})` : ""}`;
}
