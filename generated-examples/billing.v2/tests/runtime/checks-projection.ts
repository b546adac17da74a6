/**
 * Projection (`projection`): a selection returns exactly the selected and identity properties of each
 * record, with the values an unprojected call returns; no selection returns what selecting every
 * selectable property returns. Same conventions as checks.ts.
 */
import { type CheckResult, execute, noSample, sample } from "./checks.js";
import { type Exchange, type Harness, type Input, type OperationSpec, violation, sampleName } from "./harness.js";

type Projection = NonNullable<OperationSpec["projection"]>;
type Record_ = Record<string, unknown>;

/** The selection the check asks for: the first two selectable properties that are not identity (deterministic). */
export function projectionSelection(projection: Projection): string[] {
  return projection.selectable.filter((f) => !projection.identity.includes(f)).slice(0, 2);
}

/** One call from the reset state (a mutation executes with a fresh key and, when previewable, a confirm token). */
async function callFresh(h: Harness, op: OperationSpec, input: Input): Promise<{ exchange: Exchange; body: Record_ }> {
  await h.fixture.reset();
  const exchange = op.kind === "read" ? await h.call(op, input) : await execute(h, op, input);
  return { exchange, body: h.expectSuccess(op, exchange) };
}

/** The projected records of a response: a page's items, or the response itself. */
function recordsOf(op: OperationSpec, exchange: Exchange, body: Record_): Record_[] {
  if (!op.pagination) return [body];
  const items = op.pagination.itemsField === null ? (body as unknown) : body[op.pagination.itemsField];
  if (!Array.isArray(items)) throw violation(`${op.id}: a page must hold its items in ${op.pagination.itemsField ?? "the output array"}`, exchange);
  return items.filter((r): r is Record_ => r !== null && typeof r === "object" && !Array.isArray(r));
}

function identityOf(projection: Projection, record: Record_): string {
  return JSON.stringify(projection.identity.map((k) => (Object.hasOwn(record, k) ? record[k] : null)));
}

/** Per property, so key order does not matter. */
function sameRecord(a: Record_, b: Record_): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

function pick(record: Record_, keep: ReadonlySet<string>): Record_ {
  return Object.fromEntries(Object.entries(record).filter(([k]) => keep.has(k)));
}

function baseInput(h: Harness, op: OperationSpec): Input | undefined {
  const params = sample(h, op);
  if (params) delete params[op.projection!.field];
  return params;
}

/** A selection returns, per record, only the selected and identity properties, with the values of the full record. */
export async function projectionSelects(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const projection = op.projection!;
  const base = baseInput(h, op);
  if (!base) return noSample(op);
  const selection = projectionSelection(projection);
  if (selection.length === 0) return { skip: "every selectable property is an identity property" };
  const full = await callFresh(h, op, base);
  const fullRecords = recordsOf(op, full.exchange, full.body);
  if (fullRecords.length === 0) return { skip: `${sampleName(op.id, 0)} returns no records from the reset state — seed records in reset(), or give parameters that match some` };
  const byIdentity = new Map(fullRecords.map((r) => [identityOf(projection, r), r]));
  const projected = await callFresh(h, op, { ...base, [projection.field]: selection });
  const records = recordsOf(op, projected.exchange, projected.body);
  if (records.length !== fullRecords.length) {
    throw violation(`${op.id}: selecting ${selection.join(", ")} returned ${records.length} records, the same call without a selection ${fullRecords.length}`, projected.exchange);
  }
  const keep = new Set([...projection.identity, ...selection]);
  for (const record of records) {
    const id = identityOf(projection, record);
    const extra = Object.keys(record).filter((k) => !keep.has(k));
    if (extra.length > 0) {
      throw violation(`${op.id}: ${projection.field} selected ${selection.join(", ")}, but record ${id} also carries ${extra.join(", ")} (outside the projection)`, projected.exchange);
    }
    const missingIdentity = projection.identity.filter((k) => !Object.hasOwn(record, k));
    if (missingIdentity.length > 0) throw violation(`${op.id}: a projected record must carry its identity ${missingIdentity.join(", ")}`, projected.exchange);
    const whole = byIdentity.get(id);
    if (!whole) throw violation(`${op.id}: record ${id} appears only when ${projection.field} is given`, projected.exchange);
    if (!sameRecord(record, pick(whole, keep))) {
      const differing = [...keep].filter((k) => JSON.stringify(record[k]) !== JSON.stringify(whole[k]));
      throw violation(`${op.id}: record ${id} projected on ${selection.join(", ")} must hold the full record's ${differing.join(", ")} (missing or different)`, projected.exchange);
    }
  }
}

/** No selection returns the declared full shape: what selecting every selectable property returns. */
export async function projectionOmitted(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const projection = op.projection!;
  const base = baseInput(h, op);
  if (!base) return noSample(op);
  const full = await callFresh(h, op, base);
  const fullRecords = recordsOf(op, full.exchange, full.body);
  if (fullRecords.length === 0) return { skip: `${sampleName(op.id, 0)} returns no records from the reset state — seed records in reset(), or give parameters that match some` };
  const all = await callFresh(h, op, { ...base, [projection.field]: [...projection.selectable] });
  const allRecords = new Map(recordsOf(op, all.exchange, all.body).map((r) => [identityOf(projection, r), r]));
  for (const record of fullRecords) {
    const id = identityOf(projection, record);
    const selectedAll = allRecords.get(id);
    if (!selectedAll) throw violation(`${op.id}: record ${id} is missing when every property is selected`, all.exchange);
    if (!sameRecord(record, selectedAll)) {
      const keys = new Set([...Object.keys(record), ...Object.keys(selectedAll)]);
      const differing = [...keys].filter((k) => JSON.stringify(record[k]) !== JSON.stringify(selectedAll[k]));
      throw violation(`${op.id}: without ${projection.field} record ${id} must have every property (as when all are selected); differs in ${differing.join(", ")}`, full.exchange);
    }
  }
}
