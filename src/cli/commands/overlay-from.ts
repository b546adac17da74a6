import { createHash, randomBytes } from "node:crypto";
import { unlinkSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { Document } from "yaml";
import { diagnostic } from "../../diagnostics/diagnostic.js";
import { isOpenApi } from "../../import/open.js";
import type { ReadProblem } from "../../import/openapi/files.js";
import { firstDifference, overlayFromFork } from "../../import/openapi/fork.js";
import { mapDocument, type MappedDocument } from "../../import/openapi/index.js";
import { applyOverlays } from "../../import/openapi/overlay.js";
import { isObject, type JsonObject } from "../../import/openapi/schema.js";
import { MAX_FILE_BYTES, parseSource, readRegularFile } from "../../contract/load.js";
import { writeOwnedFile } from "../../write/file.js";
import { OUTPUT_FOLDER_REFUSED, refusedFolder, shownFolder } from "../../write/places.js";
import { EXIT, type Io, ownedWriteFailure, printDiagnostics } from "../io.js";

export interface OverlayFromOptions {
  readonly openapi: string;
  readonly out: string;
  /** Overlays the document is already used with, applied before the one written (repeatable, in order). */
  readonly overlay?: readonly string[];
  readonly force?: boolean;
}

const HEADER = /^# Written by contractgen overlay-from from .*; sha256:([0-9a-f]{64})\n/;

/** An overlay overlay-from wrote and nobody edited since: its header's hash still matches the rest. */
export function isUneditedForkOverlay(text: string): boolean {
  const m = HEADER.exec(text);
  return m !== null && sha256(text.slice(m[0].length)) === m[1];
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Read, bundle and map the document with overlays applied (as every command reads it); `seen` gets the document value the import read. */
async function importWith(document: string, overlays: readonly string[], seen?: (value: unknown) => void): Promise<MappedDocument> {
  const transform =
    overlays.length === 0
      ? undefined
      : (value: unknown) => {
          const applied = applyOverlays(value, overlays, document);
          seen?.(applied.value);
          return { value: applied.value, problems: applied.problems, relocate: (pointer: string) => applied.origin(pointer)?.locate() };
        };
  return mapDocument(document, { ...(transform ? { transform } : {}), lint: false });
}

function printProblems(problems: readonly ReadProblem[], io: Io): boolean {
  const errors = problems.filter((p) => p.severity === "error");
  printDiagnostics(
    errors.map((p) => diagnostic(p.code, p.message, { file: p.file, line: p.line, col: p.col, endLine: p.line, endCol: p.col + 1, pointer: p.pointer })),
    io,
  );
  return errors.length > 0;
}

/** `contractgen overlay-from <edited-contract> --openapi <document> -o <overlay.yaml> [--overlay <existing>...]`. */
export async function overlayFromCommand(contractPath: string, options: OverlayFromOptions, io: Io): Promise<number> {
  const existing = options.overlay ?? [];
  const refused = options.force ? null : refusedFolder(dirname(resolve(options.out)), { home: false });
  if (refused !== null) {
    io.stderr(`contractgen: error [${OUTPUT_FOLDER_REFUSED}] -o ${JSON.stringify(options.out)} would be written into ${shownFolder(dirname(resolve(options.out)))}, ${refused}; nothing was written.\n  hint: Write it into a folder of your own (e.g. -o ./contract.overlay.yaml); --force writes there anyway.\n`);
    return EXIT.usage;
  }

  // B: the edited contract, as the contract loader reads it.
  const read = readRegularFile(contractPath, MAX_FILE_BYTES);
  if ("problem" in read) {
    io.stderr(`contractgen: ${read.message}\n`);
    return EXIT.usage;
  }
  if (isOpenApi(read.bytes)) {
    io.stderr(`contractgen: ${contractPath} is an OpenAPI document, not a contract; overlay-from reads the contract you edited (import-openapi's output) and the document with --openapi.\n`);
    return EXIT.usage;
  }
  const loaded = parseSource(contractPath, read.bytes);
  const loadErrors = loaded.diagnostics.filter((d) => d.severity === "error");
  if (loadErrors.length > 0) {
    printDiagnostics(loadErrors, io);
    return EXIT.invalid;
  }
  const edited = loaded.file?.value;
  if (!isObject(edited)) {
    io.stderr(`contractgen: ${contractPath} is not a contract (a mapping of contract fields).\n`);
    return EXIT.invalid;
  }

  // A: the document's fresh import, with the overlays it is already used with.
  let documentValue: unknown;
  const fresh = await importWith(options.openapi, existing, (v) => (documentValue = v));
  if (printProblems(fresh.problems, io) || !fresh.mapped || !fresh.read?.root) {
    io.stderr(`${options.openapi}: not imported; nothing was written.\n`);
    return EXIT.invalid;
  }
  if (existing.length === 0) documentValue = fresh.read.root.value;

  const fork = overlayFromFork({
    imported: fresh.mapped.contract as JsonObject,
    edited: edited as JsonObject,
    origins: fresh.mapped.origins,
    document: documentValue,
    title: `Edits of ${basename(contractPath)} kept for ${basename(options.openapi)}`,
  });
  for (const w of fork.warnings) io.stderr(`${contractPath}: warning: ${w} is null; a merge patch cannot set null (null deletes), so it is not kept.\n`);
  if (fork.overlay.actions.length === 0) {
    const difference = firstDifference(fresh.mapped.contract, edited);
    if (difference !== undefined) return lost(contractPath, options.openapi, difference, io);
    io.stdout(`${contractPath}: nothing to keep: it is what ${options.openapi} imports to${existing.length > 0 ? " with its overlays" : ""}; use the document directly. No overlay was written.\n`);
    return EXIT.ok;
  }

  const body = new Document(fork.overlay, { aliasDuplicateObjects: false }).toString({ lineWidth: 120, minContentWidth: 40 });
  const text = `# Written by contractgen overlay-from from ${JSON.stringify(basename(contractPath))}; sha256:${sha256(body)}\n${body}`;

  // Round trip, before anything is written: the document with the overlay must import to the edited contract.
  const staged = join(dirname(resolve(options.out)), `.${basename(options.out)}.${process.pid}.${randomBytes(4).toString("hex")}.check.yaml`);
  let after: MappedDocument;
  try {
    writeOwnedFile(staged, text, { owned: () => false });
    after = await importWith(options.openapi, [...existing, staged]);
  } catch (e) {
    return ownedWriteFailure(e, io, "an overlay overlay-from wrote");
  } finally {
    try {
      unlinkSync(staged);
    } catch {
      // never written
    }
  }
  const afterErrors = after.problems.filter((p) => p.severity === "error");
  if (afterErrors.length > 0 || !after.mapped) {
    io.stderr(`contractgen: the overlay computed for ${contractPath} does not apply to ${options.openapi}: ${afterErrors[0]?.message ?? "the document was not imported"}; nothing was written.\n`);
    return EXIT.invalid;
  }
  const difference = firstDifference(after.mapped.contract, edited);
  if (difference !== undefined) return lost(contractPath, options.openapi, difference, io);

  let outcome: ReturnType<typeof writeOwnedFile>;
  try {
    outcome = writeOwnedFile(options.out, text, { owned: isUneditedForkOverlay, force: options.force === true });
  } catch (e) {
    return ownedWriteFailure(e, io, "an overlay overlay-from wrote");
  }
  const rootKeys = fork.rootKeys.length > 0 ? fork.rootKeys.join(", ") : "none";
  io.stderr(`${options.openapi} with ${[...existing, options.out].join(", ")} imports to ${contractPath} (checked).\n`);
  io.stdout(
    `${options.out}: ${outcome === "unchanged" ? "unchanged" : "written"}: ${fork.patched.length} operations patched, ${fork.added.length} added, ${fork.removed.length} removed, root keys changed: ${rootKeys}; ${fork.warnings.length} warnings.\n` +
      `Use the document with it: contractgen validate ${options.openapi} ${[...existing, options.out].map((o) => `--overlay ${o}`).join(" ")}\n`,
  );
  return EXIT.ok;
}

/** The round trip does not hold: exit 1, naming the first difference, with nothing written. */
function lost(contractPath: string, openapi: string, difference: string, io: Io): number {
  io.stderr(
    `contractgen: the overlay would not give back ${contractPath}: the import of ${openapi} with it differs at ${difference === "" ? "(the whole contract)" : difference}; nothing was written, so none of your edits is lost.\n` +
      "  hint: an edit there cannot be expressed as x-contract merge patches (a null value, or an order the import does not keep); keep using the contract meanwhile.\n",
  );
  return EXIT.invalid;
}
