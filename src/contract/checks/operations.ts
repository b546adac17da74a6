import { type Diagnostic, diagnostic, withArticle } from "../../diagnostics/diagnostic.js";
import { assignTypeNames, camelCase, CLIENT_MEMBERS, collisionKey, kebabCase, type TypeNameOwner, TYPES_ROOT } from "../../model/naming.js";
import type { CheckContext } from "../context.js";
import type { RawOperation } from "../raw.js";
import { joinPointer } from "../source.js";

/** Path template parameters, in order: "/invoices/{invoice_id}/refunds" → ["invoice_id"]. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!);
}

/** Operation names stay distinct in every convention; routes and MCP tool names are unique. */
export function checkOperationSet(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { doc, file } = ctx;
  const byKey = new Map<string, string>();
  const routes = new Map<string, string>();
  const tools = new Map<string, string>();
  const commands = new Map<string, string>();
  let exposed = 0;
  for (const [name, op] of Object.entries(doc.operations)) {
    const at = ctx.operationPointer(name);
    const key = collisionKey(name);
    const clash = byKey.get(key);
    if (clash !== undefined) {
      out.push(diagnostic("operation-name-collision", `Operation ${JSON.stringify(name)} and ${JSON.stringify(clash)} both become ${JSON.stringify(key.replace(/ /g, "_"))} once converted to identifiers.`, file.locateKey(at)));
    } else byKey.set(key, name);
    const method = camelCase(name);
    if (CLIENT_MEMBERS.has(method)) {
      out.push(diagnostic("operation-name-reserved", `Operation ${JSON.stringify(name)} would become the client method ${JSON.stringify(method)}, which every JavaScript object or the generated client already has${method === "then" ? " (a \`then\` method makes the client awaitable)" : ""}.`, file.locateKey(at)));
    }

    const command = op.cli?.name ?? kebabCase(name);
    const commandClash = commands.get(command);
    if (commandClash !== undefined && clash === undefined) {
      out.push(diagnostic("operation-name-collision", `Operation ${JSON.stringify(name)} and ${JSON.stringify(commandClash)} both become CLI command ${JSON.stringify(command)}.`, op.cli?.name ? file.locate(joinPointer(at, "cli", "name")) : file.locateKey(at)));
    } else if (commandClash === undefined) commands.set(command, name);

    const route = `${op.http.method} ${op.http.path.replace(/\{[^{}]+\}/g, "{}")}`;
    const routeClash = routes.get(route);
    if (routeClash !== undefined) {
      out.push(diagnostic("http-route-duplicate", `Operation ${JSON.stringify(name)} uses ${op.http.method} ${op.http.path}, like ${JSON.stringify(routeClash)}.`, file.locate(joinPointer(at, "http", "path"))));
    } else routes.set(route, name);

    if (op.mcp?.expose !== false) {
      exposed++;
      const tool = op.mcp?.name ?? name;
      const toolClash = tools.get(tool);
      if (toolClash !== undefined) {
        out.push(diagnostic("mcp-tool-name-collision", `Operation ${JSON.stringify(name)} exposes MCP tool ${JSON.stringify(tool)}, like ${JSON.stringify(toolClash)}.`, op.mcp?.name ? file.locate(joinPointer(at, "mcp", "name")) : file.locateKey(at)));
      } else tools.set(tool, name);
    }

    if (op.toolset !== undefined && !(doc.toolsets && Object.prototype.hasOwnProperty.call(doc.toolsets, op.toolset))) {
      out.push(diagnostic("toolset-undeclared", `Operation ${JSON.stringify(name)} is in toolset ${JSON.stringify(op.toolset)}, which \`toolsets\` does not declare.`, file.locate(joinPointer(at, "toolset"))));
    }
    if (/[\r\n]/.test(op.summary.trim())) {
      out.push(diagnostic("summary-not-one-line", `The summary of ${JSON.stringify(name)} spans several lines.`, file.locate(joinPointer(at, "summary"))));
    }
    out.push(...checkOperationRefs(ctx, name, op));
  }
  out.push(...checkTypeNames(ctx));
  const maxTools = doc.budget?.maxTools;
  if (maxTools !== undefined && exposed > maxTools) {
    out.push(diagnostic("budget-max-tools-exceeded", `The contract exposes ${exposed} MCP tools; budget.maxTools is ${maxTools}.`, file.locate("/budget/maxTools")));
  }
  return out;
}

