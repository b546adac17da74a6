/**
 * Code mode's `search_docs` (issue 43): the SDK's methods as the package's own client declares them,
 * found by a query. Each entry is a method's signature and its documentation comment (summary,
 * effects, preview and key, preconditions, errors with their actions, as the generator wrote them)
 * with the declarations of the input and output types it names, so what the agent reads is what its
 * program is type-checked against. Results come in bounded pages with a continuation.
 */
import ts from "typescript";
import { SEARCH_DOCS_DEFAULT, SEARCH_DOCS_MAX } from "./tools.js";

export { SEARCH_DOCS_DEFAULT, SEARCH_DOCS_MAX } from "./tools.js";

export interface MethodDoc {
  readonly name: string;
  /** The method's signature as declared (no body). */
  readonly signature: string;
  /** Its documentation comment, as text. */
  readonly doc: string;
  /** Declarations of the types its signature names from the types module (`T.X`) and of the types those name, breadth first. */
  readonly types: readonly string[];
  /** A worked example of the method in a program (code mode's data), when there is one. */
  readonly example?: string;
}

/** Characters of type declarations one entry carries at most (a huge type is cut, and says so). */
const TYPES_MAX_CHARS = 6000;

/** The comment text of a JSDoc block, without its delimiters and leading asterisks. */
function commentText(raw: string): string {
  return raw
    .replace(/^\/\*\*|\*\/$/g, "")
    .split("\n")
    .map((line) => line.replace(/^\s*\* ?/, ""))
    .join("\n")
    .trim();
}

/** Declarations by name in a module's source: interfaces and type aliases at its top level. */
function declarations(source: ts.SourceFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const statement of source.statements) {
    if ((ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) && !out.has(statement.name.text)) {
      out.set(statement.name.text, statement.getText(source));
    }
  }
  return out;
}

/** Most declarations one method's entry follows (its own types, then the types those name, breadth first). */
const TYPES_MAX_DECLARATIONS = 40;

/** The declarations of `names` and of the types they name in turn, breadth first, bounded. */
function reachable(names: readonly string[], types: ReadonlyMap<string, string>): string[] {
  const seen = new Set<string>();
  const queue = names.filter((n) => types.has(n));
  const out: string[] = [];
  while (queue.length > 0 && out.length < TYPES_MAX_DECLARATIONS) {
    const name = queue.shift()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const text = types.get(name)!;
    out.push(text);
    for (const m of text.matchAll(/\b[A-Z][\w$]*\b/g)) if (types.has(m[0]) && !seen.has(m[0])) queue.push(m[0]);
  }
  return out;
}

/**
 * The public methods of `clientClass` in the client module's source (`sdk/client.ts` or its built
 * `client.d.ts`), each with the declarations of the `T.X` types it names from the types module;
 * `only`: the methods code mode bridges (the client's own housekeeping, such as `close`, is not one).
 */
export function readMethodDocs(clientSource: string, typesSource: string, clientClass: string, only?: ReadonlySet<string>): MethodDoc[] {
  const client = ts.createSourceFile("client.ts", clientSource, ts.ScriptTarget.ES2022, true);
  const types = declarations(ts.createSourceFile("types.ts", typesSource, ts.ScriptTarget.ES2022, true));
  const cls = client.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === clientClass);
  if (!cls) throw new Error(`the client module declares no class ${clientClass}`);
  const docs: MethodDoc[] = [];
  for (const member of cls.members) {
    if (!ts.isMethodDeclaration(member) || !ts.isIdentifier(member.name)) continue;
    if (member.modifiers?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword)) continue;
    if (only && !only.has(member.name.text)) continue;
    const full = member.getText(client);
    const signature = (member.body ? full.slice(0, member.body.getStart(client) - member.getStart(client)) : full).trim().replace(/;$/, "");
    const comments = ts.getLeadingCommentRanges(clientSource, member.getFullStart()) ?? [];
    const jsdoc = comments.filter((c) => clientSource.slice(c.pos, c.pos + 3) === "/**").at(-1);
    const named = [...new Set([...signature.matchAll(/\bT\.([A-Za-z_$][\w$]*)/g)].map((m) => m[1]!))];
    docs.push({ name: member.name.text, signature, doc: jsdoc ? commentText(clientSource.slice(jsdoc.pos, jsdoc.end)) : "", types: reachable(named, types) });
  }
  return docs;
}

/** Lower-case words of a query or a text. */
function words(text: string): string[] {
  return [...new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0))];
}

/** A method's name split into its words (`refundInvoice` → refund, invoice). */
const nameWords = (name: string) => words(name.replace(/([a-z0-9])([A-Z])/g, "$1 $2"));

export interface DocsPage {
  readonly results: ReadonlyArray<{ readonly method: string; readonly signature: string; readonly doc: string; readonly types: string; readonly typesCut: boolean; readonly example?: string }>;
  readonly total: number;
  /** Pass as `offset` for the next page; null when this page ends the matches. */
  readonly next_offset: number | null;
}

/** An index over the methods: `search` ranks a word in the name first, then the summary, then the rest. */
export function docsIndex(methods: readonly MethodDoc[]) {
  const indexed = methods.map((m, at) => ({ m, at, name: new Set(nameWords(m.name)), summary: new Set(words(m.doc.split("\n")[0] ?? "")), body: new Set(words(`${m.doc} ${m.types.join(" ")}`)) }));
  return {
    search(query: string, offset = 0, limit = SEARCH_DOCS_DEFAULT): DocsPage {
      const wanted = words(query).slice(0, 20);
      const scored = indexed
        .map((e) => ({ e, score: wanted.length === 0 ? 1 : wanted.reduce((n, w) => n + (e.name.has(w) ? 4 : 0) + (e.summary.has(w) ? 2 : 0) + (e.body.has(w) ? 1 : 0), 0) }))
        .filter((s) => s.score > 0)
        .sort((a, b) => b.score - a.score || a.e.at - b.e.at);
      const page = scored.slice(offset, offset + Math.min(Math.max(1, limit), SEARCH_DOCS_MAX));
      const next = offset + page.length < scored.length ? offset + page.length : null;
      return {
        results: page.map(({ e }) => {
          const all = e.m.types.join("\n\n");
          const types = all.length > TYPES_MAX_CHARS ? `${all.slice(0, TYPES_MAX_CHARS)}\n…` : all;
          return { method: e.m.name, signature: e.m.signature, doc: e.m.doc, types, typesCut: all.length > TYPES_MAX_CHARS, ...(e.m.example !== undefined ? { example: e.m.example } : {}) };
        }),
        total: scored.length,
        next_offset: next,
      };
    },
  };
}
