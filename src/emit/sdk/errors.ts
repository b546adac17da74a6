import type { ContractModel } from "../../model/types.js";
import { commentText, generatedHeader, literal } from "../shared/literals.js";
import { pascalCase, propertyKey } from "../../model/naming.js";
import { compile } from "json-schema-to-typescript";
import { isSchemaObject } from "../../spec/schema-walk.js";

/** `sdk/contract.ts`: the contract facts the runtime needs — transport, auth and the error taxonomy. */
export function emitContractInfo(model: ContractModel): string {
  const t = model.transport;
  const auth =
    t.auth.type === "bearer"
      ? `{ type: "bearer", tokenEnv: ${literal(t.auth.tokenEnv)} }`
      : t.auth.type === "apiKey"
        ? `{ type: "apiKey", header: ${literal(t.auth.header)}, tokenEnv: ${literal(t.auth.tokenEnv)} }`
        : `{ type: "none" }`;
  const taxonomy = model.errors
    .map((e) => {
      const doc = e.description ? `  /** ${commentText(e.description).replace(/\n/g, " ")} */\n` : "";
      return `${doc}  ${propertyKey(e.code)}: { class: ${literal(e.class)}, action: ${literal(e.action)}, http: ${e.httpStatus} },`;
    })
    .join("\n");
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
  taxonomy: TAXONOMY,
};
`;
}

/**
 * `sdk/errors.ts`: the typed side of the error taxonomy — one `<Code>ErrorDetails` type per code that
 * declares `details`, the code → details map, and `isContractError`, a guard that narrows an error to
 * a union discriminated by `code`, so `details` is typed per code where it is declared.
 */
export async function emitErrorTypes(model: ContractModel): Promise<string> {
  const taken = new Set(["ErrorDetailsByCode", "ContractErrorOf", "AnyContractError"]);
  const named: Array<[code: string, type: string]> = [];
  const defs: Record<string, unknown> = {};
  for (const e of model.errors) {
    if (!e.details) continue;
    let type = `${pascalCase(e.code)}ErrorDetails`;
    for (let n = 2; taken.has(type); n++) type = `${pascalCase(e.code)}ErrorDetails${n}`;
    taken.add(type);
    named.push([e.code, type]);
    const schema = e.details.schema;
    if (isSchemaObject(schema)) {
      // Shared types a details schema references come along (bundled into its $defs).
      const { $defs, ...rest } = schema;
      if (isSchemaObject($defs)) for (const [name, def] of Object.entries($defs)) if (!(name in defs)) defs[name] = isSchemaObject(def) ? { ...def, title: name } : def;
      defs[type] = { ...rest, title: type };
    } else {
      defs[type] = schema;
    }
  }
  let declarations = "";
  if (named.length > 0) {
    const root = { title: "ContractgenErrorsRoot", type: "object", additionalProperties: false, properties: {}, $defs: defs };
    const source = await compile(root as never, "ContractgenErrorsRoot", {
      bannerComment: "",
      unreachableDefinitions: true,
      additionalProperties: false,
      format: true,
      strictIndexSignatures: true,
      declareExternallyReferenced: true,
      $refOptions: { resolve: { external: false } } as never,
    });
    declarations = source
      .replace("export interface ContractgenErrorsRoot {}\n", "")
      .replace(/(\n \*)?\n \* This (interface|type) was referenced by `[^`]*`'s JSON-Schema\n \* via the `definition` "[^"]*"\./g, "")
      .replace(/\/\*\*\n \*\/\n/g, "")
      .trim();
  }
  const map = named.map(([code, type]) => `  ${propertyKey(code)}: ${type};`).join("\n");
  return `${generatedHeader(model.name, model.version)}import { ContractError as $ContractError } from "./runtime/index.js";
import { TAXONOMY as $TAXONOMY, type ErrorCode as $ErrorCode } from "./contract.js";
${declarations ? `\n${declarations}\n` : ""}
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
