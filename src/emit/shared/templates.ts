import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { packagePath } from "../../package-root.js";

/**
 * Handlebars for non-code files only. Compiled with `noEscape` (HTML escaping would corrupt JSON and
 * Markdown) and `strict`; values reach the output only through these helpers.
 */
// handlebars is CommonJS without ESM named exports; load it the CommonJS way to keep its types.
const Handlebars = createRequire(import.meta.url)("handlebars") as typeof import("handlebars");
const engine = Handlebars.create();
engine.registerHelper("json", (value: unknown) => JSON.stringify(value));
engine.registerHelper("upper", (value: unknown) => String(value).toUpperCase().replace(/[^A-Z0-9]/g, "_"));
/** Text for a Markdown table cell or line: no pipes, newlines or raw HTML can change the layout. */
engine.registerHelper("md", (value: unknown) =>
  String(value ?? "")
    .replace(/\r?\n+/g, " ")
    .replace(/\\/g, "\\\\")
    .replace(/\|/g, "\\|")
    .replace(/</g, "&lt;")
    .replace(/`/g, "\\`")
    .trim(),
);

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
