/**
 * Reading an OpenAPI document with @redocly/openapi-core: bundle every `$ref`ed file into one
 * document (component references kept), then run the "minimal" ruleset for structural problems.
 * External references are read only from under the document's folder (symlinks resolved) and never
 * over the network.
 */
import { realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { BaseResolver, bundle, createConfig, getLineColLocation, lintDocument, type NormalizedProblem } from "@redocly/openapi-core";
import { isObject, type JsonObject } from "./schema.js";

/** Largest OpenAPI document read (GitHub's REST description is 13 MB). */
export const MAX_OPENAPI_BYTES = 64 * 1024 * 1024;

export interface ReadProblem {
  readonly code: "file-not-found" | "file-is-directory" | "file-not-regular" | "file-too-large" | "openapi-invalid" | "openapi-version-unsupported" | "openapi-ref-unresolved" | "openapi-no-operations" | "openapi-tag-unknown" | "openapi-contract-too-large";
  readonly severity: "error" | "warning";
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly pointer: string;
}

export interface ReadResult {
  readonly doc?: JsonObject;
  readonly version?: string;
  readonly problems: readonly ReadProblem[];
}

/** Refuses files outside the allowed folder and every URL; the refusal surfaces as an unresolved $ref. */
class RootedResolver extends BaseResolver {
  readonly refused: string[] = [];
  constructor(private readonly root: string) {
    super({ http: { headers: [] } } as never);
  }
  override async loadExternalRef(absoluteRef: string) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(absoluteRef) && !/^[a-z]:[\\/]/i.test(absoluteRef)) {
      this.refused.push(absoluteRef);
      throw new Error(`remote reference ${absoluteRef} is not fetched`);
    }
    let real: string;
    try {
      real = realpathSync(absoluteRef);
    } catch {
      return super.loadExternalRef(absoluteRef); // missing: let the resolver report it as unresolved
    }
    const rel = relative(this.root, real);
    if (rel.startsWith("..") || isAbsolute(rel)) {
      this.refused.push(absoluteRef);
      throw new Error("the file lies outside the document's folder");
    }
    if (!statSync(real).isFile()) {
      this.refused.push(absoluteRef);
      throw new Error("not a regular file");
    }
    return super.loadExternalRef(absoluteRef);
  }
}

export async function readOpenApi(file: string): Promise<ReadResult> {
  let st;
  try {
    st = statSync(file);
  } catch {
    return { problems: [fileProblem("file-not-found", file, `${file} does not exist.`)] };
  }
  if (st.isDirectory()) return { problems: [fileProblem("file-is-directory", file, `${file} is a directory.`)] };
  if (!st.isFile()) return { problems: [fileProblem("file-not-regular", file, `${file} is not a regular file.`)] };
  if (st.size > MAX_OPENAPI_BYTES) return { problems: [fileProblem("file-too-large", file, `${file} is larger than ${MAX_OPENAPI_BYTES} bytes.`)] };
  const root = realpathSync(dirname(resolve(file)));
  const resolver = new RootedResolver(root);
  // Only structural rules: "struct" (the OpenAPI schema) and unresolved references.
  const config = await createConfig({ rules: { struct: "error", "no-unresolved-refs": "error" } } as never);
  let bundled;
  try {
    bundled = await bundle({ ref: resolve(file), config, externalRefResolver: resolver, dereference: false });
  } catch (e) {
    return { problems: [fileProblem("openapi-invalid", file, `${file} cannot be read as OpenAPI: ${(e as Error).message.split("\n")[0]}`)] };
  }
  const parsed = bundled.bundle.parsed as unknown;
  if (!isObject(parsed)) return { problems: [fileProblem("openapi-invalid", file, `${file} is not an OpenAPI document (not a mapping).`)] };
  const version = parsed.openapi;
  if (typeof version !== "string" || !/^3\.[01]\./.test(version)) {
    const found = typeof version === "string" ? `openapi ${version}` : typeof parsed.swagger === "string" ? `swagger ${parsed.swagger}` : "no openapi field";
    return { problems: [fileProblem("openapi-version-unsupported", file, `${file}: ${found}; only OpenAPI 3.0.x and 3.1.x are imported.`)] };
  }
  // Structural problems do not stop the import (real documents often break the schema in places the
  // import ignores, such as x- extensions); they go into the review report. A reference refused for
  // leaving the document's folder does stop it: the document depends on something we will not read.
  const problems: ReadProblem[] = [];
  for (const p of [...bundled.problems, ...(await lintDocument({ document: bundled.bundle, config, externalRefResolver: resolver }))]) {
    const problem = toProblem(p, file);
    const refused = problem.code === "openapi-ref-unresolved" && resolver.refused.length > 0;
    problems.push(refused ? { ...problem, severity: "error", message: `${problem.message} (only files under the document's folder are read, and URLs are never fetched)` } : { ...problem, severity: "warning" });
  }
  const seen = new Set<string>();
  const distinct = problems.filter((p) => {
    const k = `${p.code} ${p.file} ${p.pointer} ${p.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return { doc: parsed, version, problems: distinct };
}

function fileProblem(code: ReadProblem["code"], file: string, message: string): ReadProblem {
  return { code, severity: "error", message, file, line: 1, col: 1, pointer: "" };
}

function toProblem(p: NormalizedProblem, file: string): ReadProblem {
  const loc = p.location[0];
  let line = 1;
  let col = 1;
  let where = file;
  let pointer = "";
  if (loc) {
    pointer = loc.pointer?.replace(/^#/, "") ?? "";
    where = relative(process.cwd(), loc.source.absoluteRef) || file;
    try {
      const lc = getLineColLocation(loc);
      line = lc.start.line;
      col = lc.start.col;
    } catch {
      // a location without source text: keep 1:1
    }
  }
  const unresolved = p.ruleId === "no-unresolved-refs";
  const message = p.message.split("\n")[0]!;
  return {
    code: unresolved ? "openapi-ref-unresolved" : "openapi-invalid",
    severity: p.severity === "error" ? "error" : "warning",
    message,
    file: where,
    line,
    col,
    pointer,
  };
}
