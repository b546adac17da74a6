/**
 * The client methods code mode bridges (issue 43), named by the naming authority as the SDK names
 * them: each operation's call, its preview when it has one (which mints the confirm token the call
 * then carries), and its bounded traversal when it pages.
 */
import type { CodeMethod } from "../../code-runtime/execute.js";
import { clientMethodNames } from "../../model/naming.js";
import type { ContractModel } from "../../model/types.js";

export function codeMethods(model: ContractModel): CodeMethod[] {
  const names = clientMethodNames(model);
  return model.operations.flatMap((op) => {
    const n = names.get(op.names.id)!;
    const confirmTokenField = op.preview?.confirmTokenField ?? null;
    const methods: CodeMethod[] = [{ name: n.call, kind: "call", operation: op.names.id, confirmTokenField }];
    if (n.preview) methods.push({ name: n.preview, kind: "preview", operation: op.names.id, confirmTokenField });
    if (n.all) methods.push({ name: n.all, kind: "all", operation: op.names.id, confirmTokenField: null });
    return methods;
  });
}
