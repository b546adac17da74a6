import type { ContractModel } from "../../model/types.js";
import { CLIENT_MEMBERS, pascalCase } from "../../model/naming.js";

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
