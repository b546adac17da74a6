/**
 * The naming authority: every name contractgen derives from a contract — identifiers, SDK types and
 * methods, CLI commands and flags, MCP tools and servers, bins, environment variables — is decided
 * here, once. The model, the emitters and the semantic diff read these functions; none derives a
 * name of its own. A contract name is split into words once, then joined per target convention, so
 * `refund_invoice`, `refundInvoice` and `Refund-Invoice` all map to the same words — which is exactly
 * how collisions are detected.
 */
import { createHash } from "node:crypto";
import { isSchemaObject, type SchemaObject } from "../contract/schema-walk.js";
import type { ContractModel, OperationModel } from "./types.js";

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

/** The generated type of a webhook's payload: `OrderPaidWebhook` for `order.paid`. */
export function webhookTypeIdentifier(webhook: string): string {
  return `${typeIdentifier(pascalCase(webhook))}Webhook`;
}

/** Who asked for a generated type name: a shared type, one slot of an operation, or a webhook's payload. */
export type TypeNameOwner =
  | { readonly kind: "type"; readonly name: string }
  | { readonly kind: "operation"; readonly name: string; readonly slot: "input" | "output" | "preview" }
  | { readonly kind: "webhook"; readonly name: string };

/**
 * The naming authority for `types.ts`: every shared type, every operation input, output and
 * preview, and every webhook payload gets its identifier here, in document order (shared types first). Two owners of one
 * identifier are returned as clashes (`validate` reports them); `owners` keeps the first owner.
 */
