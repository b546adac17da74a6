import type { LoadResult } from "../../src/contract/load.js";
import { joinPointer } from "../../src/contract/source.js";

/**
 * Differences between two parse results of the same text: value (key order, own `__proto__`, -0,
 * NaN), diagnostics, and the location (start and end) of every value and key, by JSON pointer.
 * Empty when they agree. Iterative, so deep documents cannot overflow it.
 */
export function compareLoads(a: LoadResult, b: LoadResult, limit = 5): string[] {
  const out: string[] = [];
  const da = JSON.stringify(a.diagnostics);
  const db = JSON.stringify(b.diagnostics);
  if (da !== db) out.push(`diagnostics differ:\n  ${da.slice(0, 400)}\n  ${db.slice(0, 400)}`);
  if (!a.file || !b.file) {
    if (a.file !== b.file) out.push("one result has no file");
    return out;
  }
  if (a.file.text !== b.file.text) out.push("texts differ");
  const stack: Array<{ x: unknown; y: unknown; p: string; key: boolean }> = [{ x: a.file.value, y: b.file.value, p: "", key: false }];
  while (stack.length > 0 && out.length < limit) {
    const { x, y, p, key } = stack.pop()!;
    const la = JSON.stringify(a.file.locate(p, { key }));
    const lb = JSON.stringify(b.file.locate(p, { key }));
    if (la !== lb) out.push(`location of ${key ? "key " : ""}${JSON.stringify(p)}: ${la} vs ${lb}`);
    if (key) continue;
    if (x === null || typeof x !== "object" || y === null || typeof y !== "object") {
      if (!Object.is(x, y)) out.push(`value at ${JSON.stringify(p)}: ${String(x)} (${typeof x}) vs ${String(y)} (${typeof y})`);
      continue;
    }
    if (Array.isArray(x) !== Array.isArray(y) || Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) {
      out.push(`kind at ${JSON.stringify(p)} differs`);
      continue;
    }
    const kx = Object.keys(x);
    const ky = Object.keys(y);
    if (kx.join("\u0000") !== ky.join("\u0000")) {
      out.push(`keys at ${JSON.stringify(p)}: ${kx.slice(0, 10).join(",")} vs ${ky.slice(0, 10).join(",")}`);
      continue;
    }
    for (const k of kx) {
      const child = joinPointer(p, k);
      stack.push({ x: (x as Record<string, unknown>)[k], y: (y as Record<string, unknown>)[k], p: child, key: false });
      if (!Array.isArray(x)) stack.push({ x: undefined, y: undefined, p: child, key: true });
    }
  }
  return out;
}