/**
 * Every generated type name has one owner. A clash is reported at the shared type when one is
 * involved (the operation's name is the one generated), else at the later operation, so the place
 * does not depend on whether `types` or `operations` comes first in the file.
 */
function checkTypeNames(ctx: CheckContext): Diagnostic[] {
  const { doc, file } = ctx;
  const typeNames = Object.keys(doc.types ?? {});
  const { clashes } = assignTypeNames(
    typeNames,
    Object.entries(doc.operations).map(([name, op]) => ({ name, hasPreview: op.preview?.output !== undefined })),
    Object.keys(doc.webhooks ?? {}),
  );
  const describe = (o: TypeNameOwner) =>
    o.kind === "type"
      ? o.name === TYPES_ROOT
        ? "contractgen's own root type"
        : `shared type ${JSON.stringify(o.name)}`
      : o.kind === "webhook"
        ? `the payload type of webhook ${JSON.stringify(o.name)}`
        : `the ${o.slot} type of operation ${JSON.stringify(o.name)}`;
  const out: Diagnostic[] = [];
  const reported = new Set<string>();
  for (const { identifier, first, second } of clashes) {
    // Two operations whose names split into the same words are already an operation-name-collision.
    if (first.kind === "operation" && second.kind === "operation" && collisionKey(first.name) === collisionKey(second.name)) continue;
    // Blamed: the shared type when one is involved, else the later owner (webhooks come last).
    const blamed = second.kind === "type" || first.kind !== "type" ? second : first;
    const other = blamed === second ? first : second;
    const pair = JSON.stringify([blamed.kind, blamed.name, other.kind, other.name]);
    if (reported.has(pair)) continue; // one finding per pair, even when input and output both clash
    reported.add(pair);
    const where =
      blamed.kind === "type" ? file.locateKey(joinPointer("/types", blamed.name)) : blamed.kind === "webhook" ? file.locateKey(joinPointer("/webhooks", blamed.name)) : file.locateKey(ctx.operationPointer(blamed.name));
    out.push(diagnostic("type-name-collision", `${describe(blamed).replace(/^./, (c) => c.toUpperCase())} and ${describe(other)} would both be declared as ${identifier} in the generated types.`, where));
  }
  return out;
}

function checkOperationRefs(ctx: CheckContext, name: string, op: RawOperation): Diagnostic[] {
  const out: Diagnostic[] = [];
  const at = ctx.operationPointer(name);
  const known = (other: string) => Object.prototype.hasOwnProperty.call(ctx.doc.operations, other);
  if (op.deprecated?.replacement !== undefined && !known(op.deprecated.replacement)) {
    out.push(diagnostic("operation-ref-unknown", `Replacement ${JSON.stringify(op.deprecated.replacement)} of ${JSON.stringify(name)} is not an operation.`, ctx.file.locate(joinPointer(at, "deprecated", "replacement"))));
  }
  if (op.outcomes?.pollWith !== undefined && !known(op.outcomes.pollWith)) {
    out.push(diagnostic("operation-ref-unknown", `pollWith ${JSON.stringify(op.outcomes.pollWith)} of ${JSON.stringify(name)} is not an operation.`, ctx.file.locate(joinPointer(at, "outcomes", "pollWith"))));
  }
  return out;
}

