/**
 * Code mode's `search_docs` (issue 43): the SDK's methods as the package's own client declares them,
 * found by a query. Each entry is a method's signature and its documentation comment (summary,
 * effects, preview and key, preconditions, errors with their actions, as the generator wrote them)
 * with the declarations of the input and output types it names, so what the agent reads is what its
 * program is type-checked against. Results come in bounded pages with a continuation.
 */
import type * as TS from "typescript";
import { typescript } from "./typescript.js";
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
  /** The operation's other methods (its preview, its traversal): signature and documentation, shown with it. */
  readonly variants?: ReadonlyArray<{ readonly method: string; readonly signature: string; readonly doc: string }>;
}

/** The client methods of one operation, and its worked example. */
export interface OperationMethods {
  readonly call: string;
  readonly preview?: string | null;
  readonly all?: string | null;
  readonly example?: string;
}

/**
 * One entry per operation: its call, with its preview and traversal as variants (their types joined
 * to the call's), and its worked example. A page then shows an operation once, not its three methods
 * with the same documentation and types three times. Methods of no operation stay entries of their own.
 */
export function groupByOperation(docs: readonly MethodDoc[], operations: readonly OperationMethods[]): MethodDoc[] {
  const byName = new Map(docs.map((d) => [d.name, d] as const));
  const grouped = new Set<string>();
  const out: MethodDoc[] = [];
  for (const op of operations) {
    const call = byName.get(op.call);
    if (!call) continue;
    const variants = [op.preview, op.all].flatMap((name) => (name && byName.has(name) ? [byName.get(name)!] : []));
    for (const m of [call, ...variants]) grouped.add(m.name);
    const types = [...new Set([...call.types, ...variants.flatMap((v) => v.types)])];
    out.push({
      ...call,
      types,
      ...(op.example !== undefined ? { example: op.example } : {}),
      ...(variants.length > 0 ? { variants: variants.map((v) => ({ method: v.name, signature: v.signature, doc: v.doc })) } : {}),
    });
  }
  return [...out, ...docs.filter((d) => !grouped.has(d.name))];
}

/** The name a type declaration declares. */
const declaredName = (text: string) => /^(?:export\s+)?(?:declare\s+)?(?:interface|type)\s+([A-Za-z_$][\w$]*)/.exec(text)?.[1] ?? text;

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
function declarations(ts: typeof TS, source: TS.SourceFile): Map<string, string> {
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
  const ts = typescript();
  const client = ts.createSourceFile("client.ts", clientSource, ts.ScriptTarget.ES2022, true);
  const types = declarations(ts, ts.createSourceFile("types.ts", typesSource, ts.ScriptTarget.ES2022, true));
  const cls = client.statements.find((s): s is TS.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === clientClass);
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

/** Words that say nothing about which method is meant. */
const STOP_WORDS = new Set(
  "a an the of in on to for from by with and or is are was be been it its this that these those my me i we our you your their his her at as do does did can how what which who whom whose when where why all any some into off out up about than then there".split(" "),
);

/** One spelling for words platforms and their users abbreviate differently (a repository is a repo). */
const SAME_WORD = new Map(Object.entries({ repository: "repo", organization: "org", configuration: "config", authenticated: "auth", authentication: "auth", pr: "pull request", prs: "pull request" }));

/**
 * Everyday words for the verbs methods are named with, and "my"/"me" for the authenticated user:
 * a query's word also looks for these, weighed below the word itself.
 */
const RELATED_WORDS = new Map<string, readonly string[]>(
  Object.entries({
    remove: ["delete"], delete: ["remove"], add: ["create", "set"], create: ["add"], new: ["create"], make: ["create"], open: ["create"], publish: ["create"], start: ["create"],
    show: ["get", "list"], view: ["get"], read: ["get"], see: ["get", "list"], look: ["get"], fetch: ["get"], find: ["search", "list"], who: ["list", "get"], which: ["list", "get"], what: ["list", "get"],
    my: ["auth"], me: ["auth"], i: ["auth"], mine: ["auth"],
    change: ["update"], edit: ["update"], modify: ["update"], close: ["update"], rename: ["update"], set: ["update"], stop: ["cancel"], newest: ["latest"], recent: ["latest"], off: ["disable"], trigger: ["dispatch", "run"],
  }),
);
const RELATED_WEIGHT = 0.6;

/** A word without its plural or tense ending (incidents → incident, starred → star, policies → policy). */
function stem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith("ies") && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith("sses")) return w.slice(0, -2);
  if (/(ches|shes|xes|zes)$/.test(w)) return w.slice(0, -2);
  if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  if (w.endsWith("ed") && w.length > 4) w = w.slice(0, -2);
  else if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
  else return w;
  return /([^aeiou])\1$/.test(w) ? w.slice(0, -1) : w;
}

