import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { packagePath } from "../../package-root.js";
import { literal } from "./literals.js";
import { markdownCode, markdownLink, markdownText } from "./markdown.js";

/**
 * Handlebars for non-code files only. Compiled with `noEscape` (HTML escaping would corrupt JSON and
 * Markdown) and `strict`; values reach the output only through these helpers.
 */
// handlebars is CommonJS without ESM named exports; load it the CommonJS way to keep its types.
const Handlebars = createRequire(import.meta.url)("handlebars") as typeof import("handlebars");
const engine = Handlebars.create();
engine.registerHelper("json", (value: unknown) => literal(value));
engine.registerHelper("upper", (value: unknown) => String(value).toUpperCase().replace(/[^A-Z0-9]/g, "_"));
/** Markdown prose (lines, table cells): see markdown.ts. */
engine.registerHelper("md", (value: unknown) => markdownText(value));
/** A Markdown code span holding the value verbatim, whatever backticks it contains. */
engine.registerHelper("mdCode", (value: unknown) => markdownCode(value));
/** A Markdown link: `{{mdLink text url}}`; only http, https and mailto URLs become links. */
engine.registerHelper("mdLink", (text: unknown, url: unknown) => markdownLink(text, url));

type Template = (data: object) => string;
const cache = new Map<string, Template>();

export function renderTemplate(name: string, data: object): string {
  let template = cache.get(name);
  if (template === undefined) {
    template = engine.compile(readFileSync(packagePath("templates", name), "utf8"), { noEscape: true, strict: true }) as Template;
    cache.set(name, template);
  }
  return template(data);
}