/** Every error code an operation names — in `errors` or through a behaviour — is in the taxonomy. */
export function checkErrorReferences(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const declared = (code: string) => Object.prototype.hasOwnProperty.call(ctx.doc.errors, code);
  const expectClass = (name: string, code: string, pointer: string, classes: readonly string[], role: string) => {
    if (!declared(code)) return;
    const actual = ctx.doc.errors[code]!.class;
    if (!classes.includes(actual)) {
      out.push(diagnostic("behaviour-error-class", `${role} of ${JSON.stringify(name)} is ${code}, ${withArticle(actual)} error; it must be ${classes.join(" or ")}.`, ctx.file.locate(pointer)));
    }
  };
  for (const [name, op] of Object.entries(ctx.doc.operations)) {
    const at = ctx.operationPointer(name);
    const listed = new Set(op.errors ?? []);
    const uses: Array<{ code: string; pointer: string }> = (op.errors ?? []).map((code, i) => ({ code, pointer: joinPointer(at, "errors", i) }));
    const behavioural: Array<{ code: string; pointer: string; classes: readonly string[]; role: string }> = [];
    if (op.idempotency?.mismatchError) behavioural.push({ code: op.idempotency.mismatchError, pointer: joinPointer(at, "idempotency", "mismatchError"), classes: ["conflict", "invalid_input"], role: "The idempotency mismatch error" });
    if (op.preview?.invalidTokenError) behavioural.push({ code: op.preview.invalidTokenError, pointer: joinPointer(at, "preview", "invalidTokenError"), classes: ["conflict", "invalid_input", "permission"], role: "The invalid confirm-token error" });
    (op.preconditions ?? []).forEach((p, i) => behavioural.push({ code: p.error, pointer: joinPointer(at, "preconditions", i, "error"), classes: ["conflict"], role: "The stale-precondition error" }));
    for (const use of [...uses, ...behavioural]) {
      if (!declared(use.code)) {
        out.push(diagnostic("error-code-undeclared", `Error code ${JSON.stringify(use.code)} used by ${JSON.stringify(name)} is not declared in \`errors\`.`, ctx.file.locate(use.pointer)));
      }
    }
    for (const b of behavioural) {
      expectClass(name, b.code, b.pointer, b.classes, b.role);
      if (declared(b.code) && !listed.has(b.code)) {
        out.push(diagnostic("behaviour-error-not-listed", `${JSON.stringify(name)} can raise ${b.code} (${b.role.toLowerCase().replace(/^the /, "")}) but does not list it in \`errors\`.`, ctx.file.locate(b.pointer)));
      }
    }
  }
  return out;
}

/** Path parameters and query/header bindings name required input properties. */
export function checkTransport(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { name, op, at, input } of ctx.operations()) {
    if (!input.isObject) continue; // reported as input-not-object
    for (const param of pathParameters(op.http.path)) {
      const field = input.properties.get(param);
      if (!field) {
        out.push(diagnostic("http-path-param-missing", `Path parameter {${param}} of ${JSON.stringify(name)} is not an input property.`, ctx.file.locate(joinPointer(at, "http", "path"))));
      } else if (!field.required) {
        out.push(diagnostic("http-path-param-optional", `Path parameter {${param}} of ${JSON.stringify(name)} is not in input.required.`, ctx.file.locate(joinPointer(at, "http", "path"))));
      }
    }
    (op.http.query ?? []).forEach((field, i) => {
      if (!input.properties.has(field)) {
        out.push(diagnostic("http-binding-field-missing", `Query field ${JSON.stringify(field)} of ${JSON.stringify(name)} is not an input property.`, ctx.file.locate(joinPointer(at, "http", "query", i))));
      }
    });
    for (const field of Object.keys(op.http.headers ?? {})) {
      if (!input.properties.has(field)) {
        out.push(diagnostic("http-binding-field-missing", `Header field ${JSON.stringify(field)} of ${JSON.stringify(name)} is not an input property.`, ctx.file.locateKey(joinPointer(at, "http", "headers", field))));
      }
    }
  }
  return out;
}
