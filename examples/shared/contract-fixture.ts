/**
 * What the reference platforms' contract-test fixtures share: each case gets a fresh platform (a new
 * in-memory database, seeded), and "observe" reads the platform's own tables, so an effect anywhere
 * in the data shows up and nothing else (idempotency journal, issued tokens) does. Each platform also
 * accepts one limited credential per scope of its contract (every other scope, same caller), and
 * upstream failures are provoked with the host's fault switches.
 */
import type { DataSet, Fixture, Input, ResetOptions } from "../../src/tests-runtime/harness.js";
import type { ContractModel } from "../../src/model/types.js";
import { loadExampleContract } from "./example.js";
import { type Credential, isSeededDefect, type PartialPageFault, type RunningPlatform, type SeededDefect } from "./host.js";

export const CONTRACT_TEST_TOKEN = "contract-suite-token";

/** What a fixture's error provocations may use: the running platform (its database, its faults) and its clock. */
export interface ProvocationContext {
  readonly platform: RunningPlatform;
  advanceTime(ms: number): void;
  /** GET `path` (with query) from the platform with the full credential; the parsed JSON body. */
  get(path: string): Promise<Record<string, unknown>>;
  /** Restart the platform with a per-call bound for its task operations (boundedTasks), so a task can stop incomplete. */
  restartBounded(maxExaminedPerCall: number): Promise<void>;
}

/** What a platform is started with; `dataset` and `countMaxExamined` only when the suite asks (resetWith). */
export interface PlatformStart<D extends string> {
  readonly token: string;
  readonly credentials: Record<string, Credential>;
  readonly now: () => Date;
  readonly defect?: SeededDefect;
  readonly dataset?: D;
  readonly countMaxExamined?: number;
}

export interface PlatformFixtureOptions<D extends string = never> {
  /** The contract the platform serves (its scopes decide the limited credentials). */
  readonly spec: string;
  /** Overlays of an OpenAPI `spec`, in order (the model is then imported when the first platform starts). */
  readonly overlays?: readonly string[];
  readonly start: (options: PlatformStart<D>) => Promise<RunningPlatform>;
  /** The platform's own tables, compared in full by observe(). */
  readonly tables: readonly string[];
  readonly samples: (operation: string, variant: number) => Input | undefined;
  /** Input that makes `operation` fail with `code` from the seeded state (domain errors: not found, conflicts…). */
  readonly errors?: (operation: string, code: string, ctx: ProvocationContext) => Input | undefined | Promise<Input | undefined>;
  /** The platform's data set for each data set of the suite it can provide (the default one is always there). */
  readonly datasets?: Readonly<Partial<Record<Exclude<DataSet, "default">, D>>>;
  /** Whether the platform takes `countMaxExamined`, the per-call bound of its task operations. */
  readonly boundedTasks?: boolean;
  /**
   * The page error a failing register shard reports (a PageError of the contract). With it, degrade()
   * makes the first page of every traversal of an operation miss its last record and say so.
   */
  readonly shardFailure?: PartialPageFault["error"];
  /** What complete runs of task operations give on the default data set (Fixture.taskResult). */
  readonly taskResults?: Fixture["taskResult"];
}

/** The credential lacking `scope`: distinct per scope, so a call proves which scope was missing. */
export function tokenWithout(scope: string): string {
  return `${CONTRACT_TEST_TOKEN}-without-${scope}`;
}

/**
 * The defect seeded into every platform the fixture starts: `$CONTRACT_DEFECT` (one of
 * SEEDED_DEFECT_IDS), so a test can run the generated suite against a faulty platform.
 */
function seededDefect(): SeededDefect | undefined {
  const id = process.env["CONTRACT_DEFECT"];
  if (id === undefined || id === "") return undefined;
  if (!isSeededDefect(id)) throw new Error(`CONTRACT_DEFECT must be a seeded defect id, not ${JSON.stringify(id)}`);
  return id;
}

