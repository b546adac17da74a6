import type { TreeValue } from "../tree.js";

/* Shared by the webhook rules (not a rule: files starting with "_" are not registered). */

/** Whether a webhook's tree node says it was deprecated. */
export function wasDeprecated(node: TreeValue | undefined): boolean {
  return node !== null && typeof node === "object" && (node as { deprecated?: TreeValue }).deprecated === true;
}
