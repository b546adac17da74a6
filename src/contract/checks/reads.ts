import { type Diagnostic, diagnostic, withArticle } from "../../diagnostics/diagnostic.js";
import { type CheckContext, type FieldInfo, keywordOf, type ObjectShape } from "../context.js";
import type { RawFilter } from "../raw.js";
import { joinPointer } from "../source.js";
import { didYouMean } from "./references.js";

/** The keys that only one pagination style uses (the others are shared). */
const STYLE_KEYS: ReadonlyMap<string, string> = new Map([
  ["cursor", "cursor"],
  ["nextCursor", "cursor"],
  ["nextLink", "next-link"],
  ["page", "page"],
  ["firstPage", "page"],
  ["offset", "offset"],
]);

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
      } else if (type && !ctx.declares(info, type)) {
        out.push(diagnostic("pagination-field-missing", `${what} ${JSON.stringify(field)} of ${JSON.stringify(name)} is not ${withArticle(type)} in the ${side}.`, file.locate(pointer)));
      }
    };

    const page = op.pagination;
    let itemShape: ObjectShape | undefined;
    if (page) {
      const pp = joinPointer(at, "pagination");
      const style = page.style ?? "cursor";
      // Keys of another style would be silently ignored: say so instead.
      const foreign = (Object.keys(page) as Array<keyof typeof page>).filter((key) => {
        const owner = STYLE_KEYS.get(key);
        return owner !== undefined && owner !== style;
      });
      for (const key of foreign) {
        out.push(diagnostic("pagination-style-field", `pagination.${key} of ${JSON.stringify(name)} belongs to style ${JSON.stringify(STYLE_KEYS.get(key))}, not ${JSON.stringify(style)}.`, file.locateKey(joinPointer(pp, key)), `Remove \`${key}\`, or set \`style: ${STYLE_KEYS.get(key)}\` if that is how the platform pages.`));
      }
      if (page.cursor !== undefined) missingIn(input, page.cursor, "input", joinPointer(pp, "cursor"), "Cursor field");
      if (page.nextCursor !== undefined) missingIn(output, page.nextCursor, "output", joinPointer(pp, "nextCursor"), "Next-cursor field");
      if (typeof page.nextLink === "string") missingIn(output, page.nextLink, "output", joinPointer(pp, "nextLink"), "Next-link field", "string");
      if (page.page !== undefined) missingIn(input, page.page, "input", joinPointer(pp, "page"), "Page field", "integer");
      if (page.offset !== undefined) missingIn(input, page.offset, "input", joinPointer(pp, "offset"), "Offset field", "integer");
      if (page.limit) missingIn(input, page.limit.field, "input", joinPointer(pp, "limit", "field"), "Limit field", "integer");
      if (page.items !== undefined) {
        missingIn(output, page.items, "output", joinPointer(pp, "items"), "Items field", "array");
        itemShape = ctx.itemShape(output.properties.get(page.items));
      } else {
        // Without `items` the output itself must be the page's array (the structure check already
        // requires `items` for cursor paging).
        const whole = ctx.deref(file, joinPointer(at, "output"));
        const types = whole ? ctx.declaredTypes(whole) : [];
        if (!whole || !types.includes("array") || types.includes("object")) {
          out.push(diagnostic("pagination-items-omitted", `pagination.items of ${JSON.stringify(name)} is omitted but the output is not an array.`, file.locateKey(pp)));
        } else {
          itemShape = ctx.itemShape(whole);
        }
      }
      if (page.total) missingIn(output, page.total, "output", joinPointer(pp, "total"), "Total field", "integer");
      if (page.partial) missingIn(output, page.partial, "output", joinPointer(pp, "partial"), "Partial flag", "boolean");
      if (page.errors) missingIn(output, page.errors, "output", joinPointer(pp, "errors"), "Page errors field", "array");

      const limit = page.limit;
      const limitField = limit ? input.properties.get(limit.field) : undefined;
      const maximum = keywordOf(limitField?.value, "maximum");
      if (limit && limit.max !== undefined) {
        if (limitField && typeof maximum !== "number") {
          out.push(diagnostic("pagination-limit-inconsistent", `Limit field ${JSON.stringify(limit.field)} has no maximum; pagination.limit.max is ${limit.max}.`, limitField.file.locateKey(limitField.pointer), `Add \`maximum: ${limit.max}\` to the limit field so every adapter enforces the bound.`));
        } else if (limitField && maximum !== limit.max) {
          out.push(diagnostic("pagination-limit-inconsistent", `Limit field ${JSON.stringify(limit.field)} allows up to ${maximum} but pagination.limit.max is ${limit.max}.`, file.locate(joinPointer(pp, "limit", "max"))));
        } else if (limit.default !== undefined && limit.default > limit.max) {
          out.push(diagnostic("pagination-limit-inconsistent", `pagination.limit.default ${limit.default} exceeds limit.max ${limit.max}.`, file.locate(joinPointer(pp, "limit", "default"))));
        }
      } else if (limit && typeof maximum === "number" && limit.default !== undefined && limit.default > maximum) {
        out.push(diagnostic("pagination-limit-inconsistent", `pagination.limit.default ${limit.default} exceeds the limit field's maximum ${maximum}.`, file.locate(joinPointer(pp, "limit", "default"))));
      } else if (!limit || (limitField && typeof maximum !== "number")) {
        // Non-cursor styles may leave the page size open; the bound is then unknown to every adapter.
        out.push(diagnostic("pagination-unbounded", `${JSON.stringify(name)} pages without a known page-size bound (${limit ? `no pagination.limit.max and no maximum on ${JSON.stringify(limit.field)}` : "no pagination.limit"}).`, file.locateKey(limit ? joinPointer(pp, "limit") : pp)));
      }
    }

    const filterFields = new Set<string>();
    (op.filters ?? []).forEach((filter, i) => {
      const fp = joinPointer(at, "filters", i);
      const field = typeof filter === "string" ? filter : filter.field;
      if (filterFields.has(field)) {
        out.push(diagnostic("filter-duplicate", `Filter ${JSON.stringify(field)} of ${JSON.stringify(name)} is listed twice.`, file.locate(fp)));
      }
      filterFields.add(field);
      if (input.isObject && !input.properties.has(field)) {
        out.push(diagnostic("filter-field-missing", `Filter ${JSON.stringify(field)} of ${JSON.stringify(name)} is not an input property.`, file.locate(typeof filter === "string" ? fp : joinPointer(fp, "field"))));
      }
      if (typeof filter !== "string") out.push(...checkFilterMeaning(ctx, name, filter, fp, input, page ? itemShape : undefined));
    });

    const projection = op.projection;
    if (projection) {
      const pp = joinPointer(at, "projection");
      const selector = input.properties.get(projection.field);
      if (input.isObject && (!selector || !ctx.declares(selector, "array"))) {
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
        const where = page ? (page.items !== undefined ? `each ${page.items} item` : "each output item") : "the output";
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
        if (!info || (type !== undefined && !ctx.declares(info, type))) {
          out.push(diagnostic("task-field-missing", `Task field ${key} → ${JSON.stringify(field)} of ${JSON.stringify(name)} is ${info ? `not declared as ${type}` : `not an output property${didYouMean(field, output.properties.keys())}`}.`, file.locate(joinPointer(at, "task", key))));
        }
      }
    }
  }
  return out;
}

