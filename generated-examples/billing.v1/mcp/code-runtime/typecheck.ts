/**
 * Code mode's type check (issue 43): an agent's TypeScript is checked against the package's own SDK
 * before anything runs, then its types are stripped for the sandbox. The program is the body of an
 * async function with `client` (the SDK's client class) and `SdkError` in scope, so a wrong method,
 * a missing field or a misspelt enum value is reported with its line and column in the program, and
 * nothing executes.
 *
 * The SDK's files are read once and kept (a language service over one changing file), so a check
 * costs the program, not the SDK.
 */
import { dirname, join, resolve } from "node:path";
import type * as TS from "typescript";
import { typescript } from "./typescript.js";

export interface TypeCheckError {
  /** 1-based, in the program as the agent wrote it. */
  readonly line: number;
  readonly column: number;
  readonly code: number;
  readonly message: string;
}

export type TypeCheckResult = { readonly ok: true; readonly js: string } | { readonly ok: false; readonly errors: readonly TypeCheckError[] };

/** At most this many errors are returned (the first ones; the count says how many there were). */
const MAX_ERRORS = 20;

/** Strict, as the package is compiled; no lib beyond ES2022 and no ambient types: a program sees only what the sandbox has. */
function compilerOptions(ts: typeof TS): TS.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2022.d.ts"],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    noUnusedLocals: false,
  };
}

/**
 * A checker for programs against the SDK whose entry is `sdkIndex` (the package's `sdk/index.ts` or
 * its built `index.d.ts`) and whose client class is `clientClass`.
 */
export function createTypeChecker(sdkIndex: string, clientClass: string) {
  const ts = typescript();
  const options = compilerOptions(ts);
  const entry = resolve(sdkIndex);
  const programFile = join(dirname(entry), "__code_mode_program__.ts");
  const specifier = `./${entry.slice(dirname(entry).length + 1).replace(/\.d\.ts$|\.ts$/, "")}.js`;
  const header = [
    `import type { ${clientClass} } from ${JSON.stringify(specifier)};`,
    `declare const client: ${clientClass};`,
    "declare class SdkError extends Error { readonly code: string; readonly class: string; readonly action: string; readonly field: string | null; readonly operation: string | null; readonly outcome: string | null; readonly status: number | null; readonly details: unknown }",
    "declare const console: { log(...values: unknown[]): void; info(...values: unknown[]): void; warn(...values: unknown[]): void; error(...values: unknown[]): void };",
    "export {};",
    "async function __program() {",
  ];
  const offset = header.length;
  let text = "";
  let version = 0;
  const host: TS.LanguageServiceHost = {
    getScriptFileNames: () => [programFile],
    getScriptVersion: (file) => (file === programFile ? String(version) : "0"),
    getScriptSnapshot: (file) => {
      if (file === programFile) return ts.ScriptSnapshot.fromString(text);
      const content = ts.sys.readFile(file);
      return content === undefined ? undefined : ts.ScriptSnapshot.fromString(content);
    },
    getCurrentDirectory: () => dirname(entry),
    getCompilationSettings: () => options,
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: (file) => file === programFile || ts.sys.fileExists(file),
    readFile: (file) => (file === programFile ? text : ts.sys.readFile(file)),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());

  return {
    check(source: string): TypeCheckResult {
      text = `${header.join("\n")}\n${source}\n}\n`;
      version++;
      const diagnostics = [...service.getSyntacticDiagnostics(programFile), ...service.getSemanticDiagnostics(programFile)];
      if (diagnostics.length > 0) {
        const errors = diagnostics.slice(0, MAX_ERRORS).map((d): TypeCheckError => {
          const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : { line: offset, character: 0 };
          return { line: Math.max(1, at.line - offset + 1), column: at.character + 1, code: d.code, message: ts.flattenDiagnosticMessageText(d.messageText, "\n") };
        });
        return { ok: false, errors };
      }
      // Types stripped, nothing else changed: the sandbox runs the program as an async function body.
      const js = ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: false }, reportDiagnostics: false }).outputText;
      return { ok: true, js };
    },
  };
}
