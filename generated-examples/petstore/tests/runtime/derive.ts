/**
 * Zero-configuration inputs: a fixture that derives what the implementer did not give from the
 * contract and from the implementation's own answers, the way Schemathesis links responses to
 * requests. After every reset it walks the safe reads (lists first, then reads addressed by the
 * identifiers the lists showed), gives each mutation a fresh object of its own when an operation can
 * create one (else an existing one its target read confirms), fills expectations from the target as
 * read, and every other field from the document (const, default, examples, enum) or the field's
 * constraints. Not-found inputs use a well-formed identifier never seen in any answer; `observe` is a
 * snapshot of every safe traversal. Each derived input is marked, so a check whose derived input the
 * implementation refuses with a declared error is skipped saying so, never failed: the derivation may
 * guess wrong about a world it only sees through the contract.
 */
import { randomUUID } from "node:crypto";
import { resolve } from "./checks.js";
import { traverse } from "./checks-paging.js";
import { type ContractSpec, DERIVED, type DerivationMark, derivationOf, type Enabler, type Exchange, type Fixture, Harness, type Input, type OperationSpec, type Schema, TransportProblem } from "./harness.js";
import { derivedInputs } from "./samples.js";
import { documentedValues, schemaValue } from "./schema-values.js";

/**
 * Set `field` of `input` as an own property: a contract's field name (even "__proto__") is never a
 * prototype assignment.
 */
function put(input: Input, field: string, value: unknown): void {
  Object.defineProperty(input, field, { value, enumerable: true, writable: true, configurable: true });
}

/** The value of `record`'s own property `name`, never an inherited one. */
function ownValue(record: Record<string, unknown> | undefined, name: string): unknown {
  return record !== undefined && Object.hasOwn(record, name) ? record[name] : undefined;
}

function marked(input: Input, how: string | DerivationMark, refused?: (code: string) => void): Input {
  (input as Input & { [DERIVED]?: DerivationMark })[DERIVED] = typeof how === "string" ? { how, ...(refused ? { refused } : {}) } : how;
  return input;
}

/** Pages a discovery or snapshot traversal takes at most: enough for a test data set, bounded for a large one. */
const MAX_PAGES = 20;
/** Candidate identifiers tried per read before giving up on it. */
const MAX_CANDIDATES = 4;
/** Reads per operation the snapshot repeats (targets of derived mutations always among them). */
const MAX_OBSERVED_READS = 8;
/** Values remembered per property name. */
const MAX_VALUES = 200;
/** Nodes of an answer walked for values (its depth is bounded too). */
const MAX_NODES = 20_000;
const MAX_WALK_DEPTH = 8;
/** Fresh identifiers tried before giving up on one never seen. */
const MAX_FRESH_TRIES = 16;

/** Fields whose values name a record: filled from answers, never invented (samples.ts uses the same rule). */
const IDENTIFIER = /(^id$|_id$|Id$|^key$|_key$)/;

