import { statSync } from "node:fs";
import { emitPackage, type McpMode, prepareToEmit, type ServerMode, writeOnceFiles } from "../../emit/index.js";
import { openContract } from "../../import/open.js";
import { compareTree, type GeneratedOutput, OutputConflictError, OutputDirectoryError, writeTree } from "../../write/tree.js";
import { OUTPUT_FOLDER_REFUSED, refusedFolder, shownFolder } from "../../write/places.js";
import { EXIT, type Io, printDiagnostics, progressOn } from "../io.js";
import { watchFiles } from "../watch.js";
import type { ContractModel } from "../../model/types.js";

export interface GenerateOptions {
  readonly out: string;
  readonly check: boolean;
  readonly watch: boolean;
  /** Replace files in the way (user files, edited generated files, links, FIFOs); never folders, never through a link. */
  readonly force?: boolean;
  readonly refRoot?: readonly string[];
  /** `--overlay`, repeatable: overlays applied, in order, to an OpenAPI document. */
  readonly overlay?: readonly string[];
  /** How the generated MCP server handles calls (default adapter). */
  readonly mcp?: McpMode;
  /** Whether an HTTP server skeleton is generated (default none); skeleton implies `mcp: skeleton`. */
  readonly server?: ServerMode;
  /** Whether the Agent Skill (`skill/<name>/`) is written (default true; false with `--no-skill`). */
  readonly skill?: boolean;
  /** false with `--no-progress`; progress shows only when stderr is a terminal anyway. */
  readonly progress?: boolean;
}

/**
 * What generated the folder; the writer adds every file's hash. (No hash of the model: the files'
 * hashes already pin the output, and serialising a GitHub-size model for one took 0.6 s.)
 */
function manifestHeader(model: ContractModel, generatorVersion: string): Record<string, unknown> {
  return { generator: "contractgen", generatorVersion, contract: model.name, version: model.version };
}

/** A word as a POSIX shell reads it back unchanged: bare when it is plain, else single-quoted. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** The `contractgen generate` command line that regenerates this output: same contract, overlays, modes and folder. */
export function generateCommandLine(spec: string, options: GenerateOptions): string {
  const words = ["contractgen", "generate", spec];
  for (const root of options.refRoot ?? []) words.push("--ref-root", root);
  for (const overlay of options.overlay ?? []) words.push("--overlay", overlay);
  if (options.server === "skeleton") words.push("--server", "skeleton");
  else if (options.mcp === "skeleton") words.push("--mcp", "skeleton");
  if (options.skill === false) words.push("--no-skill");
  words.push("-o", options.out);
  return words.map(shellWord).join(" ");
}

/** `specs/x.yaml`, or `specs/x.yaml with overlay a.yaml` / `with overlays a.yaml, b.yaml (in that order)`. */
function sourceOf(spec: string, options: GenerateOptions): string {
  const overlays = options.overlay ?? [];
  if (overlays.length === 0) return spec;
  return `${spec} with overlay${overlays.length === 1 ? "" : "s"} ${overlays.join(", ")}${overlays.length > 1 ? " (applied in that order)" : ""}`;
}

/**
 * What `--force` would cost: the hand-edited files it names, overwritten with the generated text (or,
 * no longer generated, deleted), their edits lost. Empty when nothing edited is in the way.
 */
function forceWarning(command: string, edited: readonly string[], obsolete: readonly string[], checking: boolean): string {
  if (edited.length === 0 && obsolete.length === 0) return "";
  const lines: string[] = [];
  if (edited.length > 0) {
    const them = edited.length === 1 ? "it" : "them";
    const refuses = checking ? `\`${command}\` refuses to overwrite ${them}; ` : "";
    lines.push(`Edited by hand since contractgen generated ${them}: ${edited.join(", ")}. ${refuses}\`${command} --force\` overwrites ${them} with the generated text, and the hand edits would be lost: copy them elsewhere first.`);
  }
  if (obsolete.length > 0) {
    lines.push(`No longer generated but edited by hand: ${obsolete.join(", ")}. \`${command}\` keeps ${obsolete.length === 1 ? "it" : "them"} as yours; \`${command} --force\` deletes ${obsolete.length === 1 ? "it" : "them"}, and the hand edits would be lost.`);
  }
  return `${lines.join("\n")}\n`;
}

/** One generation: parse, emit, then write (or compare with --check). */
async function generateOnce(spec: string, options: GenerateOptions, io: Io, version: string): Promise<{ code: number; files: readonly string[] }> {
  const progress = progressOn(io, options.progress !== false);
  try {
    return await generateWith(spec, options, io, version, progress.update, progress.end);
  } finally {
    progress.end();
  }
}

