import { watch } from "node:fs";
import { createHash } from "node:crypto";
import { emitPackage, type FileTree } from "../../emit/index.js";
import { parseContract } from "../../spec/parse.js";
import { compareTree, MANIFEST, OutputDirectoryError, writeTree } from "../../write/tree.js";
import { EXIT, type Io, printDiagnostics } from "../io.js";
import type { ContractModel } from "../../model/types.js";

export interface GenerateOptions {
  readonly out: string;
  readonly check: boolean;
  readonly watch: boolean;
  readonly refRoot?: readonly string[];
}

/** The manifest: what generated the folder, from which model, and every file it holds. */
function withManifest(model: ContractModel, files: FileTree, generatorVersion: string): FileTree {
  const manifest = {
    generator: "contractgen",
    generatorVersion,
    contract: model.name,
    version: model.version,
    modelSha256: createHash("sha256").update(JSON.stringify(model, (k, v) => (k === "loc" || k === "files" ? undefined : v))).digest("hex"),
    files: Object.fromEntries([...files].map(([path, content]) => [path, createHash("sha256").update(content).digest("hex")])),
  };
  return new Map([...files, [MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`]].sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0)) as Array<[string, string]>);
}

/** One generation: parse, emit, then write (or compare with --check). */
async function generateOnce(spec: string, options: GenerateOptions, io: Io, version: string): Promise<{ code: number; files: readonly string[] }> {
  const started = performance.now();
  const result = parseContract(spec, { refRoots: options.refRoot ?? [] });
  printDiagnostics(result.diagnostics, io);
  if (!result.model) {
    io.stderr(`${spec}: invalid; nothing was generated.\n`);
    return { code: EXIT.invalid, files: [spec] };
  }
  const files = withManifest(result.model, await emitPackage(result.model), version);
  if (options.check) {
    const stale = compareTree(options.out, files);
    const problems = [
      ...stale.changed.map((f) => `  changed: ${f}`),
      ...stale.missing.map((f) => `  missing: ${f}`),
      ...stale.extra.map((f) => `  not generated: ${f}`),
    ];
    if (problems.length > 0) {
      io.stderr(`${options.out} is stale for ${spec}; run \`contractgen generate ${spec} -o ${options.out}\`:\n${problems.join("\n")}\n`);
      return { code: EXIT.invalid, files: result.model.files };
    }
    io.stdout(`${options.out}: up to date with ${spec} (${files.size} files)\n`);
    return { code: EXIT.ok, files: result.model.files };
  }
  try {
    writeTree(options.out, files);
  } catch (e) {
    if (e instanceof OutputDirectoryError) {
      io.stderr(`contractgen: ${e.message}\n`);
      return { code: EXIT.usage, files: result.model.files };
    }
    throw e;
  }
  io.stdout(`${options.out}: wrote ${files.size} files from ${spec} in ${Math.round(performance.now() - started)} ms\n`);
  return { code: EXIT.ok, files: result.model.files };
}

/** `contractgen generate <spec> -o <dir> [--check | --watch]`. */
export async function generateCommand(spec: string, options: GenerateOptions, io: Io, version: string): Promise<number> {
  const first = await generateOnce(spec, options, io, version);
  if (!options.watch) return first.code;
  // Watch the contract and every file its $refs reached; regenerate once per burst of changes.
  let watched = first.files;
  let watchers = watched.map((f) => watch(f));
  let timer: NodeJS.Timeout | undefined;
  return new Promise<number>(() => {
    const rearm = () => {
      for (const w of watchers) w.on("change", schedule);
    };
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        const next = await generateOnce(spec, options, io, version).catch((e: Error) => {
          io.stderr(`contractgen: ${e.message}\n`);
          return { code: EXIT.internal, files: watched };
        });
        if (next.files.join("\n") !== watched.join("\n")) {
          for (const w of watchers) w.close();
          watched = next.files;
          watchers = watched.map((f) => watch(f));
          rearm();
        }
      }, 100);
    };
    rearm();
    io.stderr(`watching ${watched.join(", ")} (Ctrl-C to stop)\n`);
  });
}