/** Lower-case words of a text, as written. */
const rawWords = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);

/** The terms a text is searched by: words in one spelling, without stop words, stemmed. */
function terms(text: string): string[] {
  return rawWords(text)
    .flatMap((w) => (SAME_WORD.get(w) ?? w).split(" "))
    .filter((w) => !STOP_WORDS.has(w))
    .map((w) => {
      const s = stem(w);
      return SAME_WORD.get(s) ?? s;
    });
}

/** A method's name as words (`refundInvoice` → refund Invoice). */
const nameText = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1 $2");

function termCounts(list: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of list) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** The first entry of a page, whole: a method (with its operation's other methods), its types and its worked example. */
export interface DocsEntry {
  readonly method: string;
  readonly signature: string;
  readonly doc: string;
  readonly variants?: MethodDoc["variants"];
  /** Declarations of the types it names. */
  readonly types: string;
  readonly typesCut: boolean;
  readonly example?: string;
}

/** Any later entry of a page, in brief: searching its method's name gives it whole. */
export interface DocsBrief {
  readonly method: string;
  readonly signature: string;
  readonly summary: string;
  /** Its operation's other methods (preview, traversal), by name. */
  readonly variants?: readonly string[];
  readonly brief: true;
}

export type DocsResult = DocsEntry | DocsBrief;

export interface DocsPage {
  readonly results: readonly DocsResult[];
  readonly total: number;
  /** Pass as `offset` for the next page; null when this page ends the matches. */
  readonly next_offset: number | null;
}

/** What a match in each part of an entry weighs: the name, the summary line, the rest of the comment, the type declarations. */
const FIELD_WEIGHTS = { name: 2, summary: 1, doc: 0.5, types: 0.3 } as const;
type Field = keyof typeof FIELD_WEIGHTS;
const FIELDS = Object.keys(FIELD_WEIGHTS) as Field[];
/** BM25's saturation and length normalisation (a word repeated in a long type counts little). */
const K1 = 1.2;
const B = 0.75;
/** How much a name made of the query's own words is raised (its share of the name's weight, times this). */
const NAME_COVER_WEIGHT = 2;
/** What a query word written as the name writes it counts besides its stem's match (incidents: listIncidents over getIncident). */
const WRITTEN_FORM_WEIGHT = 0.3;
/** What a query word that begins a longer word of the name counts (follow → followers), of a whole match. */
const NAME_PREFIX_WEIGHT = 0.5;

/**
 * An index over the methods. `search` scores each entry BM25-style per part (name, summary, comment,
 * types), rare words weighing more than words every method has (on a large SDK, "repository" or
 * "delete" say little, "milestone" a lot), then raises the entries whose name the query covers, so
 * `reposDelete` comes before a longer name that shares one word.
 */
export function docsIndex(methods: readonly MethodDoc[]) {
  const indexed = methods.map((m, at) => {
    const lines = m.doc.split("\n");
    const fields: Record<Field, Map<string, number>> = {
      name: termCounts(terms(nameText(m.name))),
      summary: termCounts(terms(lines[0] ?? "")),
      doc: termCounts(terms(lines.slice(1).join("\n"))),
      types: termCounts(terms(m.types.join(" "))),
    };
    const lengths = Object.fromEntries(FIELDS.map((f) => [f, [...fields[f].values()].reduce((a, b) => a + b, 0)])) as Record<Field, number>;
    // The name's words as written: a query word in the same form (a plural) says more than its stem.
    const written = new Set(rawWords(nameText(m.name)));
    return { m, at, fields, lengths, written };
  });
  const averageLength = Object.fromEntries(FIELDS.map((f) => [f, indexed.reduce((n, e) => n + e.lengths[f], 0) / Math.max(1, indexed.length) || 1])) as Record<Field, number>;
  const entriesWith = new Map<string, number>();
  for (const e of indexed) for (const t of new Set(FIELDS.flatMap((f) => [...e.fields[f].keys()]))) entriesWith.set(t, (entriesWith.get(t) ?? 0) + 1);
  const idf = (t: string) => {
    const n = entriesWith.get(t) ?? 0;
    return Math.log(1 + (indexed.length - n + 0.5) / (n + 0.5));
  };

  return {
    search(query: string, offset = 0, limit = SEARCH_DOCS_DEFAULT): DocsPage {
      // The query's terms weigh 1, the everyday words' stand-ins less.
      const wanted = new Map<string, number>();
      for (const w of rawWords(nameText(query)).slice(0, 20)) for (const related of RELATED_WORDS.get(w) ?? []) wanted.set(stem(related), Math.max(wanted.get(stem(related)) ?? 0, RELATED_WEIGHT));
      // A method's name in the query reads as its words (listIncidents → list incidents).
      const own = terms(nameText(query)).slice(0, 20);
      const named = query.trim();
      const asWritten = new Set(rawWords(nameText(query)).slice(0, 20).filter((w) => !STOP_WORDS.has(w) && stem(w) !== w));
      for (const t of own) wanted.set(t, 1);
      const score = (e: (typeof indexed)[number]): number => {
        let total = 0;
        for (const [t, weight] of wanted) {
          for (const f of FIELDS) {
            const n = e.fields[f].get(t);
            if (!n) continue;
            const tf = n / (1 - B + (B * e.lengths[f]) / averageLength[f]);
            total += weight * idf(t) * FIELD_WEIGHTS[f] * ((tf * (K1 + 1)) / (tf + K1));
          }
          if (t.length >= 4 && !e.fields.name.has(t)) {
            const longer = [...e.fields.name.keys()].find((n) => n.length > t.length && n.startsWith(t));
            if (longer) total += NAME_PREFIX_WEIGHT * weight * idf(longer) * FIELD_WEIGHTS.name;
          }
        }
        if (total === 0) return 0;
        // Not scaled down by rarity: where every method names the thing, its form is what tells them apart.
        for (const w of asWritten) if (e.written.has(w)) total += WRITTEN_FORM_WEIGHT * Math.max(1, idf(stem(w))) * FIELD_WEIGHTS.name;
        let covered = 0;
        let all = 0;
        for (const [t, n] of e.fields.name) {
          all += n * idf(t);
          covered += n * idf(t) * (wanted.get(t) ?? 0);
        }
        return total * (1 + NAME_COVER_WEIGHT * (all > 0 ? covered / all : 0));
      };
      const scored = indexed
        .map((e) => ({ e, score: own.length === 0 ? 1 : e.m.name === named || (e.m.variants ?? []).some((v) => v.method === named) ? Number.MAX_VALUE : score(e) }))
        .filter((s) => s.score > 0)
        .sort((a, b) => b.score - a.score || a.e.at - b.e.at);
      const page = scored.slice(offset, offset + Math.min(Math.max(1, limit), SEARCH_DOCS_MAX));
      const next = offset + page.length < scored.length ? offset + page.length : null;
      // The best match whole, the others in brief (what a search is for: choosing); a method's own
      // name as the query brings its entry first, whole.
      return {
        results: page.map(({ e }, i): DocsResult => {
          if (i > 0) {
            const variants = (e.m.variants ?? []).map((v) => v.method);
            return { method: e.m.name, signature: e.m.signature, summary: e.m.doc.split("\n\n")[0]!.replace(/\s+/g, " ").trim(), ...(variants.length > 0 ? { variants } : {}), brief: true };
          }
          const all = e.m.types.join("\n\n");
          const types = all.length > TYPES_MAX_CHARS ? `${all.slice(0, TYPES_MAX_CHARS)}\n…` : all;
          return {
            method: e.m.name,
            signature: e.m.signature,
            doc: e.m.doc,
            ...(e.m.variants ? { variants: e.m.variants } : {}),
            types,
            typesCut: all.length > TYPES_MAX_CHARS,
            ...(e.m.example !== undefined ? { example: e.m.example } : {}),
          };
        }),
        total: scored.length,
        next_offset: next,
      };
    },
  };
}
