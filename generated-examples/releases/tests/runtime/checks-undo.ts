/**
 * Reversibility (`effects.undo`): doing then undoing restores the observed state. The undo call is
 * built from the contract where it can be: the target read back through `target.readWith` before the
 * change gives the previous values of the fields the call set, and after it the current values the
 * undo's preconditions expect; the fixture's undoInput is the fallback. Same conventions as checks.ts.
 */
import { type CheckResult, execute, noSample, readTarget, resolve, sample } from "./checks.js";
import { enablerWording, type Exchange, type Harness, type Input, type OperationSpec, violation, sampleName } from "./harness.js";

type Record_ = Record<string, unknown>;

/** Deeper state than this is compared as a whole (the walk is bounded). */
const MAX_DEPTH = 32;

function inputSchema(op: OperationSpec): { properties: string[]; required: Set<string> } {
  const s = resolve(op.input, op.input) ?? {};
  const properties = s.properties && typeof s.properties === "object" ? Object.keys(s.properties) : [];
  return { properties, required: new Set(Array.isArray(s.required) ? (s.required as string[]) : []) };
}

/**
 * The undo's input from the contract: its expectations take the target's current values (after the
 * change); a field the change was called with takes the target's previous value when the target has
 * that property (what the change overwrote), else the same value (an identifier). undefined when a
 * required field stays unknown.
 */
export function deriveUndoInput(op: OperationSpec, undo: OperationSpec, params: Input, before: Record_, after: Record_): Input | undefined {
  const expectations = op.undo?.expectations ?? [];
  const { properties, required } = inputSchema(undo);
  const skip = new Set([undo.idempotency?.keyField, undo.preview?.dryRunField, undo.preview?.confirmTokenField]);
  const input: Input = {};
  for (const f of properties) {
    if (skip.has(f)) continue;
    const expectation = expectations.find((e) => e.field === f);
    if (expectation) {
      if (Object.hasOwn(after, expectation.compares)) input[f] = after[expectation.compares];
    } else if (Object.hasOwn(params, f)) input[f] = Object.hasOwn(before, f) ? before[f] : params[f];
  }
  return [...required].every((f) => Object.hasOwn(input, f)) ? input : undefined;
}

function sortable(v: unknown): v is number | string {
  return typeof v === "number" || typeof v === "string";
}

/**
 * Paths whose value the undo did not bring back. A value that moved forward at each of the two changes
 * (a revision counter, an update time) is bookkeeping, not state the undo could restore; `exact`
 * top-level properties (the ones the change was asked to set) must come back exactly all the same.
 */
function unrestored(before: unknown, done: unknown, undone: unknown, exact: ReadonlySet<string>, path = "", depth = 0, out: string[] = []): string[] {
  const isContainer = (v: unknown) => v !== null && typeof v === "object";
  if (depth < MAX_DEPTH && isContainer(before) && isContainer(undone) && Array.isArray(before) === Array.isArray(undone)) {
    const b = before as Record_;
    const d = (isContainer(done) ? done : {}) as Record_;
    const u = undone as Record_;
    const keys = new Set([...Object.keys(b), ...Object.keys(u)]);
    for (const k of keys) unrestored(Object.hasOwn(b, k) ? b[k] : undefined, Object.hasOwn(d, k) ? d[k] : undefined, Object.hasOwn(u, k) ? u[k] : undefined, exact, `${path}/${k}`, depth + 1, out);
    return out;
  }
  const [b, d, u] = [before, done, undone].map((v) => JSON.stringify(v));
  if (u === b) return out;
  const exactHere = depth === 1 && exact.has(path.slice(1));
  const movedForward = sortable(before) && sortable(done) && sortable(undone) && typeof before === typeof done && typeof done === typeof undone && before < done && done < undone;
  if (!exactHere && movedForward) return out;
  out.push(path || "/");
  return out;
}

/** Doing `op` with the sample input, then its undo, leaves the observed state (and the target read back) as it was. */
export async function doThenUndo(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const spec = op.undo!;
  const undo = h.operation(spec.operation);
  const read = spec.readWith ? h.operation(spec.readWith) : null;
  if (!h.fixture.observe && !read) {
    const worded = enablerWording({ kind: "observe" });
    if (worded !== undefined) return { skip: `nothing shows the state: no snapshot and the contract no target.readWith for ${op.id} — ${worded}` };
    return { skip: `nothing shows the state: the fixture has no observe() and the contract no target.readWith for ${op.id} — add observe() (a snapshot of the state operations change) to the fixture` };
  }
  await h.fixture.reset();
  const params = sample(h, op);
  if (!params) return noSample(op);
  const s0 = await h.snapshot();
  const r0 = read ? await readTarget(h, read, params) : null;
  const done = await execute(h, op, params);
  const output = h.expectSuccess(op, done);
  const s1 = await h.snapshot();
  const r1 = read ? await readTarget(h, read, params) : null;
  if (s0 === s1 && JSON.stringify(r0) === JSON.stringify(r1)) return { skip: `${sampleName(op.id, 0)} changes nothing from the reset state: nothing to undo — give parameters that change the target` };
  const undoInput = (r0 && r1 ? deriveUndoInput(op, undo, params, r0, r1) : undefined) ?? h.fixture.undoInput?.(op.id, { ...params }, output);
  if (!undoInput) {
    const worded = enablerWording({ kind: "undo", operation: op.id });
    if (worded !== undefined) return { skip: `the ${undo.id} call that undoes ${op.id} cannot be derived from the contract (no target read back) — ${worded}` };
    const member = h.fixture.undoInput ? `fixture.undoInput(${JSON.stringify(op.id)}, input, output) returned nothing` : "the fixture has no undoInput(operation, input, output)";
    return { skip: `the ${undo.id} call that undoes ${op.id} cannot be derived from the contract (no target read back) and ${member} — return the input of the undo call` };
  }
  // Time-of-change values must visibly move at the undo, or they would look "not restored".
  await new Promise((r) => setTimeout(r, 5));
  const undone = await execute(h, undo, undoInput);
  h.expectSuccess(undo, undone, undo.output, `the undo (${undo.id})`);
  const s2 = await h.snapshot();
  const exact = new Set(Object.keys(params).filter((f) => r0 !== null && Object.hasOwn(r0, f)));
  const shown = (what: string, paths: string[], exchange: Exchange) =>
    violation(`${op.id}: ${undo.id} with ${JSON.stringify(undoInput)} must undo it, but ${what} not restored: ${paths.slice(0, 5).join(", ")}`, exchange);
  if (read && r0) {
    const r2 = await readTarget(h, read, params);
    const paths = unrestored(r0, r1, r2, exact);
    if (paths.length > 0) throw shown(`the target read with ${read.id} is`, paths, undone);
  }
  if (s0 !== undefined && s1 !== undefined && s2 !== undefined) {
    const paths = unrestored(JSON.parse(s0), JSON.parse(s1), JSON.parse(s2), new Set());
    if (paths.length > 0) throw shown("the observed state is", paths, undone);
  }
}
