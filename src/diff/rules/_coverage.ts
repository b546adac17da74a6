import type { DiffContext, Finding } from "../rule.js";
import type { Change } from "../structural.js";
import { COMBINATOR_KEYWORDS, MAP_KEYWORDS, pathKey, RETURNS, SINGLE_KEYWORDS } from "../tree.js";

/*
 * What no finding covers (not a rule: files starting with "_" are not registered), for the fallback
 * rules schema-keyword-changed and contract-field-changed: the invariant that two contracts that
 * differ anywhere give at least one finding naming the place.
 */

/** Segments that enter another schema (or a schema root): a finding above one does not cover what is below it. */
const ENTERS_SCHEMA: ReadonlySet<string> = new Set([...SINGLE_KEYWORDS, ...MAP_KEYWORDS, ...COMBINATOR_KEYWORDS, "prefixItems", "input", RETURNS, "details"]);

/**
 * Changes no finding covers. A finding covers a change when, on a side both have, the finding is at
 * the change's place or inside it, or it is about the schema node or field the change is in (an
 * ancestor below an operation, type or error root, with no step into another schema between them).
 * CLI flags are left out: they follow from input changes, judged where those are.
 */
export function uncoveredChanges(ctx: DiffContext): Change[] {
  const exact = new Set<string>();
  const within = new Set<string>();
  // Tree paths that are one document node (an operation's derived names all point at the operation).
  const pointers = new Set<string>();
  // Findings about everything below them (a whole type).
  const subtrees = new Set<string>();
  const add = (side: "old" | "new", path: readonly string[] | undefined, subtree = false) => {
    if (!path) return;
    const at = side === "old" ? ctx.old : ctx.new_;
    const canonical = own(at, path);
    if (subtree) subtrees.add(`${side}\u0001${pathKey(canonical)}`);
    exact.add(`${side}\u0001${pathKey(canonical)}`);
    pointers.add(`${side}\u0001${at.pointer(path)}`);
    for (let n = 1; n <= canonical.length; n++) within.add(`${side}\u0001${pathKey(canonical.slice(0, n))}`);
  };
  const visit = (f: Finding) => {
    // SDK source findings judge the generated code, not the change: they leave it to the wire rules.
    if (f.category === "sdk") return f.consequences.forEach(visit);
    const places = ctx.placesOf(f);
    const path = ctx.pathOf(f);
    if (places) {
      add("old", places.before, places.subtree);
      add("new", places.after, places.subtree);
      // A finding given only one side's path names the same place on the other side.
      if (!places.before) add("old", places.after, places.subtree);
      if (!places.after) add("new", places.before, places.subtree);
    } else if (path) {
      add("old", path);
      add("new", path);
    }
    f.consequences.forEach(visit);
  };
  ctx.findings.forEach(visit);

  const covered = (side: "old" | "new", path: readonly string[]): boolean => {
    // A name joining or leaving `required` is about that property: a finding on the property covers it.
    if (path.at(-2) === "required" && covered(side, [...path.slice(0, -2), "properties", path.at(-1)!])) return true;
    // Tree keys that stand for document keywords: a finding on the keyword covers them.
    const alias = KEY_ALIASES.get(path.at(-1)!);
    if (alias && alias.some((k) => covered(side, [...path.slice(0, -1), k]))) return true;
    // How an input field is sent follows from the field: a finding on the field covers its binding.
    if (path[0] === "operations" && path[2] === "http" && (path[3] === "bindings" || path[3] === "styles") && path.length === 5 && covered(side, ["operations", path[1]!, "input", "properties", path[4]!])) return true;
    const at = side === "old" ? ctx.old : ctx.new_;
    if (pointers.has(`${side}\u0001${at.pointer(path)}`)) return true;
    const canonical = own(at, path);
    if (within.has(`${side}\u0001${pathKey(canonical)}`)) return true;
    for (let n = 1; n < canonical.length; n++) if (subtrees.has(`${side}\u0001${pathKey(canonical.slice(0, n))}`)) return true;
    for (let n = canonical.length - 1; n >= 3; n--) {
      if (ENTERS_SCHEMA.has(canonical[n]!)) return false;
      if (exact.has(`${side}\u0001${pathKey(canonical.slice(0, n))}`)) return true;
    }
    return false;
  };
  return ctx.changes.filter((c) => {
    if (c.path[0] === "operations" && c.path[2] === "cliFlags") return false;
    const sides: Array<"old" | "new"> = c.kind === "added" ? ["new"] : c.kind === "removed" ? ["old"] : ["old", "new"];
    return !sides.some((side) => covered(side, c.path));
  });
}

/** Tree keys with no document keyword of their own, and the keywords that write them. */
const KEY_ALIASES: ReadonlyMap<string, readonly string[]> = new Map([
  ["nullable", ["type"]],
  ["typeUnwritten", ["type"]],
  ["closed", ["additionalProperties", "unevaluatedProperties"]],
  ["closedBy", ["additionalProperties", "unevaluatedProperties"]],
]);

/** A tree path as the tree keeps it, up to its last step (a path that ends at a reference is about the reference, not the type). */
function own(side: DiffContext["old"], path: readonly string[]): readonly string[] {
  return path.length === 0 ? path : [...side.canonical(path.slice(0, -1)), path.at(-1)!];
}

