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

/**
 * Names every JavaScript object answers to (Object.prototype's members), plus `then`, which makes an
 * object awaitable. Written out rather than read from the running engine so the set is deterministic.
 */
export const OBJECT_MEMBERS: ReadonlySet<string> = new Set([
  "constructor", "toString", "toLocaleString", "valueOf", "hasOwnProperty", "isPrototypeOf",
  "propertyIsEnumerable", "__proto__", "__defineGetter__", "__defineSetter__", "__lookupGetter__",
  "__lookupSetter__", "then",
]);

/** Members of the generated client class that an operation's method must not replace. */
export const CLIENT_MEMBERS: ReadonlySet<string> = new Set([...OBJECT_MEMBERS, "core", "close"]);

/** The one root type json-schema-to-typescript is handed; no contract type may take its name. */
export const TYPES_ROOT = "ContractgenTypesRoot";

/**
 * The TypeScript identifier of a generated type: the name with its first letter and every letter
 * after a digit or an underscore upper-cased (underscore dropped). json-schema-to-typescript derives
 * identifiers from titles by these rules, so a name already in this form reaches `types.ts` unchanged
 * and the client, the aliases and the declarations all agree (`get_oauth2client` → `GetOauth2Client…`).
 */
export function typeIdentifier(name: string): string {
  const id = name
    .replace(/[^A-Za-z0-9_]/g, "_")
    .replace(/_+([a-z])/g, (_m, c: string) => c.toUpperCase())
    .replace(/([0-9])([a-z])/g, (_m, d: string, c: string) => d + c.toUpperCase())
    .replace(/^[0-9_]+/, "");
  return id === "" ? "Type" : id.charAt(0).toUpperCase() + id.slice(1);
}

/** Names of the generated types of one operation, from its name. */
export function operationTypeIdentifiers(operation: string, hasPreview: boolean): { input: string; output: string; preview: string | null } {
  const stem = typeIdentifier(pascalCase(operation));
  return { input: `${stem}Input`, output: `${stem}Output`, preview: hasPreview ? `${stem}Preview` : null };
}

/** Who asked for a generated type name: a shared type, or one slot of an operation. */
export type TypeNameOwner = { readonly kind: "type"; readonly name: string } | { readonly kind: "operation"; readonly name: string; readonly slot: "input" | "output" | "preview" };

/**
 * The naming authority for `types.ts`: every shared type and every operation input, output and
 * preview gets its identifier here, in document order (shared types first). Two owners of one
 * identifier are returned as clashes (`validate` reports them); `owners` keeps the first owner.
 */
export function assignTypeNames(types: readonly string[], operations: ReadonlyArray<{ name: string; hasPreview: boolean }>): {
  owners: ReadonlyMap<string, TypeNameOwner>;
  clashes: ReadonlyArray<{ identifier: string; first: TypeNameOwner; second: TypeNameOwner }>;
} {
  const owners = new Map<string, TypeNameOwner>();
  const clashes: Array<{ identifier: string; first: TypeNameOwner; second: TypeNameOwner }> = [];
  const claim = (identifier: string, owner: TypeNameOwner) => {
    const first = owners.get(identifier);
    if (first) clashes.push({ identifier, first, second: owner });
    else owners.set(identifier, owner);
  };
  owners.set(TYPES_ROOT, { kind: "type", name: TYPES_ROOT });
  for (const name of types) claim(typeIdentifier(name), { kind: "type", name });
  for (const op of operations) {
    const ids = operationTypeIdentifiers(op.name, op.hasPreview);
    claim(ids.input, { kind: "operation", name: op.name, slot: "input" });
    claim(ids.output, { kind: "operation", name: op.name, slot: "output" });
    if (ids.preview) claim(ids.preview, { kind: "operation", name: op.name, slot: "preview" });
  }
  return { owners, clashes };
}

/** The prefix of every environment variable a generated package reads: `BILLING` in `BILLING_JOURNAL`. */
export function envPrefix(contract: string): string {
  return contract.toUpperCase().replace(/[^A-Z0-9]/g, "_");
}

/**
 * The environment variable holding the bearer token a generated MCP server's HTTP endpoint requires
 * (`BILLING_MCP_BEARER`). Same prefix as the SDK's `<CONTRACT>_JOURNAL`, so every variable a
 * generated package reads starts alike.
 */
export function mcpBearerEnv(contract: string): string {
  return `${envPrefix(contract)}_MCP_BEARER`;
}

/** The SDK journal's environment variable: a SQLite file, or (also as `<it>_URL`) a postgres:// URL. */
export function journalEnv(contract: string): string {
  return `${envPrefix(contract)}_JOURNAL`;
}

/**
 * The environment variable the CLI and the MCP server read the base URL from: the contract's
 * `baseUrlEnv`, else `<CONTRACT>_BASE_URL` (`BILLING_BASE_URL`), so every deployment is reachable.
 */
export function baseUrlEnvOf(contract: string, declared: string | null): string {
  return declared ?? `${envPrefix(contract)}_BASE_URL`;
}

/** The environment variable naming a skeleton server's SQLite file (`INCIDENTS_MCP_DATABASE`). */
export function mcpDatabaseEnv(contract: string): string {
  return `${envPrefix(contract)}_MCP_DATABASE`;
}

/** The bin of a generated HTTP server skeleton (`incidents-server`). */
export function serverBinName(contract: string): string {
  return `${contract}-server`;
}

/** Where a generated HTTP server skeleton keeps its records: a SQLite file or a postgres:// URL (`INCIDENTS_SERVER_DATABASE`). */
export function serverDatabaseEnv(contract: string): string {
  return `${envPrefix(contract)}_SERVER_DATABASE`;
}

/** The token callers of a generated HTTP server skeleton must present (`INCIDENTS_SERVER_TOKEN`). */
export function serverTokenEnv(contract: string): string {
  return `${envPrefix(contract)}_SERVER_TOKEN`;
}
