/**
 * Name conversions shared by the model and every emitter. A contract name is split into words once,
 * then joined per target convention, so `refund_invoice`, `refundInvoice` and `Refund-Invoice` all map
 * to the same words — which is exactly how collisions are detected.
 */

/** Split a name into lower-case words at `_`, `-`, `.`, spaces and case changes (HTTPServer → http, server). */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

export function camelCase(name: string): string {
  const [first = "", ...rest] = words(name);
  const joined = first + rest.map(capitalize).join("");
  return /^[0-9]/.test(joined) ? `_${joined}` : joined || "_";
}

export function pascalCase(name: string): string {
  const joined = words(name).map(capitalize).join("");
  return /^[0-9]/.test(joined) ? `_${joined}` : joined || "_";
}

export function kebabCase(name: string): string {
  return words(name).join("-");
}

export function snakeCase(name: string): string {
  return words(name).join("_");
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The key two names collide under: identical words ⇒ identical identifiers in every convention. */
export function collisionKey(name: string): string {
  return words(name).join(" ");
}

/** Words that cannot name a binding in TypeScript/JavaScript modules (strict mode, ES2022). */
export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  "arguments", "await", "break", "case", "catch", "class", "const", "continue", "debugger", "default",
  "delete", "do", "else", "enum", "eval", "export", "extends", "false", "finally", "for", "function",
  "if", "implements", "import", "in", "instanceof", "interface", "let", "new", "null", "package",
  "private", "protected", "public", "return", "static", "super", "switch", "this", "throw", "true",
  "try", "typeof", "var", "void", "while", "with", "yield",
]);

/** A safe binding name for a spec-derived camelCase name: reserved words get a trailing underscore. */
export function safeIdentifier(name: string): string {
  const id = camelCase(name);
  return RESERVED_WORDS.has(id) ? `${id}_` : id;
}

const PLAIN_PROPERTY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property key as written in TypeScript source: bare when it is a plain identifier, else a string literal. */
export function propertyKey(name: string): string {
  return PLAIN_PROPERTY.test(name) && name !== "__proto__" ? name : JSON.stringify(name);
}
