import type { ContractModel } from "../../model/types.js";
import { pascalCase } from "../../model/naming.js";

/** Class name of the generated client: `BillingClient`. */
export function clientClassName(model: ContractModel): string {
  return `${pascalCase(model.name)}Client`;
}

/** Members of the client class that an operation method must not shadow. */
const RESERVED_MEMBERS = new Set(["constructor", "core", "close"]);

export interface ClientMethodNames {
  readonly call: string;
  readonly preview: string | null;
  readonly all: string | null;
}

/** Method names of each operation on the generated client, unique across the class. */
export function clientMethodNames(model: ContractModel): Map<string, ClientMethodNames> {
  const taken = new Set(RESERVED_MEMBERS);
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
