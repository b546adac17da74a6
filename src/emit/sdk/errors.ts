import type { AuthModel, ContractModel } from "../../model/types.js";
import { commentText, escapeInvisible, generatedHeader, literal } from "../shared/literals.js";
import { pascalCase, propertyKey, typeIdentifier, TYPES_ROOT } from "../../model/naming.js";
import { defineOwn, isSchemaObject, type SchemaObject } from "../../contract/schema-walk.js";
import { declarationCompiler } from "./type-declarations.js";
import { prepareDeclaration } from "./types.js";
import { errorDetailsSchemaName } from "./schemas.js";

/**
 * `ContractInfo.auth` (src/runtime/credentials.ts ContractAuth) as TypeScript: a single form as it
 * always was; named schemes as an array (names are data, never object keys) and the alternatives.
 */
export function runtimeAuth(auth: AuthModel): string {
  switch (auth.form) {
    case "none":
      return `{ type: "none" }`;
    case "bearer":
    case "apiKey": {
      const s = auth.schemes[0]!;
      if (s.type === "bearer") return `{ type: "bearer", tokenEnv: ${literal(s.tokenEnv)} }`;
      if (s.type === "apiKey") return `{ type: "apiKey", header: ${literal(s.paramName)}, tokenEnv: ${literal(s.tokenEnv)} }`;
      throw new Error("a single auth form is bearer or apiKey");
    }
    default: {
      const schemes = auth.schemes.map((s) =>
        s.type === "bearer"
          ? `{ name: ${literal(s.name)}, type: "bearer", tokenEnv: ${literal(s.tokenEnv)} }`
          : s.type === "basic"
            ? `{ name: ${literal(s.name)}, type: "basic", usernameEnv: ${literal(s.usernameEnv)}, passwordEnv: ${literal(s.passwordEnv)} }`
            : `{ name: ${literal(s.name)}, type: "apiKey", in: ${literal(s.in)}, param: ${literal(s.paramName)}, tokenEnv: ${literal(s.tokenEnv)} }`,
      );
      return `{
    type: "schemes",
    schemes: [
${schemes.map((s) => `      ${s},
`).join("")}    ],
    require: ${literal(auth.require)},
  }`;
    }
  }
}

/**
 * `sdk/contract.ts`: the package-wide contract facts — transport, auth and the error taxonomy (with the
 * field each code names and the stored schema of its details). The operation table
 * (`sdk/operations.json`) holds the per-operation facts; the CLI, MCP server, host and contract tests read both.
 */
export function emitContractInfo(model: ContractModel): string {
  const t = model.transport;
  const auth = runtimeAuth(t.auth);
  const taxonomy = model.errors
    .map((e) => {
      const doc = e.description ? `  /** ${commentText(e.description).replace(/\n/g, " ")} */\n` : "";
      const extra = [
        ...(e.wire !== null ? [`wire: ${literal(e.wire)}`] : []),
        ...(e.field !== null ? [`field: ${literal(e.field)}`] : []),
        ...(e.details ? [`detailsSchema: ${literal(errorDetailsSchemaName(e.code))}`] : []),
      ];
      return `${doc}  ${propertyKey(e.code)}: { class: ${literal(e.class)}, action: ${literal(e.action)}, http: ${e.httpStatus}${extra.map((x) => `, ${x}`).join("")} },`;
    })
    .join("\n");
  // contractgen's envelope is the runtime's default: a contract that declares no other format says nothing.
  const f = t.errorFormat;
  const errorFormat =
    f.style === "envelope"
      ? ""
      : `\n  errorFormat: { style: ${literal(f.style)}, code: ${literal(f.code)}, message: ${literal(f.message)}, field: ${literal(f.field)} },`;
  return `${generatedHeader(model.name, model.version)}import type { ContractInfo, TaxonomyEntry } from "./runtime/index.js";

/** Every error code the platform may answer with: its class, its one recovery action and HTTP status. */
export const TAXONOMY = {
${taxonomy}
} as const satisfies Record<string, TaxonomyEntry>;

export type ErrorCode = keyof typeof TAXONOMY;

export const CONTRACT: ContractInfo = {
  name: ${literal(model.name)},
  version: ${literal(model.version)},
  baseUrl: ${literal(t.baseUrl)},
  baseUrlEnv: ${literal(t.baseUrlEnv)},
  timeoutMs: ${t.timeoutMs},
  auth: ${auth},
  taxonomy: TAXONOMY,${errorFormat}
};
`;
}

/**
 * `sdk/errors.ts`: the typed side of the error taxonomy — one `<Code>ErrorDetails` type per code that
 * declares `details`, the code → details map, and `isContractError`, a guard that narrows an error to
 * a union discriminated by `code`, so `details` is typed per code where it is declared.
 *
 * Details schemas go through the same preparation as `types.ts` (prepareDeclaration: 2020-12
 * keywords translated, descriptions made comment-safe, keys named like Object.prototype members
 * hidden from the generator): a shared type they reference is the one `types.ts` declares, imported
 * as `$Types`; anything else they bundle is declared here under a name of its own.
 */