function object(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

interface SeenValue {
  readonly value: string | number;
  /** The operation whose answer showed it. */
  readonly source: string;
}

interface ObservedRead {
  readonly op: OperationSpec;
  readonly input: Input;
  readonly paged: boolean;
}

/** A static path of the literal segments before the first parameter: /customers/{id}/refunds → /customers. */
function collectionOf(path: string): string {
  const at = path.indexOf("{");
  return (at < 0 ? path : path.slice(0, at)).replace(/\/+$/, "");
}

/** What the derivation learnt since the last reset. */
class Knowledge {
  /** Property name → values seen under it (a Map: names come from the contract and the answers). */
  readonly byProperty = new Map<string, SeenValue[]>();
  /** Every scalar seen in any answer, as JSON: a "never seen" identifier is checked against it. */
  readonly seen = new Set<string>();
  readonly samples = new Map<string, Input[]>();
  readonly observed: ObservedRead[] = [];
  /** Per operation: why nothing was derived for it (for skip messages). */
  readonly why = new Map<string, string>();

  remember(answer: unknown, source: string): void {
    let nodes = 0;
    const walk = (value: unknown, depth: number): void => {
      if (depth > MAX_WALK_DEPTH || nodes++ > MAX_NODES) return;
      if (Array.isArray(value)) {
        for (const item of value) walk(item, depth + 1);
        return;
      }
      const record = object(value);
      if (!record) return;
      for (const [name, v] of Object.entries(record)) {
        if (typeof v === "string" || typeof v === "number") {
          this.seen.add(JSON.stringify(v));
          const list = this.byProperty.get(name) ?? [];
          if (list.length < MAX_VALUES && !list.some((s) => s.value === v)) list.push({ value: v, source });
          this.byProperty.set(name, list);
        } else walk(v, depth + 1);
      }
    };
    walk(answer, 0);
  }
}

/**
 * `base` (the flags' fixture, or any fixture) with what it does not give derived: sample inputs,
 * not-found error inputs and `observe`. Everything `base` gives wins.
 */
export function derivingFixture(contract: ContractSpec, base: Fixture): Fixture {
  const h = new Harness(contract, base);
  let known = new Knowledge();
  /** Snapshot paths (property names, arrays as *) whose values differ between two back-to-back snapshots. */
  const unstable = new Set<string>();
  const fieldValidators = new Map<string, (value: unknown) => boolean>();
  /** Objects an operation refused a derived input for (operation and identifiers, as JSON): the next derivation picks others. */
  const refusedTargets = new Set<string>();
  /** Per operation: each declared code a derived input was refused with, and the object it was refused for. */
  const learntErrors = new Map<string, Map<string, Input>>();
  const targetKey = (op: OperationSpec, ids: Input): string => JSON.stringify([op.id, ...Object.entries(ids)]);

  const inputSchema = (op: OperationSpec): Record<string, unknown> => resolve(op.input, op.input) ?? {};
  const fieldSchema = (op: OperationSpec, field: string): unknown => ownValue(object(inputSchema(op).properties), field);
  const requiredOf = (op: OperationSpec): string[] => {
    const r = inputSchema(op).required;
    return Array.isArray(r) ? r.filter((x): x is string => typeof x === "string") : [];
  };
  /** Whether `value` satisfies `field`'s schema in `op`'s input (its $defs resolved from the input's root). */
  const fits = (op: OperationSpec, field: string, value: unknown): boolean => {
    const key = `${op.id}\u0000${field}`;
    let check = fieldValidators.get(key);
    if (!check) {
      const root = op.input as Record<string, unknown>;
      const s = fieldSchema(op, field);
      const schema: Schema = typeof s === "object" && s !== null ? { ...(root.$defs !== undefined ? { $defs: root.$defs } : {}), ...(s as Record<string, unknown>) } : true;
      const validate = h.validator(schema);
      check = (v) => validate(v) === true;
      fieldValidators.set(key, check);
    }
    return check(value);
  };
  /** The input fields naming records: bound in the path, or named like identifiers without a documented value. */
  const identifiers = (op: OperationSpec): string[] => {
    const inPath = op.bindings.filter((b) => b.in === "path").map((b) => b.field);
    const named = requiredOf(op).filter((f) => IDENTIFIER.test(f) && f !== op.idempotency?.keyField && !inPath.includes(f));
    return [...inPath, ...named.filter((f) => documentedValues(resolve(op.input, fieldSchema(op, f)) ?? {}).length === 0)];
  };
  /** Fields the suite sets itself: the operation key, the dry-run flag, the confirm token. */
  const suiteOwned = (op: OperationSpec): Set<string> =>
    new Set([op.idempotency?.keyField, op.preview?.dryRunField, op.preview?.confirmTokenField].filter((f): f is string => typeof f === "string"));

  /** Identifier values for `field` of `op`, best first: its own name, then ids of its collection, then any id, then the document's examples. */
  const candidates = (op: OperationSpec, field: string): unknown[] => {
    const own = known.byProperty.get(field) ?? [];
    const ids = known.byProperty.get("id") ?? [];
    const collection = collectionOf(op.path);
    const fromCollection = ids.filter((s) => {
      const source = contract.operations.find((o) => o.id === s.source);
      return source !== undefined && collection !== "" && collectionOf(source.path) === collection;
    });
    const examples = documentedValues(resolve(op.input, fieldSchema(op, field)) ?? {});
    const ordered = [...own, ...fromCollection, ...ids].map((s) => s.value as unknown).concat(examples);
    const unique: unknown[] = [];
    for (const v of ordered) if (!unique.includes(v) && fits(op, field, v)) unique.push(v);
    return unique;
  };

  /** Every other field `op` needs: required ones from the document or the constraints, and enough optional ones for minProperties. */
  const filled = (op: OperationSpec, given: Input, variant: number, target: Record<string, unknown> | undefined): Input | undefined => {
    const schema = inputSchema(op);
    const properties = object(schema.properties) ?? {};
    const own = suiteOwned(op);
    const input = given;
    for (const field of requiredOf(op)) {
      if (Object.hasOwn(input, field) || own.has(field)) continue;
      // A call on an existing object takes a value the answers showed for the field (a team that exists),
      // other than the object's own: a reference the contract cannot enumerate, and a change.
      if (target) {
        const seen = (known.byProperty.get(field) ?? []).map((v) => v.value as unknown).filter((v) => v !== ownValue(target, field) && fits(op, field, v));
        if (seen.length > 0) {
          put(input, field, seen[variant % seen.length]);
          continue;
        }
      }
      const value = schemaValue(op.input, ownValue(properties, field), variant);
      if (!value) return undefined;
      put(input, field, value.value);
    }
    const min = typeof schema.minProperties === "number" ? schema.minProperties : 0;
    const expectations = new Set(op.preconditions.map((p) => p.field));
    // A change the target shows first (a property of what its read answers), so the mutation changes something visible.
    const optional = Object.keys(properties)
      .filter((f) => !Object.hasOwn(input, f) && !own.has(f) && !expectations.has(f) && f !== op.projection?.field && !IDENTIFIER.test(f))
      .sort((a, b) => Number(!(target && Object.hasOwn(target, b))) - Number(!(target && Object.hasOwn(target, a))) || a.localeCompare(b));
    for (const field of optional) {
      if (Object.keys(input).length >= min) break;
      // A built value rather than the document's first: it differs from what the target holds.
      const value = schemaValue(op.input, ownValue(properties, field), variant, false) ?? schemaValue(op.input, ownValue(properties, field), variant);
      if (value) put(input, field, value.value);
    }
    return Object.keys(input).length >= min ? input : undefined;
  };

  /** The input of `read` addressing the record `ids` names (fields matched by name), or undefined. */
  const addressing = (read: OperationSpec, ids: Input): Input | undefined => {
    const input: Input = {};
    for (const field of requiredOf(read)) {
      if (!Object.hasOwn(ids, field)) return undefined;
      put(input, field, ids[field]);
    }
    return input;
  };

  /**
   * Operations that did not answer a derivation request (a timeout, a reset connection): never asked
   * again by the derivation, so a hanging operation costs the suite one timeout here, and its own
   * checks report the cause.
   */
  const silent = new Set<string>();
  const ask = async (op: OperationSpec, input: Input): Promise<Exchange> => {
    if (silent.has(op.id)) throw new TransportProblem(`${op.id} did not answer the derivation before`);
    try {
      return await h.call(op, input);
    } catch (e) {
      if (e instanceof TransportProblem) silent.add(op.id);
      throw e;
    }
  };

  const succeeded = (op: OperationSpec, exchange: Exchange, schema: Schema = op.output): boolean =>
    exchange.status >= 200 && exchange.status < 300 && h.validator(schema)(exchange.body === undefined ? null : exchange.body) === true;

  /** Repeat this read in every snapshot (bounded per operation; a mutation's target is always let in). */
  const observe = (read: OperationSpec, input: Input, always = true): void => {
    const same = known.observed.filter((o) => o.op === read);
    if (same.some((o) => JSON.stringify(o.input) === JSON.stringify(input))) return;
    if (always || same.length < MAX_OBSERVED_READS) known.observed.push({ op: read, input, paged: false });
  };

  const readTarget = async (read: OperationSpec, ids: Input): Promise<Record<string, unknown> | undefined> => {
    const input = addressing(read, ids);
    if (!input) return undefined;
    const exchange = await ask(read, input);
    if (!succeeded(read, exchange)) return undefined;
    known.remember(exchange.body, read.id);
    observe(read, input);
    return object(exchange.body);
  };

  /** A mutation without identifiers that makes what `op` addresses: its path is `op`'s collection. */
  const creatorOf = (op: OperationSpec): OperationSpec | undefined =>
    contract.operations.find((o) => o.kind === "mutating" && o !== op && identifiers(o).length === 0 && collectionOf(o.path) !== "" && collectionOf(o.path) === collectionOf(op.path) && !o.path.includes("{"));

  /**
   * Mutations other than `op` whose output declares each of `fields` by name, or an `id` where the
   * field's schema constrains its form (a pattern or format, so an id of another kind does not fit).
   */
  const producersOf = (op: OperationSpec, fields: readonly string[]): OperationSpec[] =>
    contract.operations.filter((o) => {
      if (o.kind !== "mutating" || o === op || o === creatorOf(op)) return false;
      const output = object(resolve(o.output, o.output)?.properties) ?? {};
      return fields.every((f) => {
        if (Object.hasOwn(output, f)) return true;
        const s = resolve(op.input, fieldSchema(op, f));
        return Object.hasOwn(output, "id") && s !== null && (typeof s.pattern === "string" || typeof s.format === "string");
      });
    });

  /** Execute `creator` once with a derived input; the identifier values its answer gives for `op`'s fields. */
  const create = async (creator: OperationSpec, op: OperationSpec, fields: readonly string[], given?: Input): Promise<Input | undefined> => {
    const params = given ?? filled(creator, {}, 0, undefined);
    if (!params) return undefined;
    let input: Input = { ...params };
    if (creator.idempotency) put(input, creator.idempotency.keyField, randomUUID());
    if (creator.preview) {
      const preview = await ask(creator, { ...input, [creator.preview.dryRunField]: true });
      const token = object(preview.body)?.[creator.preview.confirmTokenField];
      if (!succeeded(creator, preview, creator.preview.output ?? true) || typeof token !== "string") return undefined;
      input = { ...input, [creator.preview.dryRunField]: false, [creator.preview.confirmTokenField]: token };
    }
    const exchange = await ask(creator, input);
    if (!succeeded(creator, exchange)) return undefined;
    known.remember(exchange.body, creator.id);
    const made = object(exchange.body);
    if (!made) return undefined;
    const ids: Input = {};
    for (const field of fields) {
      const value = [ownValue(made, field), ownValue(made, "id")].find((v) => v !== undefined && fits(op, field, v));
      if (value === undefined) return undefined;
      put(ids, field, value);
    }
    return ids;
  };

  const discoverReads = async (): Promise<void> => {
    const reads = contract.operations.filter((op) => op.kind === "read");
    for (const op of reads) {
      if (identifiers(op).length > 0 || silent.has(op.id)) continue;
      const input = derivedInputs(op)[0];
      if (input === undefined) continue;
      try {
        if (op.pagination) {
          const walk = await traverse(h, op, input, op.pagination.limitMax, MAX_PAGES);
          known.remember(walk.items, op.id);
          known.observed.push({ op, input, paged: true });
        } else {
          const exchange = await ask(op, input);
          if (!succeeded(op, exchange)) continue;
          known.remember(exchange.body, op.id);
          known.observed.push({ op, input, paged: false });
        }
        known.samples.set(op.id, [marked({ ...input }, "the contract's own values")]);
      } catch (e) {
        // A list that breaks its contract is reported by its own checks; the derivation learns nothing from it.
        if (e instanceof TransportProblem) silent.add(op.id);
      }
    }
    await discoverAddressedReads();
  };

  /** Reads addressed by identifiers: what one answer shows may address the next (an invoice's customer). */
  const discoverAddressedReads = async (): Promise<void> => {
    const reads = contract.operations.filter((op) => op.kind === "read");
    for (let round = 0; round < 3; round++) {
      let progress = false;
      for (const op of reads) {
        if (known.samples.has(op.id) || identifiers(op).length === 0 || silent.has(op.id)) continue;
        const fields = identifiers(op);
        const options = fields.map((f) => candidates(op, f));
        if (options.some((o) => o.length === 0)) continue;
        const found: Input[] = [];
        for (let i = 0; i < MAX_CANDIDATES && found.length < 2; i++) {
          const ids: Input = {};
          for (const [n, f] of fields.entries()) put(ids, f, options[n]![Math.min(i, options[n]!.length - 1)]);
          const input = filled(op, ids, 0, undefined);
          if (!input || found.some((x) => JSON.stringify(x) === JSON.stringify(input))) continue;
          try {
            const exchange = await ask(op, input);
            if (!succeeded(op, exchange)) continue;
            known.remember(exchange.body, op.id);
            observe(op, input, false);
            found.push(input);
          } catch {
            break;
          }
        }
        if (found.length > 0) {
          known.samples.set(op.id, found.map((f) => marked({ ...f }, `identifiers read from the implementation's answers (${fields.join(", ")})`)));
          progress = true;
        }
      }
      if (!progress) break;
    }
  };

  /** Identifier values for `op`'s fields: a fresh object when an operation makes one, else the `skip`-th confirmed one the answers showed. */
  const targetOf = async (op: OperationSpec, fields: readonly string[], read: OperationSpec | undefined, skip: number): Promise<{ ids: Input; how: string } | { why: string }> => {
    const creator = creatorOf(op);
    if (creator && base.sampleInput(creator.id, 0) === undefined) {
      const ids = await create(creator, op, fields);
      if (ids) return { ids, how: `a fresh object made with ${creator.id}` };
    }
    // Another mutation whose answer names such an object (a reservation made on an item), with its own sample.
    for (const producer of producersOf(op, fields)) {
      const params = known.samples.get(producer.id)?.[0] ?? base.sampleInput(producer.id, 0);
      const ids = params !== undefined ? await create(producer, op, fields, { ...params }) : undefined;
      if (ids) return { ids, how: `a fresh object made with ${producer.id}` };
    }
    const options = fields.map((f) => candidates(op, f));
    if (options.some((o) => o.length === 0)) return { why: `no answer of a safe read showed a value for ${fields.filter((_, n) => options[n]!.length === 0).join(", ")}` };
    // Objects a derived input was refused for come last: tried only when no other is confirmed.
    for (const allowRefused of [false, true]) {
      let confirmed = 0;
      let reads = 0;
      // Refused objects cost no request: many may be passed over, few read.
      for (let i = 0; i < MAX_VALUES && reads < MAX_CANDIDATES + skip; i++) {
        if (fields.some((_, n) => i >= options[n]!.length) && i > 0) break;
        const candidate: Input = {};
        for (const [n, f] of fields.entries()) put(candidate, f, options[n]![Math.min(i, options[n]!.length - 1)]);
        if (refusedTargets.has(targetKey(op, candidate)) !== allowRefused) continue;
        reads++;
        // Confirmed by the target's read when there is one; else the implementation's refusal tells (and skips).
        if (read && (await readTarget(read, candidate)) === undefined) continue;
        if (confirmed++ === skip) return { ids: candidate, how: `identifiers read from the implementation's answers (${fields.join(", ")})` };
      }
    }
    return { why: `${read?.id ?? "the implementation"} confirmed none of the identifiers the answers showed` };
  };

  /** `op`'s input on the object `ids` names: expectations as its target read shows them, every other field filled. */
  const inputOn = async (op: OperationSpec, ids: Input, read: OperationSpec | undefined, variant: number): Promise<Input | undefined> => {
    const target = read && Object.keys(ids).length > 0 ? await readTarget(read, ids) : undefined;
    const input: Input = { ...ids };
    for (const pre of op.preconditions) {
      const compares = pre.compares;
      if (target && compares !== undefined && Object.hasOwn(target, compares)) put(input, pre.field, target[compares]);
    }
    return filled(op, input, variant, target);
  };

  const discoverMutation = async (op: OperationSpec): Promise<void> => {
    const fields = identifiers(op);
    const read = op.readWith ? contract.operations.find((o) => o.id === op.readWith) : undefined;
    const variants: Input[] = [];
    const plain = (input: Input | undefined): string => JSON.stringify(input ?? null);
    // Both samples address the same object unless only another object makes them differ.
    const first = fields.length > 0 ? await targetOf(op, fields, read, 0) : { ids: {}, how: "values from the contract" };
    for (const variant of [0, 1]) {
      let made = first;
      for (let attempt = 0; attempt < 2; attempt++) {
        if ("why" in made) {
          if (variant === 0) known.why.set(op.id, made.why);
          break;
        }
        const complete = await inputOn(op, made.ids, read, variant);
        if (!complete) {
          if (variant === 0) known.why.set(op.id, "the input schema has a required field no value could be built for");
          break;
        }
        // The second sample must be other parameters: another object when nothing else varies (a delete).
        if (variant === 1 && plain(complete) === plain(variants[0])) {
          if (attempt === 0 && fields.length > 0) made = await targetOf(op, fields, read, 1);
          continue;
        }
        const ids = made.ids;
        variants.push(marked(complete, made.how, (code) => {
          // A refusal about the object (resolved, no balance left) moves the next derivation to another one;
          // a stale expectation, a rate limit or an upstream failure says nothing about the object.
          const cls = contract.taxonomy.get(code)?.class;
          const aboutCall = op.preconditions.some((p) => p.error === code) || cls === "rate_limited" || cls === "transient" || cls === "unauthenticated" || cls === "permission";
          if (aboutCall) return;
          refusedTargets.add(targetKey(op, ids));
          // The refusal is itself a way to provoke the code: the error-taxonomy check may use it.
          const learnt = learntErrors.get(op.id) ?? new Map<string, Input>();
          if (!learnt.has(code)) learnt.set(code, ids);
          learntErrors.set(op.id, learnt);
        }));
        break;
      }
      if (variants.length === 0) break;
    }
    if (variants.length > 0) known.samples.set(op.id, variants);
  };

  /**
   * The derivation itself executes mutations (a fresh object, a reservation that moves an item's
   * stock), which may move what an earlier sample expects: every derived sample's expectations are
   * read again from its target once all of them are made.
   */
  const refreshExpectations = async (): Promise<void> => {
    for (const op of contract.operations) {
      const read = op.readWith ? contract.operations.find((o) => o.id === op.readWith) : undefined;
      if (op.kind !== "mutating" || !read || op.preconditions.length === 0 || base.sampleInput(op.id, 0) !== undefined) continue;
      for (const input of known.samples.get(op.id) ?? []) {
        const target = await readTarget(read, input);
        if (!target) continue;
        for (const pre of op.preconditions) {
          if (pre.compares !== undefined && Object.hasOwn(target, pre.compares) && Object.hasOwn(input, pre.field)) put(input, pre.field, target[pre.compares]);
        }
      }
    }
  };

  /** A snapshot of every safe traversal, with what two back-to-back snapshots disagree on left out. */
  const snapshot = async (): Promise<unknown> => {
    const parts: unknown[] = [];
    for (const read of known.observed) {
      if (read.paged) {
        try {
          parts.push((await traverse(h, read.op, read.input, read.op.pagination!.limitMax, MAX_PAGES)).items);
        } catch (e) {
          parts.push(`traversal failed: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`);
        }
      } else {
        const exchange = await h.call(read.op, read.input);
        // An error answer counts by its status alone: its body may carry a per-request id, which is no state.
        parts.push(exchange.status >= 200 && exchange.status < 300 ? [exchange.status, exchange.body] : [exchange.status]);
      }
    }
    return parts;
  };
  const leaves = (value: unknown, path: string, out: Map<string, string[]>, depth = 0): void => {
    if (depth > MAX_WALK_DEPTH) return;
    if (Array.isArray(value)) value.forEach((v) => leaves(v, `${path}/*`, out, depth + 1));
    else if (object(value)) for (const [k, v] of Object.entries(object(value)!)) leaves(v, `${path}/${k}`, out, depth + 1);
    else out.set(path, [...(out.get(path) ?? []), JSON.stringify(value)]);
  };
  const stable = (value: unknown, path: string, depth = 0): unknown => {
    if (depth > MAX_WALK_DEPTH) return value;
    if (Array.isArray(value)) return value.map((v) => stable(v, `${path}/*`, depth + 1));
    const record = object(value);
    if (!record) return value;
    const out = new Map<string, unknown>();
    for (const [k, v] of Object.entries(record)) if (!unstable.has(`${path}/${k}`)) out.set(k, stable(v, `${path}/${k}`, depth + 1));
    return [...out];
  };
  const calibrate = async (): Promise<void> => {
    const [a, b] = [await snapshot(), await snapshot()];
    const la = new Map<string, string[]>();
    const lb = new Map<string, string[]>();
    leaves(a, "", la);
    leaves(b, "", lb);
    for (const [path, values] of la) if (JSON.stringify(values) !== JSON.stringify(lb.get(path))) unstable.add(path);
  };

  const discover = async (): Promise<void> => {
    known = new Knowledge();
    try {
      await discoverReads();
      // Twice: a mutation whose object another one makes (a reservation of an item) needs that one's sample first.
      for (let pass = 0; pass < 2; pass++) {
        for (const op of contract.operations) {
          if (op.kind === "mutating" && base.sampleInput(op.id, 0) === undefined && !known.samples.has(op.id)) await discoverMutation(op);
        }
      }
      // What the mutations' objects showed may address reads no list could (a reservation).
      await discoverAddressedReads();
      await refreshExpectations();
      if (!base.observe && known.observed.length > 0) await calibrate();
    } catch {
      // An implementation that stops answering fails the checks themselves, each saying why.
    }
  };

  /** A well-formed value for `field` of `op` no answer has shown. */
  const neverSeen = (op: OperationSpec, field: string): unknown => {
    for (let i = 0; i < MAX_FRESH_TRIES; i++) {
      const value = schemaValue(op.input, fieldSchema(op, field), i, false);
      if (value && fits(op, field, value.value) && !known.seen.has(JSON.stringify(value.value))) return value.value;
    }
    return undefined;
  };

  /** Input provoking the not-found `code`: the derived sample (or a filled input) with one identifier never seen. */
  const notFoundInput = (op: OperationSpec, code: string): Input | undefined => {
    const spec = contract.taxonomy.get(code);
    if (spec?.class !== "not_found" || !op.errors.includes(code)) return undefined;
    const fields = identifiers(op);
    const stem = code.toLowerCase().replace(/_?not_?found$/, "");
    const field = (spec.field !== null && fields.includes(spec.field) ? spec.field : undefined)
      ?? fields.find((f) => stem !== "" && f.toLowerCase().replace(/_?id$/, "") === stem)
      ?? (fields.length === 1 && op.errors.filter((c) => contract.taxonomy.get(c)?.class === "not_found").length === 1 ? fields[0] : undefined);
    // Without an identifier, the only thing a read names that may be gone is where a traversal stands: a
    // cursor no page gave (an implementation may call that invalid instead: a refusal with another code skips).
    const cursor = op.pagination?.cursorField ?? null;
    if (field === undefined && fields.length === 0 && cursor !== null && op.errors.filter((c) => contract.taxonomy.get(c)?.class === "not_found").length === 1) {
      const fresh = neverSeen(op, cursor);
      const sample = known.samples.get(op.id)?.[0];
      return fresh !== undefined && sample !== undefined ? marked({ ...sample, [cursor]: fresh }, `a ${cursor} no page gave (${JSON.stringify(fresh)})`) : undefined;
    }
    if (field === undefined) return undefined;
    const fresh = neverSeen(op, field);
    if (fresh === undefined) return undefined;
    const sample = known.samples.get(op.id)?.[0] ?? base.sampleInput(op.id, 0);
    const input: Input = { ...(sample ?? {}), [field]: fresh };
    for (const other of fields) if (!Object.hasOwn(input, other)) {
      const seen = candidates(op, other)[0];
      if (seen === undefined) return undefined;
      put(input, other, seen);
    }
    const complete = filled(op, input, 0, undefined);
    return complete ? marked(complete, `a well-formed ${field} no answer showed (${JSON.stringify(fresh)})`) : undefined;
  };

  /**
   * A conflict that names a numeric field (a refund beyond the balance): the derived sample with that
   * field at the largest value its schema allows. A guess about the data, so a refusal with another
   * code skips the check (checks-errors.ts), never fails it.
   */
  const extremeInput = async (op: OperationSpec, code: string): Promise<Input | undefined> => {
    const spec = contract.taxonomy.get(code);
    if (spec?.class !== "conflict" || spec.field === null || !op.errors.includes(code)) return undefined;
    const field = resolve(op.input, fieldSchema(op, spec.field));
    if (!field || typeof field.maximum !== "number" || op.preconditions.some((p) => p.field === spec.field)) return undefined;
    const sample = known.samples.get(op.id)?.[0];
    if (sample === undefined) return undefined;
    return marked({ ...sample, [spec.field]: field.maximum }, `${spec.field} at its schema's maximum (${field.maximum}), on the derived sample`);
  };

  const fixture: Fixture = {
    get baseUrl() {
      return base.baseUrl;
    },
    ...(base.token !== undefined ? { token: base.token } : {}),
    ...(base.enabler
      ? {
          enabler(need: Enabler): string | undefined {
            const worded = base.enabler!(need);
            // Why the derivation found no sample helps the team decide what to give.
            const why = need.kind === "sample" ? known.why.get(need.operation) : undefined;
            return worded !== undefined && why !== undefined ? `none derived (${why}); ${worded}` : worded;
          },
        }
      : {}),
    ...(base.credentials !== undefined ? { credentials: base.credentials } : {}),
    async start() {
      await base.start?.();
    },
    async stop() {
      await base.stop?.();
    },
    async reset() {
      await base.reset();
      await discover();
    },
    sampleInput(operation, variant = 0) {
      const given = base.sampleInput(operation, variant);
      if (given !== undefined || base.sampleInput(operation, 0) !== undefined) return given;
      const derived = known.samples.get(operation)?.[variant];
      return derived === undefined ? undefined : marked({ ...derived }, derivationOf(derived) ?? "derived");
    },
    async errorInput(operation, code) {
      const given = await base.errorInput?.(operation, code);
      if (given !== undefined) return given;
      const op = contract.operations.find((o) => o.id === operation);
      if (!op) return undefined;
      const learnt = learntErrors.get(op.id)?.get(code);
      if (learnt !== undefined) {
        const read = op.readWith ? contract.operations.find((o) => o.id === op.readWith) : undefined;
        const input = await inputOn(op, learnt, read, 0);
        if (input) return marked(input, `an input ${op.id} refused with ${code} earlier in the run`);
      }
      return notFoundInput(op, code) ?? (await extremeInput(op, code));
    },
    ...(base.observe
      ? { observe: () => base.observe!() }
      : {
          async observe() {
            return stable(await snapshot(), "");
          },
        }),
  };
  for (const member of ["advanceTime", "tokenWithout", "undoInput", "resetWith", "degrade", "taskResult", "failAfterCommit"] as const) {
    if (base[member] !== undefined) Object.assign(fixture, { [member]: (base[member] as (...a: unknown[]) => unknown).bind(base) });
  }
  if (base.resetWith) {
    fixture.resetWith = async (options) => {
      const ok = await base.resetWith!(options);
      if (ok) await discover();
      return ok;
    };
  }
  return fixture;
}
