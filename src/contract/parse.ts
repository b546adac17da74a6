import { type Diagnostic, dedupeDiagnostics, hasErrors, sortDiagnostics } from "../diagnostics/diagnostic.js";
import { buildModel } from "../model/build.js";
import type { ContractModel } from "../model/types.js";
import { checkCatalogBudget, checkSkillBudget } from "./checks/budget.js";
import { checkBehaviour } from "./checks/behaviour.js";
import { checkErrorFields, checkPreviewKey } from "./checks/behaviour-modes.js";
import { checkAuth } from "./checks/auth.js";
import { checkHeader } from "./checks/header.js";
import { checkHttpBody, checkInferredEffects, checkNoContentOutput } from "./checks/http.js";
import { checkRequestEncoding } from "./checks/encoding.js";
import { checkErrorReferences, checkOperationSet, checkTransport } from "./checks/operations.js";
import { checkReads } from "./checks/reads.js";
import { checkPreconditionTargets, checkPreviewOutput, checkUndo } from "./checks/references.js";
import { checkSchemas } from "./checks/schemas.js";
import { checkTaxonomy } from "./checks/taxonomy.js";
import { checkErrorFormat } from "./checks/error-format.js";
import { type Check, CheckContext } from "./context.js";
import { loadSourceFile, parseSource } from "./load.js";
import type { RawContract } from "./raw.js";
import { Workspace } from "./refs.js";
import type { SourceFile } from "./source.js";
import { checkStructure } from "./structure.js";

export interface ParseResult {
  /** Present when the contract has no errors (warnings allowed). */
  readonly model?: ContractModel;
  /** Sorted by file, line and column. */
  readonly diagnostics: readonly Diagnostic[];
  /** The parsed contract file, for tools that point back into it (the diff). */
  readonly source?: SourceFile;
}

/** Semantic checks, run in this order once the document has the published structure. */
export const SEMANTIC_CHECKS: readonly Check[] = [
  checkHeader,
  checkTaxonomy,
  checkErrorFormat,
  checkSchemas,
  checkOperationSet,
  checkErrorReferences,
  checkTransport,
  checkAuth,
  checkBehaviour,
  checkPreviewKey,
  checkErrorFields,
  checkReads,
  checkPreconditionTargets,
  checkUndo,
  checkPreviewOutput,
  checkHttpBody,
  checkRequestEncoding,
  checkNoContentOutput,
  checkInferredEffects,
];

/** Read, check and model one contract file. Never throws on bad input. */
export interface ParseOptions {
  /** Check the catalogue against budget.catalogTokens (default true; `contractgen budget` measures instead). */
  readonly checkBudget?: boolean;
  /** Folders besides the contract's own that `$ref` may read (`--ref-root`). */
  readonly refRoots?: readonly string[];
  /** Told as each phase starts and ends (parse, structure, validate: checks done / total, model); never prints. */
  readonly onProgress?: (phase: string, done: number, total: number) => void;
  /**
   * Schemas (by their v8 serialization) already found valid against the JSON Schema meta-schema,
   * filled in as found. Two versions of one contract share most schemas, and meta-validation is
   * the dearest check: the diff passes one set to both sides.
   */
  readonly metaValid?: Set<string>;
}

export function parseContract(path: string, options: ParseOptions = {}): ParseResult {
  options.onProgress?.("parse", 0, 1);
  const loaded = loadSourceFile(path);
  return analyseSource(loaded.file, loaded.diagnostics, options);
}

/** Same as parseContract, for content that is not on disk (git refs, tests). */
export function parseContractText(path: string, text: string | Uint8Array, options: ParseOptions = {}): ParseResult {
  const loaded = parseSource(path, typeof text === "string" ? new TextEncoder().encode(text) : text);
  return analyseSource(loaded.file, loaded.diagnostics, options);
}

/** Check and model a contract already read (a file, or a contract imported in memory from OpenAPI). */
export function analyseSource(file: SourceFile | undefined, loadDiagnostics: readonly Diagnostic[], options: ParseOptions = {}): ParseResult {
  const progress = options.onProgress ?? (() => {});
  const diagnostics = [...loadDiagnostics];
  if (!file || hasErrors(diagnostics) || file.value === undefined) return finish(diagnostics);
  progress("structure", 0, 1);
  diagnostics.push(...checkStructure(file));
  if (hasErrors(diagnostics)) return finish(diagnostics);

  const ws = new Workspace(file, { refRoots: options.refRoots ?? [] });
  const ctx = new CheckContext(file, file.value as RawContract, ws, options.metaValid);
  for (const [i, check] of SEMANTIC_CHECKS.entries()) {
    progress("validate", i, SEMANTIC_CHECKS.length);
    diagnostics.push(...check(ctx));
  }
  diagnostics.push(...ws.diagnostics);
  if (hasErrors(diagnostics)) return finish(diagnostics);
  progress("model", 0, 1);
  const model = buildModel(ctx);
  // The catalogue's cost is a property of the built model (bundled schemas), so it is checked last.
  if (options.checkBudget !== false) {
    progress("budget", 0, 1);
    diagnostics.push(...checkCatalogBudget(model, file));
    diagnostics.push(...checkSkillBudget(model, file));
  }
  if (hasErrors(diagnostics)) return finish(diagnostics);
  return { ...finish(diagnostics), model, source: file };
}

function finish(diagnostics: Diagnostic[]): ParseResult {
  return { diagnostics: sortDiagnostics(dedupeDiagnostics(diagnostics)) };
}