export function assignTypeNames(types: readonly string[], operations: ReadonlyArray<{ name: string; hasPreview: boolean }>, webhooks: readonly string[] = []): {
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
  for (const name of webhooks) claim(webhookTypeIdentifier(name), { kind: "webhook", name });
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

// ---------------------------------------------------------------------------------------------
// Names of the generated artefacts. Emitters and the semantic diff read them here: a reviewer of
// the diff never needs an emitter to know what a command, flag, method or tool is called.

/** Class name of the generated client: `BillingClient`. */
export function clientClassName(model: ContractModel): string {
  return `${pascalCase(model.name)}Client`;
}

export interface ClientMethodNames {
  readonly call: string;
  readonly preview: string | null;
  readonly all: string | null;
}

/** Method names of each operation on the generated client, unique across the class. */
export function clientMethodNames(model: ContractModel): Map<string, ClientMethodNames> {
  // validate rejects operations named like a member; derived names (previewX, xAll) still step aside.
  const taken = new Set(CLIENT_MEMBERS);
  const claim = (wanted: string) => {
    let name = wanted;
    while (taken.has(name)) name = `${name}Operation`;
    taken.add(name);
    return name;
  };
  const out = new Map<string, ClientMethodNames>();
  for (const op of model.operations) out.set(op.names.id, { call: claim(op.names.camel), preview: null, all: null });
  for (const op of model.operations) {
    const names = out.get(op.names.id)!;
    out.set(op.names.id, {
      ...names,
      preview: op.preview ? claim(`preview${op.names.pascal}`) : null,
      all: op.pagination ? claim(`${op.names.camel}All`) : null,
    });
  }
  return out;
}

/**
 * How one client method's `input` parameter is derived from the operation's input type
 * (`T.<Op>Input`): fields it does not take, fields it takes optionally whatever the type says, and,
 * for the execution of a previewable operation, [dry-run field, confirm-token field] (the token
 * required, the switch only `false`: runtime WithConfirmation).
 */
export interface MethodInputShape {
  readonly omit: readonly string[];
  readonly optional: readonly string[];
  readonly confirm: readonly [dryRun: string, confirmToken: string] | null;
}

/**
 * The input shape of each client method of an operation (see clientMethodNames): the call (the
 * operation key optional: the client supplies one), the preview (no key, dry-run switch or token:
 * it executes nothing) and the traversal (the input as declared). The SDK emitter prints these and
 * the diff compares them (sdk-* rules), so the two cannot drift.
 */
export function clientMethodInputs(op: OperationModel): { call: MethodInputShape; preview: MethodInputShape | null; all: MethodInputShape | null } {
  const key = op.idempotency && op.effects.idempotent === "key" ? [op.idempotency.keyField] : [];
  const p = op.preview;
  return {
    call: { omit: [], optional: key, confirm: p ? [p.dryRunField, p.confirmTokenField] : null },
    preview: p ? { omit: [p.dryRunField, p.confirmTokenField, ...key], optional: [], confirm: null } : null,
    all: op.pagination ? { omit: [], optional: [], confirm: null } : null,
  };
}

/** The generated CLI's command name: `billing`. */
export function cliName(model: ContractModel): string {
  return model.name;
}

/** The generated MCP server's name (its bin and its `serverInfo.name`): `billing-mcp`. */
export function mcpName(model: ContractModel): string {
  return `${model.name}-mcp`;
}

/**
 * Flags every generated CLI defines itself — global ones (commander's help and version included;
 * commander reads them after a command too) and the behaviour flags of commands — whether or not a
 * given command uses them. An input field never takes one of these.
 */
export const RESERVED_FLAGS: ReadonlySet<string> = new Set([
  "help", "version", "base-url", "journal", "output", "max-attempts", "timeout",
  "input", "operation-key", "dry-run", "confirm", "fields", "all", "max-pages", "max-items",
]);

/** Commands every generated CLI defines itself: commander's implicit `help`, and `completion`. */
export const RESERVED_COMMANDS: ReadonlySet<string> = new Set(["help", "completion"]);

/**
 * A flag's camelCase, commander's default key for its value. The CLI runtime keys a field's value by
 * the flag itself (FieldOption), but flags that read alike in camelCase stay distinct so generated
 * flag names do not change.
 */
function attributeKey(flag: string): string {
  return flag.split("-").reduce((out, word) => out + word.charAt(0).toUpperCase() + word.slice(1));
}

/**
 * Unique names, deterministically: every wanted name that is neither reserved nor taken is kept (in
 * order); the others become `<prefix><name>`, then `<prefix><name>-2`, `-3`… until free.
 */
function uniqueNames(wanted: readonly string[], reserved: ReadonlySet<string>, prefix: (name: string) => string, keys: (name: string) => string[]): string[] {
  const taken = new Set<string>([...reserved].flatMap(keys));
  const free = (name: string) => !reserved.has(name) && keys(name).every((k) => !taken.has(k));
  const claim = (name: string) => {
    for (const k of keys(name)) taken.add(k);
    return name;
  };
  const out: Array<string | undefined> = wanted.map((name) => (free(name) ? claim(name) : undefined));
  return out.map((name, i) => {
    if (name !== undefined) return name;
    const base = prefix(wanted[i]!);
    let candidate = base;
    for (let n = 2; !free(candidate); n++) candidate = `${base}-${n}`;
    return claim(candidate);
  });
}

/**
 * The command of every operation, by operation id: its CLI name, unless the CLI reserves it (or an
 * earlier command has it), then `<name>-operation` (numbered if needed). Renamed commands say so in --help.
 */
export function commandNames(model: ContractModel): Map<string, string> {
  const names = uniqueNames(model.operations.map((op) => op.names.kebab), RESERVED_COMMANDS, (n) => `${n}-operation`, (n) => [n]);
  return new Map(model.operations.map((op, i) => [op.names.id, names[i]!]));
}

/** Follow `#/$defs/…` references inside a bundled schema. */
export function resolveLocal(node: unknown, root: unknown): SchemaObject | undefined {
  let current = node;
  for (let hops = 0; hops < 32 && isSchemaObject(current) && typeof current.$ref === "string"; hops++) {
    const name = current.$ref.startsWith("#/$defs/") ? current.$ref.slice("#/$defs/".length) : undefined;
    const defs = isSchemaObject(root) ? root.$defs : undefined;
    current = name !== undefined && isSchemaObject(defs) && Object.hasOwn(defs, name) ? defs[name] : undefined;
  }
  return isSchemaObject(current) ? current : undefined;
}

/** The one scalar JSON type a schema admits (null aside; an enum of one kind counts), or undefined. */
export function scalarType(schema: SchemaObject): "string" | "integer" | "number" | "boolean" | undefined {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t) => t !== "null" && t !== undefined);
  if (types.length === 0 && Array.isArray(schema.enum)) {
    const kinds = new Set(schema.enum.map((v) => typeof v));
    if (kinds.size === 1) {
      const kind = [...kinds][0];
      if (kind === "string" || kind === "boolean") return kind;
      if (kind === "number") return schema.enum.every((v) => Number.isInteger(v)) ? "integer" : "number";
    }
  }
  if (types.length !== 1) return undefined;
  const t = types[0];
  return t === "string" || t === "integer" || t === "number" || t === "boolean" ? t : undefined;
}

