import { type Diagnostic, diagnostic } from "../../diagnostics/diagnostic.js";
import type { CheckContext } from "../context.js";
import type { ParamStyle } from "../raw.js";
import { joinPointer } from "../source.js";
import { pathParameters } from "./operations.js";

type Place = "path" | "query" | "header" | "cookie" | "body";

/** The styles OpenAPI 3.1 defines for each place a field can go ("Style Values"); the first is the default. */
export const STYLES_BY_PLACE: ReadonlyMap<Place, readonly ParamStyle[]> = new Map<Place, readonly ParamStyle[]>([
  ["path", ["simple", "label", "matrix"]],
  ["query", ["form", "spaceDelimited", "pipeDelimited", "deepObject"]],
  ["header", ["simple"]],
  ["cookie", ["form"]],
  ["body", ["form", "spaceDelimited", "pipeDelimited", "deepObject"]],
]);

/** Where a field of `op` goes on the wire, as the model builder decides it. */
function placeOf(op: CheckContext["doc"]["operations"][string], field: string): Place {
  if (pathParameters(op.http.path).includes(field)) return "path";
  if (Object.hasOwn(op.http.headers ?? {}, field)) return "header";
  if (Object.hasOwn(op.http.cookies ?? {}, field)) return "cookie";
  if (field === op.http.body) return "body";
  if ((op.http.query ?? []).includes(field) || op.http.method === "GET" || op.http.method === "DELETE") return "query";
  return "body";
}

/**
 * Request encoding (`http.cookies`, `http.params`, `http.contentType`, `http.encoding`): every entry
 * names an input field bound where the entry applies, with a style OpenAPI defines for that place.
 */
export function checkRequestEncoding(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { file } = ctx;
  for (const { name, op, at, input } of ctx.operations()) {
    if (!input.isObject) continue; // reported as input-not-object
    const http = op.http;
    const inPath = new Set(pathParameters(http.path));
    const inQuery = new Set(http.query ?? []);
    const inHeaders = new Map(Object.entries(http.headers ?? {}));
    for (const field of Object.keys(http.cookies ?? {})) {
      const where = joinPointer(at, "http", "cookies", field);
      if (!input.properties.has(field)) {
        out.push(diagnostic("http-binding-field-missing", `Cookie field ${JSON.stringify(field)} of ${JSON.stringify(name)} is not an input property.`, file.locateKey(where)));
        continue;
      }
      const elsewhere = [inPath.has(field) && "the path", inQuery.has(field) && "the query", inHeaders.has(field) && "a header"].filter((w): w is string => typeof w === "string");
      if (elsewhere.length > 0) {
        out.push(diagnostic("http-cookie-field-conflict", `Cookie field ${JSON.stringify(field)} of ${JSON.stringify(name)} is also bound to ${elsewhere.join(" and ")}.`, file.locateKey(where)));
      }
    }
    for (const [field, settings] of Object.entries(http.params ?? {})) {
      const where = joinPointer(at, "http", "params", field);
      const place = input.properties.has(field) ? placeOf(op, field) : null;
      if (place === null || place === "body") {
        out.push(
          diagnostic(
            "http-param-field-unbound",
            `\`http.params\` of ${JSON.stringify(name)} names ${JSON.stringify(field)}, which is ${place === null ? "not an input property" : "sent in the body"}: params apply to path, query, header and cookie fields.`,
            file.locateKey(where),
          ),
        );
        continue;
      }
      const allowed = STYLES_BY_PLACE.get(place)!;
      if (settings.style !== undefined && !allowed.includes(settings.style)) {
        out.push(diagnostic("http-param-style-location", `Field ${JSON.stringify(field)} of ${JSON.stringify(name)} is a ${place} parameter; style ${settings.style} is not defined there (${allowed.join(", ")}).`, file.locate(joinPointer(where, "style"))));
      }
      if (settings.allowReserved !== undefined && place !== "query") {
        out.push(diagnostic("http-param-style-location", `Field ${JSON.stringify(field)} of ${JSON.stringify(name)} is a ${place} parameter; allowReserved applies to query parameters only.`, file.locate(joinPointer(where, "allowReserved"))));
      }
    }
    const contentType = http.contentType ?? "application/json";
    if (http.contentType !== undefined && contentType !== "application/json" && http.method === "GET") {
      out.push(diagnostic("http-content-type-no-body", `${JSON.stringify(name)} is a GET operation; it sends no body to encode as ${contentType}.`, file.locate(joinPointer(at, "http", "contentType"))));
    }
    for (const [field, settings] of Object.entries(http.encoding ?? {})) {
      const where = joinPointer(at, "http", "encoding", field);
      if (contentType === "application/json") {
        out.push(diagnostic("http-encoding-content-type", `\`http.encoding\` of ${JSON.stringify(name)} applies to form and multipart bodies; this operation sends JSON (set \`http.contentType\`).`, file.locateKey(where)));
        continue;
      }
      if (!input.properties.has(field) || placeOf(op, field) !== "body" || field === http.body) {
        out.push(diagnostic("http-encoding-field-unbound", `\`http.encoding\` of ${JSON.stringify(name)} names ${JSON.stringify(field)}, which is not a field of the request body.`, file.locateKey(where)));
        continue;
      }
      if (settings.contentType !== undefined && contentType !== "multipart/form-data") {
        out.push(diagnostic("http-encoding-content-type", `The part media type of ${JSON.stringify(field)} (${JSON.stringify(name)}) applies to multipart bodies only.`, file.locate(joinPointer(where, "contentType"))));
      }
      if ((settings.style !== undefined || settings.explode !== undefined) && contentType !== "application/x-www-form-urlencoded") {
        out.push(diagnostic("http-encoding-content-type", `style and explode of ${JSON.stringify(field)} (${JSON.stringify(name)}) apply to form-urlencoded bodies only.`, file.locateKey(where)));
      }
    }
  }
  return out;
}