async function generateWith(
  spec: string,
  options: GenerateOptions,
  io: Io,
  version: string,
  onProgress: (phase: string, done: number, total: number) => void,
  // Clears the progress line before the final report and diagnostics are printed.
  endProgress: () => void,
): Promise<{ code: number; files: readonly string[] }> {
  const started = performance.now();
  prepareToEmit(statSync(spec, { throwIfNoEntry: false })?.size ?? 0);
  // Keep only the model: the parsed file (text, plain value, spans) can be collected while emitting.
  const opened = await openContract(spec, { refRoots: options.refRoot ?? [], overlays: options.overlay ?? [], onProgress });
  const { model, diagnostics } = opened;
  endProgress();
  printDiagnostics(diagnostics, io);
  if (!model) {
    io.stderr(`${spec}: invalid; nothing was generated.\n`);
    return { code: EXIT.invalid, files: opened.files };
  }
  const mcp = { mcp: options.mcp ?? "adapter", server: options.server ?? "none" } as const;
  const output: GeneratedOutput = { header: manifestHeader(model, version), files: await emitPackage(model, { ...mcp, skill: options.skill !== false, onProgress }), writeOnce: writeOnceFiles(model, mcp) };
  const total = output.files.size + 1; // and the manifest
  try {
    if (options.check) {
      onProgress("compare", 0, total);
      const stale = compareTree(options.out, output);
      endProgress();
      if (stale.recovered) io.stderr(`${options.out}: rolled back an interrupted generation first.\n`);
      const edited = new Set(stale.edited);
      const note = (f: string) => (edited.has(f) ? " (edited by hand since it was generated)" : "");
      const problems = [
        ...stale.changed.map((f) => `  changed: ${f}${note(f)}`),
        ...stale.missing.map((f) => `  missing: ${f}`),
        ...stale.irregular.map((f) => `  not a regular file: ${f.path} (${f.kind})`),
        ...stale.obsolete.map((f) => `  no longer generated: ${f}${note(f)}`),
      ];
      if (problems.length > 0) {
        const command = generateCommandLine(spec, options);
        const obsolete = new Set(stale.obsolete);
        const warning = forceWarning(command, stale.edited.filter((f) => !obsolete.has(f)), stale.edited.filter((f) => obsolete.has(f)), true);
        io.stderr(`${options.out} is stale for ${sourceOf(spec, options)}; run \`${command}\`:\n${problems.join("\n")}\n${warning}`);
        return { code: EXIT.invalid, files: opened.files };
      }
      io.stdout(`${options.out}: up to date with ${sourceOf(spec, options)} (${total} files)\n`);
      return { code: EXIT.ok, files: opened.files };
    }
    onProgress("write", 0, total);
    const written = writeTree(options.out, output, { force: options.force === true });
    endProgress();
    if (written.recovered) io.stderr(`${options.out}: rolled back an interrupted generation first.\n`);
    for (const f of written.kept) io.stderr(`${options.out}: kept ${f}: no longer generated, but edited since it was; it is yours now.\n`);
    for (const f of written.released) io.stderr(`${options.out}: warning: kept ${f}: its operation is no longer in the contract (or no longer a skeleton); nothing imports it now and it may no longer compile: move or delete it.\n`);
    const ms = Math.round(performance.now() - started);
    const changed = written.written.length + written.deleted.length;
    io.stdout(
      changed === 0
        ? `${options.out}: ${total} files up to date with ${sourceOf(spec, options)}, nothing changed (${ms} ms)\n`
        : `${options.out}: wrote ${written.written.length} of ${total} files from ${sourceOf(spec, options)} in ${ms} ms (${written.written.length} changed, ${written.deleted.length} deleted)\n`,
    );
    return { code: EXIT.ok, files: opened.files };
  } catch (e) {
    if (e instanceof OutputConflictError) {
      const edited = e.conflicts.filter((c) => c.kind === "edited").map((c) => c.path);
      io.stderr(`contractgen: ${e.message}\n${forceWarning(generateCommandLine(spec, options), edited, [], false)}`);
      if (edited.length < e.conflicts.length) io.stderr(`contractgen only replaces files it generated and nobody edited since. Move these away, or rerun with --force to replace them (even --force never replaces a folder, writes through a link, or writes outside ${e.dir}).\n`);
      return { code: EXIT.usage, files: opened.files };
    }
    if (e instanceof OutputDirectoryError) {
      io.stderr(`contractgen: ${e.message}\n`);
      return { code: EXIT.usage, files: opened.files };
    }
    // A folder we may not read (EACCES…) is the user's situation, not a contractgen bug.
    const errno = e as NodeJS.ErrnoException;
    if (typeof errno?.code === "string" && typeof errno.syscall === "string") {
      io.stderr(`contractgen: ${options.out}: ${errno.message}\n`);
      return { code: EXIT.usage, files: opened.files };
    }
    throw e;
  }
}

/** `contractgen generate <spec> -o <dir> [--check | --watch] [--force]`. */
export async function generateCommand(spec: string, options: GenerateOptions, io: Io, version: string): Promise<number> {
  // Before anything is read: the root, the home folder or a system folder is a slip, not a target.
  const refused = options.force ? null : refusedFolder(options.out);
  if (refused !== null) {
    io.stderr(`contractgen: error [${OUTPUT_FOLDER_REFUSED}] -o ${shownFolder(options.out)} is ${refused}: nobody generates a package into it; nothing was written.\n  hint: Generate into a folder of its own (e.g. -o ./sdk); --force writes there anyway.\n`);
    return EXIT.usage;
  }
  const startedAt = Date.now();
  const first = await generateOnce(spec, options, io, version);
  if (!options.watch) return first.code;
  // Watch the contract and every file its $refs reached, until interrupted.
  const watching = watchFiles(first.files, startedAt, async () => (await generateOnce(spec, options, io, version)).files, io);
  io.stderr(`watching ${watching.files().join(", ")} (Ctrl-C to stop)\n`);
  return new Promise<number>(() => {});
}
