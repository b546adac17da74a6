/**
 * What every command reads: a contract, or an OpenAPI 3.0/3.1 document (recognised by its top-level
 * `openapi` key) imported in memory, with overlays applied, and located in its own text.
 */
import { diagnostic, fileLocation } from "../diagnostics/diagnostic.js";
import { MAX_FILE_BYTES, parseSource, readRegularFile } from "../contract/load.js";
import { analyseSource, parseContract } from "../contract/parse.js";
import { MAX_OPENAPI_BYTES } from "./openapi/files.js";
import { type OpenApiParseOptions, type OpenApiParseResult, parseOpenApi } from "./openapi/in-memory.js";

export interface OpenOptions extends OpenApiParseOptions {
  /** A contract read with overlays given is read without them (a diff's other side), rather than refused. */
  readonly overlaysForOpenApiOnly?: boolean;
}

export interface OpenedContract extends OpenApiParseResult {
  /** What the file held. */
  readonly format: "contract" | "openapi";
}

/**
 * What a diff needs to know of a side beyond its model: whether the document dates its release (an
 * OpenAPI document does not: its import writes a placeholder changelog date), and whether its
 * version is its own (the import makes one up for an info.version that is not semver, Stripe's
 * dates, and says so with a `header-derived` item at /info/version).
 */
export function diffFacts(opened: OpenedContract): { dated: boolean; versioned: boolean } {
  return {
    dated: opened.format === "contract",
    versioned: opened.format === "contract" || !(opened.review?.items ?? []).some((i) => i.kind === "header-derived" && i.pointer === "/info/version"),
  };
}

/** Read a contract or an OpenAPI document from disk; never throws on bad input. */
export async function openContract(path: string, options: OpenOptions = {}): Promise<OpenedContract> {
  const read = readRegularFile(path, MAX_OPENAPI_BYTES);
  // A file that cannot be read is reported as the contract loader reports it.
  if ("problem" in read) return asContract(path, parseContract(path, options));
  return openContractBytes(path, read.bytes, options);
}

/** The same, for bytes already read (a file at a git revision): relative $refs resolve as if it were at `path`. */
export async function openContractBytes(path: string, bytes: Buffer, options: OpenOptions = {}): Promise<OpenedContract> {
  if (isOpenApi(bytes)) return { ...(await parseOpenApi(path, { ...options, bytes })), format: "openapi" };
  if ((options.overlays ?? []).length > 0 && options.overlaysForOpenApiOnly !== true) {
    return { format: "contract", files: [path], diagnostics: [diagnostic("overlay-needs-openapi", `--overlay was given, but ${path} is a contract, not an OpenAPI document (it has no top-level openapi key).`, fileLocation(path))] };
  }
  if (bytes.length > MAX_FILE_BYTES) return asContract(path, parseContract(path, options));
  const loaded = parseSource(path, bytes);
  return asContract(path, analyseSource(loaded.file, loaded.diagnostics, options));
}

function asContract(path: string, result: ReturnType<typeof parseContract>): OpenedContract {
  return { ...result, format: "contract", files: result.model?.files ?? [path] };
}

/**
 * An OpenAPI document has a top-level `openapi` key; a contract never does (it has `contract`). In
 * YAML a top-level key starts a line; JSON documents write `openapi` first in practice, so their first
 * kilobytes are searched. Decided on the text, so the file is parsed once, by the reader it needs.
 */
export function isOpenApi(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 64 * 1024).toString("utf8");
  if (/^\s*\{/.test(head)) {
    if (/^\s*\{\s*(?:"[^"\\]*"\s*:\s*(?:"[^"\\]*"|[\d.]+|true|false|null)\s*,\s*)*"openapi"\s*:/.test(head)) return true;
    // `openapi` written after an object-valued key: only parsing tells whether it is a top-level key.
    const text = bytes.toString("utf8");
    if (!text.includes('"openapi"')) return false;
    try {
      const value: unknown = JSON.parse(text);
      return typeof value === "object" && value !== null && Object.prototype.hasOwnProperty.call(value, "openapi");
    } catch {
      return false;
    }
  }
  if (/^(?:openapi|"openapi"|'openapi')[ \t]*:/m.test(head)) return true;
  // A YAML document whose `openapi` key comes after 64 KiB of other top-level content.
  return bytes.length > head.length && /^(?:openapi|"openapi"|'openapi')[ \t]*:/m.test(bytes.toString("utf8"));
}