/** Formats a range can order: a string property is a window of days or instants only with one of them. */
const ORDERED_FORMATS: ReadonlySet<string> = new Set(["date", "date-time"]);

/** Whether a property (or input field) holds values a range can order: numbers, dates, instants. */
function ordered(ctx: CheckContext, info: FieldInfo | { file: FieldInfo["file"]; pointer: string; value: unknown }): boolean {
  if (ctx.declares(info, "number")) return true;
  const format = keywordOf(info.value, "format");
  return ctx.declares(info, "string") && typeof format === "string" && ORDERED_FORMATS.has(format);
}

/**
 * A filter's stated meaning fits the schemas: its property is one of each listed record (for a
 * paginated read, whose records are its items; another operation's records are not in its output,
 * so only the match against the field is checked), and the match suits both sides: contains needs
 * an array property, prefix a string property and value, range an ordered property and either a
 * single bound of the same kind or an object window with `from` and `to`.
 */
function checkFilterMeaning(ctx: CheckContext, operation: string, filter: RawFilter, at: string, input: ObjectShape, records: ObjectShape | undefined): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { file } = ctx;
  const quoted = `Filter ${JSON.stringify(filter.field)} of ${JSON.stringify(operation)}`;
  const incompatible = (why: string, pointer = joinPointer(at, "match")) => out.push(diagnostic("filter-match-incompatible", `${quoted} matches ${filter.match} but ${why}.`, file.locate(pointer)));
  // `bound` and `inclusive` say which end of a window a value is: only a range has ends.
  if (filter.match !== "range") {
    for (const key of ["bound", "inclusive"] as const) {
      if (filter[key] !== undefined) out.push(diagnostic("filter-match-incompatible", `${quoted} matches ${filter.match} but gives \`${key}\`, which only a range has.`, file.locateKey(joinPointer(at, key))));
    }
  }
  const field = input.isObject ? input.properties.get(filter.field) : undefined;
  const property = records?.isObject ? records.properties.get(filter.property) : undefined;
  if (records?.isObject && !property) {
    const known = [...records.properties.keys()];
    out.push(diagnostic("filter-property-missing", `${quoted} tests ${JSON.stringify(filter.property)}, which is not a property of each listed record${didYouMean(filter.property, known)}.`, file.locate(joinPointer(at, "property"))));
  }
  switch (filter.match) {
    case "contains":
      if (property && !ctx.declares(property, "array")) incompatible(`the record property ${JSON.stringify(filter.property)} is not an array`);
      break;
    case "prefix":
      if (property && !ctx.declares(property, "string")) incompatible(`the record property ${JSON.stringify(filter.property)} is not a string`);
      else if (field && !ctx.declares(field, "string")) incompatible(`the input field ${JSON.stringify(filter.field)} is not a string`);
      break;
    case "range":
      if (property && !ordered(ctx, property)) incompatible(`the record property ${JSON.stringify(filter.property)} is neither a number nor a date or date-time string`);
      else if (field && filter.bound !== undefined && !ordered(ctx, field)) incompatible(`the input field ${JSON.stringify(filter.field)} (bound ${filter.bound}) is neither a number nor a date or date-time string`);
      else if (field && filter.bound === undefined) {
        // Without a bound the field is the whole window: an object with `from` and `to`.
        const window = ctx.shape(field.file, field.pointer);
        const ends = ["from", "to"].filter((end) => !window.properties.has(end));
        if (!window.isObject || ends.length > 0) incompatible(`the input field ${JSON.stringify(filter.field)} is not a window: ${window.isObject ? `it has no ${ends.join(" and ")} member` : "it is not an object"} (give \`bound: from\` or \`bound: to\` for a single bound)`);
      }
      break;
    default:
      break;
  }
  return out;
}
