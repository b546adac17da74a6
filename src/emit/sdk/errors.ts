import type { ContractModel } from "../../model/types.js";
import { commentText, generatedHeader, literal } from "../shared/literals.js";
import { propertyKey } from "../../model/naming.js";

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