export async function emitErrorTypes(model: ContractModel): Promise<string> {
  const taken = new Set(["ErrorDetailsByCode", "ContractErrorOf", "AnyContractError", TYPES_ROOT]);
  const unique = (base: string) => {
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}${n}`;
    taken.add(id);
    return id;
  };
  const named: Array<[code: string, type: string]> = [];
  // Only the envelope carries `details` as declared; under another error format the SDK's details is
  // the whole error body as sent, which no declaration describes: typed unknown.
  const typedDetails = model.transport.errorFormat.style === "envelope";
  for (const e of model.errors) if (e.details && typedDetails) named.push([e.code, unique(typeIdentifier(`${pascalCase(e.code)}ErrorDetails`))]);
  // Bundled $defs key → the type it names: a shared type's from types.ts, else one declared here.
  const shared = new Map(model.types.map((t) => [t.name, t.identifier]));
  const local = new Map<string, string>();
  let importsTypes = false;
  const identifierOf = (key: string): string => {
    const sharedId = shared.get(key);
    if (sharedId !== undefined) {
      importsTypes = true;
      return `$Types.${sharedId}`;
    }
    let id = local.get(key);
    if (id === undefined) local.set(key, (id = unique(`${typeIdentifier(key)}Def`)));
    return id;
  };
  const compiler = declarationCompiler(0);
  const declared = new Set<string>();
  const expected: string[] = [];
  const aliases: string[] = [];
  const define = (identifier: string, schema: unknown) => {
    if (declared.has(identifier)) return;
    declared.add(identifier);
    expected.push(identifier);
    compiler.add(identifier, prepareDeclaration(schema, identifier, identifierOf));
  };
  const byCode = new Map(named);
  for (const e of model.errors) {
    const type = byCode.get(e.code);
    if (type === undefined || !e.details) continue;
    const schema = e.details.schema;
    if (!isSchemaObject(schema)) {
      // `details: true` admits anything, `false` nothing.
      aliases.push(`export type ${type} = ${schema === false ? "never" : "unknown"};`);
      continue;
    }
    // The definitions it bundles that types.ts does not declare.
    if (isSchemaObject(schema.$defs)) {
      for (const [key, def] of Object.entries(schema.$defs)) if (!shared.has(key)) define(identifierOf(key), def);
    }
    const body: SchemaObject = {};
    for (const [k, v] of Object.entries(schema)) if (k !== "$defs") defineOwn(body, k, v);
    // A bare reference is an alias of the type it names, not a structural copy.
    const keys = Object.keys(body);
    if (keys.length === 1 && typeof body.$ref === "string" && body.$ref.startsWith("#/$defs/")) aliases.push(`export type ${type} = ${identifierOf(body.$ref.slice("#/$defs/".length))};`);
    else define(type, body);
  }
  const source = (await compiler.finish()).trim();
  const found = new Set([...source.matchAll(/^export (?:interface|type) ([A-Za-z0-9_$]+)/gm)].map((m) => m[1]!));
  const missing = expected.filter((id) => !found.has(id));
  // ErrorDetailsByCode names these; a generator that renamed one would make the package fail to compile.
  if (missing.length > 0) throw new Error(`json-schema-to-typescript did not declare ${missing.join(", ")} under the names errors.ts gave them`);
  const declarations = escapeInvisible([source, ...aliases].filter((p) => p !== "").join("\n"));
  const map = named.map(([code, type]) => `  ${propertyKey(code)}: ${type};`).join("\n");
  return `${generatedHeader(model.name, model.version)}import { ContractError as $ContractError } from "./runtime/index.js";
import { TAXONOMY as $TAXONOMY, type ErrorCode as $ErrorCode } from "./contract.js";
${importsTypes ? 'import type * as $Types from "./types.js";\n' : ""}${declarations ? `\n${declarations}\n` : ""}
/** The \`details\` of every error code that declares them (\`errors.<CODE>.details\` in the contract). */
export interface ErrorDetailsByCode {${map ? `\n${map}\n` : ""}}

/** A contract error of one code: \`details\` typed by its declaration (null when the platform sent none). */
export type ContractErrorOf<C extends $ErrorCode> = $ContractError & {
  readonly code: C;
  readonly details: (C extends keyof ErrorDetailsByCode ? ErrorDetailsByCode[C] : unknown) | null;
};

/** Any error of this contract's taxonomy, discriminated by \`code\`. */
export type AnyContractError<C extends $ErrorCode = $ErrorCode> = { [K in C]: ContractErrorOf<K> }[C];

/**
 * Whether \`error\` is an error of this contract's taxonomy (of one of \`codes\`, when given). Narrows it
 * to a union discriminated by \`code\`: switch on \`error.code\` and \`error.details\` has that code's type.
 */
export function isContractError<C extends $ErrorCode = $ErrorCode>(error: unknown, ...codes: C[]): error is AnyContractError<C> {
  if (!(error instanceof $ContractError) || !Object.hasOwn($TAXONOMY, error.code)) return false;
  return codes.length === 0 || (codes as string[]).includes(error.code);
}
`;
}