export function platformFixture<D extends string = never>(options: PlatformFixtureOptions<D>): Fixture {
  const defect = seededDefect();
  let running: RunningPlatform | undefined;
  // The platform's clock: real time plus what advanceTime added since the last reset.
  let offsetMs = 0;
  const now = (): Date => new Date(Date.now() + offsetMs);
  // Read when the first platform starts: an OpenAPI document with overlays is imported asynchronously.
  let model: ContractModel | undefined;
  let scopes: string[] = [];
  // The same caller as CONTRACT_TEST_TOKEN (startPlatform's "default"), one scope short.
  const credentials: Record<string, Credential> = Object.create(null);
  const contract = (): ContractModel => {
    if (!model) throw new Error("the contract is not loaded: reset() loads it");
    return model;
  };
  // A fresh platform (new in-memory database, no faults), started as `extra` says.
  const load = async (): Promise<void> => {
    if (model) return;
    model = await loadExampleContract(options.spec, options.overlays);
    scopes = [...new Set(model.operations.flatMap((op) => op.scopes))].sort();
    for (const scope of scopes) credentials[tokenWithout(scope)] = { caller: "default", scopes: scopes.filter((s) => s !== scope) };
  };
  const restart = async (extra: Pick<PlatformStart<D>, "dataset" | "countMaxExamined"> = {}): Promise<void> => {
    await load();
    await running?.close();
    running = undefined;
    offsetMs = 0;
    running = await options.start({ token: CONTRACT_TEST_TOKEN, credentials, now, ...(defect ? { defect } : {}), ...extra });
  };
  const platform = (): RunningPlatform => {
    if (!running) throw new Error("the platform is not running: reset() starts it");
    return running;
  };
  return {
    get baseUrl() {
      return platform().url;
    },
    token: CONTRACT_TEST_TOKEN,
    // The scopes (and so tokenWithout) are known before the first check, which may ask before any reset.
    start: load,
    async reset() {
      await restart();
    },
    async resetWith(state: ResetOptions) {
      const dataset = state.dataset === undefined || state.dataset === "default" ? undefined : options.datasets?.[state.dataset];
      if (state.dataset !== undefined && state.dataset !== "default" && dataset === undefined) return false;
      if (state.maxExaminedPerCall !== undefined && !options.boundedTasks) return false;
      await restart({ ...(dataset !== undefined ? { dataset } : {}), ...(state.maxExaminedPerCall !== undefined ? { countMaxExamined: state.maxExaminedPerCall } : {}) });
      return true;
    },
    async degrade(operation: string) {
      const pagination = platform().model.operations.find((op) => op.names.id === operation)?.pagination;
      // The platform's pages report a shard failure through their partial field (examples/shared/paging.ts).
      if (!options.shardFailure || !pagination || pagination.partialField === null) return false;
      const faults = platform().faults;
      faults.partialPages = [...(faults.partialPages ?? []), { operation, page: 1, missing: 1, error: options.shardFailure }];
      return true;
    },
    async advanceTime(ms: number) {
      offsetMs += ms;
    },
    async failAfterCommit(operation: string) {
      // The host commits the next keyed execution of the operation, then answers its transient error.
      const op = platform().model.operations.find((o) => o.names.id === operation);
      if (!op?.idempotency) return false;
      const faults = platform().faults;
      (faults.transientAfterCommitOnce ??= []).push(operation);
      return true;
    },
    async stop() {
      await running?.close();
      running = undefined;
    },
    sampleInput: (operation, variant = 0) => options.samples(operation, variant),
    tokenWithout: (scope) => (scopes.includes(scope) ? tokenWithout(scope) : undefined),
    async errorInput(operation, code) {
      const ctx: ProvocationContext = {
        get platform() {
          return platform();
        },
        advanceTime: (ms) => void (offsetMs += ms),
        async restartBounded(maxExaminedPerCall) {
          if (!options.boundedTasks) throw new Error("this platform takes no per-call bound (boundedTasks)");
          await restart({ countMaxExamined: maxExaminedPerCall });
        },
        async get(path) {
          const response = await fetch(`${platform().url}${path}`, { headers: { authorization: `Bearer ${CONTRACT_TEST_TOKEN}` } });
          if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
          return (await response.json()) as Record<string, unknown>;
        },
      };
      const domain = await options.errors?.(operation, code, ctx);
      if (domain !== undefined) return domain;
      // Upstream failures: the host's fault switches fail the next call of the operation before it executes.
      const faults = platform().faults;
      const classOf = (c: string) => contract().errors.find((e) => e.code === c)?.class;
      const cls = classOf(code);
      // The host answers a class with the first code of it the operation lists.
      const op = contract().operations.find((o) => o.names.id === operation);
      if (op?.errors.find((e) => classOf(e.code) === cls)?.code !== code) return undefined;
      if (cls === "rate_limited") (faults.rateLimitedOnce ??= []).push(operation);
      else if (cls === "transient") (faults.transientOnce ??= []).push(operation);
      else return undefined;
      return options.samples(operation, 0);
    },
    ...(options.taskResults ? { taskResult: options.taskResults } : {}),
    async observe() {
      const db = platform().db;
      return options.tables.map((t) => db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).all());
    },
  };
}
