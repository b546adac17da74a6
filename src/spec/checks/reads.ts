import { type Diagnostic, diagnostic, withArticle } from "../../diagnostics/diagnostic.js";
import { admitsType, type CheckContext, keywordOf, type ObjectShape, schemaTypes } from "../context.js";
import { joinPointer } from "../source.js";
import { didYouMean } from "./references.js";

/** Pagination, filter, projection and task-scope fields exist where the contract says they are. */
export function checkReads(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { file } = ctx;
  for (const { name, op, at, input, output } of ctx.operations()) {
    const missingIn = (shape: ObjectShape, field: string, side: "input" | "output", pointer: string, what: string, type?: string) => {
      if (!shape.isObject) return;
      const info = shape.properties.get(field);
      if (!info) {
        out.push(diagnostic("pagination-field-missing", `${what} ${JSON.stringify(field)} of ${JSON.stringify(name)} is not an ${side} property.`, file.locate(pointer)));
      } else if (type && !(admitsType(info.value, type) && schemaTypes(info.value).length > 0)) {
        out.push(diagnostic("pagination-field-missing", `${what} ${JSON.stringify(field)} of ${JSON.stringify(name)} is not ${withArticle(type)} in the ${side}.`, file.locate(pointer)));
      }
    };

    const page = op.pagination;
    let itemShape: ObjectShape | undefined;
    if (page) {
      const pp = joinPointer(at, "pagination");
      missingIn(input, page.cursor, "input", joinPointer(pp, "cursor"), "Cursor field");
      missingIn(input, page.limit.field, "input", joinPointer(pp, "limit", "field"), "Limit field", "integer");
      missingIn(output, page.nextCursor, "output", joinPointer(pp, "nextCursor"), "Next-cursor field");
      missingIn(output, page.items, "output", joinPointer(pp, "items"), "Items field", "array");
      if (page.total) missingIn(output, page.total, "output", joinPointer(pp, "total"), "Total field", "integer");
      if (page.partial) missingIn(output, page.partial, "output", joinPointer(pp, "partial"), "Partial flag", "boolean");
      if (page.errors) missingIn(output, page.errors, "output", joinPointer(pp, "errors"), "Page errors field", "array");

      const limitField = input.properties.get(page.limit.field);
      const maximum = keywordOf(limitField?.value, "maximum");
      if (limitField && typeof maximum !== "number") {
        out.push(diagnostic("pagination-limit-inconsistent", `Limit field ${JSON.stringify(page.limit.field)} has no maximum; pagination.limit.max is ${page.limit.max}.`, limitField.file.locateKey(limitField.pointer), `Add \`maximum: ${page.limit.max}\` to the limit field so every adapter enforces the bound.`));
      } else if (limitField && maximum !== page.limit.max) {
        out.push(diagnostic("pagination-limit-inconsistent", `Limit field ${JSON.stringify(page.limit.field)} allows up to ${maximum} but pagination.limit.max is ${page.limit.max}.`, file.locate(joinPointer(pp, "limit", "max"))));
      } else if (page.limit.default !== undefined && page.limit.default > page.limit.max) {
        out.push(diagnostic("pagination-limit-inconsistent", `pagination.limit.default ${page.limit.default} exceeds limit.max ${page.limit.max}.`, file.locate(joinPointer(pp, "limit", "default"))));
      }
      itemShape = ctx.itemShape(output.properties.get(page.items));
    }

    (op.filters ?? []).forEach((field, i) => {
      if (input.isObject && !input.properties.has(field)) {
        out.push(diagnostic("filter-field-missing", `Filter ${JSON.stringify(field)} of ${JSON.stringify(name)} is not an input property.`, file.locate(joinPointer(at, "filters", i))));
      }
    });

    const projection = op.projection;
    if (projection) {
      const pp = joinPointer(at, "projection");
      const selector = input.properties.get(projection.field);
      if (input.isObject && (!selector || !(admitsType(selector.value, "array") && schemaTypes(selector.value).length > 0))) {
        out.push(diagnostic("projection-field-missing", `Projection field ${JSON.stringify(projection.field)} of ${JSON.stringify(name)} is ${selector ? "not an array" : "not an input property"}.`, file.locate(joinPointer(pp, "field"))));
      }
      const allowed = keywordOf(keywordOf(selector?.value, "items"), "enum");
      if (Array.isArray(allowed)) {
        const selectable = new Set(projection.selectable);
        const extra = allowed.filter((v) => typeof v !== "string" || !selectable.has(v));
        const missing = projection.selectable.filter((f) => !allowed.includes(f));
        if (extra.length > 0 || missing.length > 0) {
          out.push(diagnostic("projection-selectable-mismatch", `Selection field ${JSON.stringify(projection.field)} of ${JSON.stringify(name)} allows ${extra.length ? `${extra.map((v) => JSON.stringify(v)).join(", ")} (not selectable)` : ""}${extra.length && missing.length ? " and " : ""}${missing.length ? `lacks ${missing.map((v) => JSON.stringify(v)).join(", ")}` : ""}.`, file.locate(joinPointer(pp, "selectable"))));
        }
      }
      // Paginated reads project each item; other reads project the output itself.
      const target = page ? itemShape : output;
      if (target && target.isObject) {
        const where = page ? `each ${page.items} item` : "the output";
        for (const list of ["selectable", "identity"] as const) {
          (projection[list] ?? []).forEach((field, i) => {
            const info = target.properties.get(field);
            if (!info) {
              out.push(diagnostic("projection-field-unknown", `Projected field ${JSON.stringify(field)} of ${JSON.stringify(name)} is not a property of ${where}.`, file.locate(joinPointer(pp, list, i))));
            } else if (list === "identity" && !info.required) {
              out.push(diagnostic("projection-identity-optional", `Identity field ${JSON.stringify(field)} of ${JSON.stringify(name)} is not required in ${where}.`, file.locate(joinPointer(pp, list, i))));
            }
          });
        }
      }
    }

    const task = op.task;
    if (task && output.isObject) {
      // `answer` may have any type: a count, a list, a verdict.
      const fields: Array<[keyof typeof task, string | undefined]> = [["recordsExamined", "integer"], ["complete", "boolean"], ["continuation", "string"], ["answer", undefined]];
      for (const [key, type] of fields) {
        const field = task[key];
        if (field === undefined) continue;
        const info = output.properties.get(field);
        if (!info || (type !== undefined && (!admitsType(info.value, type) || schemaTypes(info.value).length === 0))) {
          out.push(diagnostic("task-field-missing", `Task field ${key} → ${JSON.stringify(field)} of ${JSON.stringify(name)} is ${info ? `not declared as ${type}` : `not an output property${didYouMean(field, output.properties.keys())}`}.`, file.locate(joinPointer(at, "task", key))));
        }
      }
    }
  }
  return out;
}
