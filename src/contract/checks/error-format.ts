import { type Diagnostic, diagnostic } from "../../diagnostics/diagnostic.js";
import { errorFormatOf, isJsonPointer } from "../../runtime/wire-errors.js";
import type { CheckContext } from "../context.js";
import { joinPointer } from "../source.js";

const FORMAT_AT = "/transport/http/errorFormat";

/**
 * The error binding (`transport.http.errorFormat`, `errors.<CODE>.wire`) can be read off the wire:
 * its pointers are JSON pointers the style uses, no two codes share a wire value, and with style
 * `status` no operation declares two errors with the same HTTP status (the status alone names the code).
 */
export function checkErrorFormat(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const format = ctx.doc.transport.http.errorFormat;
  const style = format?.style ?? "envelope";
  if (format) {
    for (const key of ["code", "message", "field"] as const) {
      const pointer = format[key];
      if (pointer === undefined) continue;
      const at = ctx.file.locate(joinPointer(FORMAT_AT, key));
      if (style === "envelope" || (style === "status" && key === "code")) {
        out.push(
          diagnostic(
            "error-pointer-invalid",
            `errorFormat.${key} has no meaning with style ${style}: ${style === "envelope" ? "the envelope's members are fixed ({\"error\": {\"code\", \"message\", \"field\", …}})" : "the HTTP status alone names the error"}.`,
            at,
            style === "envelope" ? "Remove the pointer, or choose style body (the API's own body) or problem (RFC 9457)." : "Remove `code`, or choose style body with this pointer.",
          ),
        );
      } else if (!isJsonPointer(pointer)) {
        out.push(diagnostic("error-pointer-invalid", `errorFormat.${key} ${JSON.stringify(pointer)} is not a JSON pointer (RFC 6901).`, at));
      }
    }
  }

  // Pointers (defaults applied) that overlap cannot all hold their value: the host writes one over the other.
  if (format && out.length === 0) {
    const f = errorFormatOf(format);
    const keys = (["code", "message", "field"] as const).filter((k) => f[k] !== null);
    const overlap = (a: string, b: string) => a === b || b.startsWith(`${a}/`) || a.startsWith(`${b}/`);
    for (let i = 0; i < keys.length; i++) {
      for (let j = i + 1; j < keys.length; j++) {
        const [a, b] = [keys[i]!, keys[j]!];
        if (!overlap(f[a]!, f[b]!)) continue;
        const written = format[b] !== undefined ? b : a;
        out.push(
          diagnostic(
            "error-pointer-invalid",
            `errorFormat.${b} ${JSON.stringify(f[b])} overlaps errorFormat.${a} ${JSON.stringify(f[a])}${format[a] === undefined ? " (the default)" : ""}: one value would sit inside or in place of the other.`,
            ctx.file.locate(joinPointer(FORMAT_AT, written)),
          ),
        );
      }
    }
  }

  // Effective wire values: `wire`, else the code itself. A code's wire value may not be another's.
  const owners = new Map<string, string>();
  for (const code of Object.keys(ctx.doc.errors)) owners.set(code, code);
  for (const [code, def] of Object.entries(ctx.doc.errors)) {
    if (def.wire === undefined) continue;
    const owner = owners.get(def.wire);
    if (owner !== undefined && owner !== code) {
      out.push(
        diagnostic(
          "error-wire-duplicate",
          `Error ${code} is sent as ${JSON.stringify(def.wire)}, which already names ${owner}: the platform's answer could not tell them apart.`,
          ctx.file.locate(joinPointer("/errors", code, "wire")),
        ),
      );
    } else {
      owners.set(def.wire, code);
    }
  }

  if (style === "status") {
    for (const { name, op, at } of ctx.operations()) {
      // The codes the operation lists, then those its behaviours imply (as the model counts them).
      const refs: Array<{ code: string; pointer: string }> = (op.errors ?? []).map((code, i) => ({ code, pointer: joinPointer(at, "errors", i) }));
      const implied: Array<[string | undefined, string]> = [
        [op.idempotency?.mismatchError, joinPointer(at, "idempotency", "mismatchError")],
        [op.preview?.invalidTokenError, joinPointer(at, "preview", "invalidTokenError")],
        ...(op.preconditions ?? []).map((p, i): [string, string] => [p.error, joinPointer(at, "preconditions", i, "error")]),
      ];
      for (const [code, pointer] of implied) if (code !== undefined && !refs.some((r) => r.code === code)) refs.push({ code, pointer });
      const byStatus = new Map<number, string>();
      for (const { code, pointer } of refs) {
        if (!Object.hasOwn(ctx.doc.errors, code)) continue; // error-code-undeclared says so
        const status = ctx.doc.errors[code]!.http;
        const first = byStatus.get(status);
        if (first === undefined) byStatus.set(status, code);
        else if (first !== code) {
          out.push(
            diagnostic(
              "error-status-ambiguous",
              `${JSON.stringify(name)} declares ${first} and ${code}, both HTTP ${status}: with errorFormat style status, the status alone cannot tell which one the platform answered.`,
              ctx.file.locate(pointer),
            ),
          );
        }
      }
    }
  }
  return out;
}