const SCALAR_ORDER = ["boolean", "integer", "number", "string"] as const;

/**
 * The scalar types a field may take when it may take several (`type: [integer, string]`, or an
 * anyOf/oneOf whose members are each one scalar type; a `null` member aside), in the order a flag's
 * text is tried: boolean, integer, number, string. Undefined for anything else.
 */
export function scalarAlternatives(schema: SchemaObject, root: unknown): Array<"string" | "integer" | "number" | "boolean"> | undefined {
  const found = new Set<string>();
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== "null");
    if (types.length < 2 || schema.anyOf !== undefined || schema.oneOf !== undefined) return undefined;
    for (const t of types) found.add(String(t));
  } else {
    const members = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
    if (members === undefined || schema.type !== undefined || schema.properties !== undefined) return undefined;
    for (const member of members) {
      const resolved = resolveLocal(member, root);
      if (resolved?.type === "null" && Object.keys(resolved).length === 1) continue;
      const scalar = resolved === undefined || resolved.anyOf !== undefined || resolved.oneOf !== undefined ? undefined : scalarType(resolved);
      if (scalar === undefined) return undefined;
      found.add(scalar);
    }
  }
  // A type list of one is scalarType's; an anyOf/oneOf of one scalar member is that scalar.
  if (found.size < (Array.isArray(schema.type) ? 2 : 1) || [...found].some((t) => !(SCALAR_ORDER as readonly string[]).includes(t))) return undefined;
  return SCALAR_ORDER.filter((t) => found.has(t));
}

/** One input field's CLI flag: `schema` is the field's (resolved) schema, for the CLI emitter's help and parsing. */
export interface CliFlagName {
  readonly field: string;
  readonly flag: string;
  readonly schema: SchemaObject;
}

/**
 * The CLI flags of an operation, in input-property order: one per scalar or scalar-array input field
 * or one of several scalar types (behaviour fields — key, dry-run, confirm token, projection — have flags of their own), named after
 * the field in kebab case; a reserved or taken name gets `set-`, then a number. Fields without a flag
 * (objects, mixed types) are `inputOnly`: they go through --input.
 */
export function cliFlagNames(op: OperationModel): { flags: CliFlagName[]; inputOnly: string[] } {
  const root = op.input.schema;
  const input = resolveLocal(root, root);
  const properties = isSchemaObject(input?.properties) ? input!.properties : {};
  const behaviour = new Set([op.idempotency?.keyField, op.preview?.dryRunField, op.preview?.confirmTokenField, op.projection?.field].filter((f): f is string => f !== undefined));
  const fields = Object.keys(properties).filter((field) => !behaviour.has(field));
  // Unique flags (and commander keys) by construction, over every field (flag or not), so adding a
  // flag to one field never renames another's.
  const names = uniqueNames(fields.map((field) => kebabCase(field) || "field"), RESERVED_FLAGS, (n) => `set-${n}`, (n) => [`--${n}`, attributeKey(n)]);
  const flags: CliFlagName[] = [];
  const inputOnly: string[] = [];
  fields.forEach((field, i) => {
    const schema = resolveLocal(properties[field], root);
    const items = schema?.type === "array" ? resolveLocal(schema.items, root) : undefined;
    if (schema && (scalarType(schema) || scalarAlternatives(schema, root) || (items && scalarType(items)))) flags.push({ field, flag: names[i]!, schema });
    else inputOnly.push(field);
  });
  return { flags, inputOnly };
}

/** Longest handler file stem: far under every file system's name limit, with room for a suffix. */
const MAX_HANDLER_STEM = 80;

/**
 * The handler file of an operation, relative to the package: `mcp/handlers/<kebab-name>.ts`. Operation
 * names are letters, digits and `_` (the contract schema), so the kebab form has only [a-z0-9-]; a
 * very long one is cut and keeps a hash of the full name, so it stays unique.
 */
export function handlerFile(op: OperationModel): string {
  const stem = op.names.kebab || "operation";
  const safe = stem.length <= MAX_HANDLER_STEM ? stem : `${stem.slice(0, MAX_HANDLER_STEM - 9)}-${createHash("sha256").update(op.names.id).digest("hex").slice(0, 8)}`;
  return `mcp/handlers/${safe}.ts`;
}
