/**
 * The names a TypeScript module of ours exports, read from its text. The SDK's index re-exports
 * both the contract's types and the runtime (`export *` of each); a contract type named like a
 * runtime export (`Outcome`, `Taxonomy`, `ClientOptions`…) makes the two ambiguous, and tsc refuses
 * the index. The index names those types explicitly, which settles it in the contract's favour.
 * The runtime is our own code in one style (test/emit/exported-names.test.ts holds this reader to
 * TypeScript's own view of it); generated types.ts is json-schema-to-typescript's output.
 */

const DECLARATION = /^export (?:declare )?(?:default )?(?:abstract )?(?:async )?(?:interface|type|class|function\*?|const|let|var|enum|namespace) +([A-Za-z_$][\w$]*)/gm;
const EXPORT_LIST = /^export (?:type )?\{([^}]*)\}/gm;
const STAR = /^export (?:type )?\* from "\.\/([\w.-]+)\.js";$/gm;

/** Names exported by `text` itself (declarations and export lists; not `export * from`). */
export function declaredExports(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(DECLARATION)) names.add(m[1]!);
  for (const m of text.matchAll(EXPORT_LIST)) {
    for (const item of m[1]!.split(",")) {
      const name = item.trim().replace(/^type\s+/, "").split(/\s+as\s+/).pop()!.trim();
      if (name !== "") names.add(name);
    }
  }
  return names;
}

/** Names exported by the module `index` of a folder of sources (file name → text), following `export * from "./x.js"`. */
export function moduleExports(sources: ReadonlyMap<string, string>, index: string): Set<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    const text = sources.get(file);
    if (text === undefined || seen.has(file)) return;
    seen.add(file);
    for (const name of declaredExports(text)) names.add(name);
    for (const m of text.matchAll(STAR)) visit(`${m[1]}.ts`);
  };
  visit(index);
  return names;
}
