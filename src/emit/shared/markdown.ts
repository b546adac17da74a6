/**
 * Escaping for Markdown output (generated READMEs): spec text reaches a document only through these,
 * one per Markdown context, so no string can open a link, an HTML tag or a block of its own, or leave
 * the code span it was put in.
 */
import { plainText } from "./literals.js";

/** One line of prose: no line breaks, no invisible characters. */
function oneLine(value: unknown): string {
  return plainText(String(value ?? "")).replace(/[\n\t]+/g, " ").trim();
}

/**
 * Inline Markdown text (also safe in a table cell): the characters that start emphasis, code, links,
 * images, autolinks, raw HTML, strikethrough or cell breaks are backslash-escaped (`&` becomes
 * `&amp;`, so no entity is spelled out), and so is a block marker at the start (a heading, list item
 * or thematic break; `>` is always escaped).
 */
export function markdownText(value: unknown): string {
  return oneLine(value)
    .replace(/[\\`*[\]<>|~&]/g, (c) => (c === "&" ? "&amp;" : `\\${c}`))
    // An underscore between two letters or digits can neither open nor close emphasis (CommonMark's
    // flanking rules), so `opened_at` stays as written; any other underscore is escaped.
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, "\\_")
    // A list item, heading or break needs its marker followed by a space (or a line of dashes); "1.0.0" stays as it is.
    .replace(/^([#+-]|\d+[.)])(?=\s|-|$)/, "\\$1");
}

/**
 * A code span holding the text verbatim: the fence is one backtick longer than the longest run of
 * backticks inside, padded with spaces when the text starts or ends with a backtick.
 */
export function markdownCode(value: unknown): string {
  const text = oneLine(value);
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") || (text.startsWith(" ") && text.endsWith(" ")) ? " " : "";
  return `${fence}${pad}${text === "" ? " " : text}${pad}${fence}`;
}

/** Schemes a generated document may link to; anything else (javascript:, data:, file:, vbscript:) is shown, not linked. */
const LINK_SCHEMES = new Set(["http:", "https:", "mailto:"]);

/** A link target, or null when the URL is not an absolute http, https or mailto URL. */
export function markdownLinkTarget(url: unknown): string | null {
  const raw = oneLine(url);
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return null;
  }
  if (!LINK_SCHEMES.has(parsed.protocol)) return null;
  // The serialised URL percent-encodes spaces, quotes, backticks and angle brackets; parentheses are encoded so the target cannot close early.
  return parsed.href.replace(/\(/g, "%28").replace(/\)/g, "%29");
}

/** `[text](url)` when the URL may be linked, else the text (and the URL as code) without a link. */
export function markdownLink(text: unknown, url: unknown): string {
  const target = markdownLinkTarget(url);
  return target === null ? `${markdownText(text)} (${markdownCode(url)})` : `[${markdownText(text)}](<${target}>)`;
}
