/** Checks on generated files that do not depend on which emitter wrote them. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/** Relative path → bytes, for every file under `dir` (user folders node_modules/ and dist/ excluded). */
export function readTree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) {
        if (name !== "node_modules" && name !== "dist") walk(p);
      } else out.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

export function treeDifferences(a: Map<string, Buffer>, b: Map<string, Buffer>): string[] {
  const problems: string[] = [];
  for (const [path, bytes] of a) {
    const other = b.get(path);
    if (!other) problems.push(`only in the first generation: ${path}`);
    else if (!bytes.equals(other)) problems.push(`differs between two generations: ${path}`);
  }
  for (const path of b.keys()) if (!a.has(path)) problems.push(`only in the second generation: ${path}`);
  return problems;
}

/**
 * Identifiers (code, not strings or comments) that carry the canary prefix: contract text that
 * escaped its literal. Hostile payloads declare or call `CANARY_…` names when they break out.
 */
export function escapedIdentifiers(path: string, text: string, marker = "CANARY"): string[] {
  const kind = path.endsWith(".js") ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true, kind);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) && node.text.includes(marker)) {
      const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${path}:${line + 1}:${character + 1}: identifier ${node.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  // A payload that breaks the syntax shows up here before tsc says so.
  const parseErrors = (source as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
  for (const d of parseErrors.slice(0, 3)) {
    const { line, character } = source.getLineAndCharacterOfPosition(d.start ?? 0);
    found.push(`${path}:${line + 1}:${character + 1}: syntax error: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
  }
  return found;
}

/**
 * `text` without its code spans, as CommonMark reads them: a run of N backticks opens a span that the
 * next run of exactly N backticks on the line closes (a run with no such partner is literal text).
 * Spans are taken within one line, so nothing a span might hide across lines is dropped.
 */
function withoutCodeSpans(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      let out = "";
      let i = 0;
      while (i < line.length) {
        if (line[i] !== "`") {
          out += line[i++];
          continue;
        }
        let n = 0;
        while (line[i + n] === "`") n++;
        // The closing run: exactly n backticks, not part of a longer run.
        let close = -1;
        for (let j = i + n; j < line.length; ) {
          if (line[j] !== "`") {
            j++;
            continue;
          }
          let m = 0;
          while (line[j + m] === "`") m++;
          if (m === n) {
            close = j;
            break;
          }
          j += m;
        }
        if (close < 0) {
          out += line.slice(i, i + n);
          i += n;
        } else i = close + n;
      }
      return out;
    })
    .join("\n");
}

/** Markdown with a live script link or raw HTML script, outside code spans and fences. */
export function markdownInjections(path: string, text: string): string[] {
  // A backslash-escaped punctuation character is literal text in CommonMark: drop it before looking for syntax.
  const prose = withoutCodeSpans(text.replace(/\\[!-\/:-@[-`{-~]/g, "").replace(/```[\s\S]*?```/g, ""));
  const found: string[] = [];
  if (/\]\(\s*javascript:/i.test(prose)) found.push(`${path}: live javascript: link`);
  if (/<\s*script/i.test(prose)) found.push(`${path}: raw <script> tag`);
  return found;
}

/** `file(line,col): error TSxxxx: …` lines of a tsc run, grouped by the case folder under `root`. */
export function tscErrorsByCase(output: string, root: string): Map<string, string[]> {
  const byCase = new Map<string, string[]>();
  const prefix = `${root.replace(/\/$/, "")}/`;
  for (const line of output.split("\n")) {
    if (!/error TS\d+/.test(line)) continue;
    const at = line.indexOf(prefix);
    const name = at >= 0 ? line.slice(at + prefix.length).split("/")[0]! : "";
    byCase.set(name, [...(byCase.get(name) ?? []), line.trim()]);
  }
  return byCase;
}
