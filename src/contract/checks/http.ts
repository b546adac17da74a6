import { type Diagnostic, diagnostic } from "../../diagnostics/diagnostic.js";
import type { CheckContext } from "../context.js";
import { MAX_SCHEMA_DEPTH } from "../load.js";
import { isSchemaObject } from "../schema-walk.js";
import { joinPointer, type SourceFile } from "../source.js";
import { pathParameters } from "./operations.js";

/** The success statuses an operation declares (`successStatus`: one integer or a list), default [200]. */
export function successStatuses(declared: number | readonly number[] | undefined): number[] {
  if (declared === undefined) return [200];
  return typeof declared === "number" ? [declared] : [...declared];
}

/**
 * A whole-body field (`http.body`) is an input property, sent by a method that has a body, and the
 * only thing in the body: every other input field must have a place of its own.
 */
export function checkHttpBody(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { file } = ctx;
  for (const { name, op, at, input } of ctx.operations()) {
    const body = op.http.body;
    if (body === undefined || !input.isObject) continue;
    const bodyAt = joinPointer(at, "http", "body");
    if (op.http.method === "GET") {
      out.push(diagnostic("http-body-method", `${JSON.stringify(name)} is a GET operation; it cannot send ${JSON.stringify(body)} as a request body.`, file.locate(bodyAt)));
    }
    if (!input.properties.has(body)) {
      out.push(diagnostic("http-binding-field-missing", `Body field ${JSON.stringify(body)} of ${JSON.stringify(name)} is not an input property.`, file.locate(bodyAt)));
    }
    const inPath = new Set(pathParameters(op.http.path));
    const inQuery = new Set(op.http.query ?? []);
    // A Map, not the raw object: an input field may be called "constructor" or "__proto__".
    const inHeaders = new Map(Object.entries(op.http.headers ?? {}));
    const inCookies = new Map(Object.entries(op.http.cookies ?? {}));
    const elsewhere = [inPath.has(body) && "the path", inQuery.has(body) && "the query", inHeaders.has(body) && "a header", inCookies.has(body) && "a cookie"].filter((w): w is string => typeof w === "string");
    if (elsewhere.length > 0) {
      out.push(diagnostic("http-body-field-conflict", `Body field ${JSON.stringify(body)} of ${JSON.stringify(name)} is also bound to ${elsewhere.join(" and ")}.`, file.locate(bodyAt)));
    }
    // GET and DELETE send every unbound field as a query parameter; the other methods would put it in the body.
    if (op.http.method === "GET" || op.http.method === "DELETE") continue;
    for (const [field, info] of input.properties) {
      if (field === body || inPath.has(field) || inQuery.has(field) || inHeaders.has(field) || inCookies.has(field)) continue;
      out.push(
        diagnostic(
          "http-body-field-unbound",
          `Input field ${JSON.stringify(field)} of ${JSON.stringify(name)} has no place in the request: the body is ${JSON.stringify(body)} alone (http.body).`,
          info.file.locateKey(info.pointer),
          `Add ${JSON.stringify(field)} to \`http.query\` or \`http.headers\`, or make it a path parameter.`,
        ),
      );
    }
  }
  return out;
}

/** A 204 (No Content) success is answered without a body, which the client returns as null: the output must admit it. */
export function checkNoContentOutput(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { name, op, at } of ctx.operations()) {
    if (!successStatuses(op.http.successStatus).includes(204)) continue;
    if (admitsNull(ctx, ctx.file, joinPointer(at, "output"), 0)) continue;
    out.push(diagnostic("output-null-missing", `${JSON.stringify(name)} lists success status 204 (No Content), but its output does not admit null.`, ctx.file.locate(joinPointer(at, "output"))));
  }
  return out;
}

/** Whether null can be valid against the schema at `pointer`, as far as type, const, enum and the combinators say. */
function admitsNull(ctx: CheckContext, file: SourceFile, pointer: string, depth: number): boolean {
  // Deeper than any valid schema (or a $ref cycle through combinators): give the benefit of the doubt.
  if (depth > MAX_SCHEMA_DEPTH) return true;
  const node = ctx.deref(file, pointer);
  if (!node) return true; // an unresolved $ref is reported elsewhere
  const schema = node.value;
  if (schema === false) return false;
  if (!isSchemaObject(schema)) return true;
  if (typeof schema.type === "string" && schema.type !== "null") return false;
  if (Array.isArray(schema.type) && !schema.type.includes("null")) return false;
  if ("const" in schema && schema.const !== null) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  const branches = (keyword: string) => (Array.isArray(schema[keyword]) ? (schema[keyword] as unknown[]).map((_, i) => joinPointer(node.pointer, keyword, i)) : null);
  const allOf = branches("allOf");
  if (allOf && !allOf.every((p) => admitsNull(ctx, node.file, p, depth + 1))) return false;
  for (const keyword of ["anyOf", "oneOf"]) {
    const list = branches(keyword);
    if (list && !list.some((p) => admitsNull(ctx, node.file, p, depth + 1))) return false;
  }
  return true;
}

/** The `effects-inferred` hint for an OpenAPI document, which has effects only where x-contract states them. */
const OPENAPI_INFERRED_HINT =
  "Review each operation's effects (read or mutating, idempotency, destructive) and state them in the operation's `x-contract` (in the document or an overlay), such as `x-contract: { effects: { kind: read } }`: effects stated there are not inferred. See docs/openapi.md, Effects.";

/** How many operations name the first few of them in the one `effects-inferred` warning. */
const INFERRED_NAMES_SHOWN = 5;

/**
 * One warning for the whole contract, however many operations carry `effects.inferred: true`: an
 * import of a thousand operations must not print a thousand warnings. It points at the first one.
 */
export function checkInferredEffects(ctx: CheckContext): Diagnostic[] {
  const inferred = Object.entries(ctx.doc.operations).filter(([, op]) => op.effects.inferred === true).map(([name]) => name);
  if (inferred.length === 0) return [];
  const shown = inferred.slice(0, INFERRED_NAMES_SHOWN).map((n) => JSON.stringify(n)).join(", ");
  const more = inferred.length > INFERRED_NAMES_SHOWN ? ` and ${inferred.length - INFERRED_NAMES_SHOWN} more` : "";
  const count = inferred.length === 1 ? "1 operation has" : `${inferred.length} operations have`;
  return [
    diagnostic(
      "effects-inferred",
      `${count} effects inferred by a tool and not reviewed: ${shown}${more}.`,
      ctx.file.locate(joinPointer(ctx.operationPointer(inferred[0]!), "effects", "inferred")),
      // Read from an OpenAPI document, there is no `inferred: true` to remove: effects are stated in x-contract.
      ctx.file.importedFrom === "openapi" ? OPENAPI_INFERRED_HINT : undefined,
    ),
  ];
}
