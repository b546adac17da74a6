/**
 * Reference implementation of specs/releases.yaml: releases of one project in SQLite, listed a
 * bounded page at a time and counted as stable (draft == false && prerelease == false) by a bounded,
 * resumable scan. Drafts are visible only to callers with the releases:write scope.
 */
import type { HandlerContext, Handlers, RunningPlatform } from "../shared/host.js";
import { PlatformError } from "../shared/host.js";
import { type ExampleServerOptions, startExample } from "../shared/example.js";
import { type CursorPolicy, countScan, listPage, taskFields } from "../shared/paging.js";
import { MATCH_ALL, type Sql, allOf, condition, equals, greaterThan, startsWith } from "../shared/sql.js";
import { type Database, sqlFlag } from "../shared/sqlite.js";
import { utcInstant } from "../shared/time.js";

export const RELEASES_SPEC = "specs/releases.yaml";

/** "Cursors expire after 10 minutes" (list_releases and count_stable_releases descriptions). */
export const RELEASE_CURSOR_TTL_MS = 10 * 60 * 1000;
/** "One call examines at most 10000 releases" (count_stable_releases description). */
export const RELEASE_COUNT_MAX_EXAMINED = 10_000;
/** Scope that makes drafts visible. */
export const DRAFTS_SCOPE = "releases:write";

export interface Release {
  id: number;
  tag_name: string;
  name: string | null;
  draft: boolean;
  prerelease: boolean;
  created_at: string;
  published_at: string | null;
  author: string;
}

export type ReleaseDataset = "default" | "mixed" | "empty";

export const RELEASE_DATASETS: readonly ReleaseDataset[] = ["default", "mixed", "empty"];

/** Facts about each data set; the stable counts are what count_stable_releases must answer. */
export interface ReleaseDatasetFacts {
  /** Every release, drafts included (what a caller with releases:write sees). */
  readonly releases: number;
  readonly drafts: number;
  /** Releases a caller without releases:write sees (drafts hidden). */
  readonly visibleWithoutWrite: number;
  /** draft == false && prerelease == false. */
  readonly stable: number;
}

export const STABLE_RELEASES_DEFAULT = 50;
export const STABLE_RELEASES_MIXED = 24;
export const STABLE_RELEASES_EMPTY = 0;

export const RELEASE_FACTS: Readonly<Record<ReleaseDataset, ReleaseDatasetFacts>> = {
  default: { releases: 50, drafts: 0, visibleWithoutWrite: 50, stable: STABLE_RELEASES_DEFAULT },
  mixed: { releases: 40, drafts: 8, visibleWithoutWrite: 32, stable: STABLE_RELEASES_MIXED },
  empty: { releases: 0, drafts: 0, visibleWithoutWrite: 0, stable: STABLE_RELEASES_EMPTY },
};

// -- seed -------------------------------------------------------------------------------------------

const FIRST_ID = 182_736_400;
const FIRST_CREATED_AT = Date.parse("2024-01-08T10:00:00.000Z");
const WEEK = 7 * 24 * 60 * 60 * 1000;
const AUTHORS = ["octocat", "hubot", "monalisa"] as const;

type Flags = { readonly draft: boolean; readonly prerelease: boolean };
const STABLE: Flags = { draft: false, prerelease: false };
const PRERELEASE: Flags = { draft: false, prerelease: true };
const DRAFT: Flags = { draft: true, prerelease: false };
const DRAFT_PRERELEASE: Flags = { draft: true, prerelease: true };

/**
 * The `mixed` data set, oldest first: 24 stable, 8 prereleases, 5 drafts and 3 draft prereleases.
 * Two releases test that only the flags decide: v2.4.0 is flagged prerelease (not stable despite
 * its tag) and v3.0.0-beta.1 is not (stable despite its tag).
 */
function mixedReleases(): Array<{ tag: string; flags: Flags }> {
  const list: Array<{ tag: string; flags: Flags }> = [];
  for (let minor = 0; minor < 10; minor++) list.push({ tag: `v1.${minor}.0`, flags: STABLE }); // 10 stable
  for (let rc = 1; rc <= 4; rc++) list.push({ tag: `v2.0.0-rc.${rc}`, flags: PRERELEASE }); // 4 prereleases
  for (let minor = 0; minor < 4; minor++) list.push({ tag: `v2.${minor}.0`, flags: STABLE }); // 4 stable
  list.push({ tag: "v2.4.0", flags: PRERELEASE }); // tag looks stable; the flag says otherwise
  for (let patch = 1; patch <= 9; patch++) list.push({ tag: `v2.3.${patch}`, flags: STABLE }); // 9 stable
  list.push({ tag: "v3.0.0-beta.1", flags: STABLE }); // tag looks like a prerelease; the flags say stable
  for (let n = 2; n <= 4; n++) list.push({ tag: `v3.0.0-beta.${n}`, flags: PRERELEASE }); // 3 prereleases
  for (let n = 1; n <= 5; n++) list.push({ tag: `v3.${n}.0`, flags: DRAFT }); // 5 drafts
  for (let n = 1; n <= 3; n++) list.push({ tag: `v4.0.0-alpha.${n}`, flags: DRAFT_PRERELEASE }); // 3 draft prereleases
  return list;
}

/** The releases of a data set, oldest first (list_releases returns them newest first). */
export function releaseSeed(dataset: ReleaseDataset): Release[] {
  const entries =
    dataset === "empty" ? [] : dataset === "mixed" ? mixedReleases() : Array.from({ length: 50 }, (_, i) => ({ tag: `v1.${i}.0`, flags: STABLE }));
  return entries.map(({ tag, flags }, i) => {
    const created = FIRST_CREATED_AT + i * WEEK;
    return {
      id: FIRST_ID + i,
      tag_name: tag,
      // Every fifth release has no display title.
      name: i % 5 === 4 ? null : `Release ${tag}`,
      draft: flags.draft,
      prerelease: flags.prerelease,
      created_at: new Date(created).toISOString(),
      published_at: flags.draft ? null : new Date(created + 2 * 60 * 60 * 1000).toISOString(),
      author: AUTHORS[i % AUTHORS.length] ?? "octocat",
    };
  });
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS releases (
    id           INTEGER PRIMARY KEY,
    tag_name     TEXT    NOT NULL UNIQUE,
    name         TEXT,
    draft        INTEGER NOT NULL CHECK (draft IN (0, 1)),
    prerelease   INTEGER NOT NULL CHECK (prerelease IN (0, 1)),
    created_at   TEXT    NOT NULL, -- UTC ISO text with milliseconds: text order is time order
    published_at TEXT,
    author       TEXT    NOT NULL
  );`;

function seeder(dataset: ReleaseDataset): (db: Database) => void {
  return (db) => {
    const insert = db.prepare(`INSERT INTO releases (id, tag_name, name, draft, prerelease, created_at, published_at, author)
                               VALUES (@id, @tag_name, @name, @draft, @prerelease, @created_at, @published_at, @author)`);
    for (const r of releaseSeed(dataset)) insert.run({ ...r, draft: sqlFlag(r.draft), prerelease: sqlFlag(r.prerelease) });
  };
}

// -- handlers ---------------------------------------------------------------------------------------

type ReleaseRow = Omit<Release, "draft" | "prerelease"> & { draft: 0 | 1; prerelease: 0 | 1 };

function releaseOf(row: ReleaseRow): Release {
  return { ...row, draft: row.draft === 1, prerelease: row.prerelease === 1 };
}

/** Drafts exist only for callers who may write releases. */
function visibleTo(ctx: HandlerContext): Sql {
  return ctx.caller.hasScope(DRAFTS_SCOPE) ? MATCH_ALL : condition("draft = 0");
}

/**
 * list_releases' tag_prefix: a case-sensitive prefix of tag_name. The seeded defects
 * prefix-ignores-case and prefix-matches-substring break exactly that promise.
 */
function tagPrefix(ctx: HandlerContext, prefix: string | undefined): Sql | null {
  if (prefix === undefined) return null;
  if (ctx.seededDefect === "prefix-ignores-case") return condition("lower(substr(tag_name, 1, length(?))) = lower(?)", prefix, prefix);
  if (ctx.seededDefect === "prefix-matches-substring") return condition("instr(tag_name, ?) > 0", prefix);
  return startsWith("tag_name", prefix);
}

interface ListInput {
  draft?: boolean;
  prerelease?: boolean;
  tag_prefix?: string;
  published_after?: string;
}

const CURSORS: CursorPolicy = { ttlMs: RELEASE_CURSOR_TTL_MS, expiredCode: "CURSOR_EXPIRED" };

export interface ReleasesServerOptions extends ExampleServerOptions {
  /** Which releases to seed (default "default"). */
  readonly dataset?: ReleaseDataset;
  /** Bound on releases examined per count_stable_releases call (default 10000, as the contract says). */
  readonly countMaxExamined?: number;
}

function releaseHandlers(options: ReleasesServerOptions): Handlers {
  return {
    list_releases(input: ListInput, ctx: HandlerContext) {
      return listPage<ReleaseRow>(
        ctx,
        input,
        {
          table: "releases",
          where: allOf(
            visibleTo(ctx),
            equals("draft", input.draft),
            equals("prerelease", input.prerelease),
            tagPrefix(ctx, input.tag_prefix),
            // Drafts have no published_at (NULL), so any published_after excludes them.
            greaterThan("published_at", utcInstant(ctx, "published_after", input.published_after)),
          ),
          orderBy: [
            { column: "created_at", direction: "desc" },
            { column: "id", direction: "asc" },
          ],
          toItem: releaseOf,
        },
        CURSORS,
      );
    },

    count_stable_releases(input: { tag_prefix?: string }, ctx: HandlerContext) {
      const progress = countScan(
        ctx,
        input,
        // tag_prefix narrows what is examined; the stable predicate decides what is counted.
        { table: "releases", examined: allOf(visibleTo(ctx), startsWith("tag_name", input.tag_prefix)), counted: condition("draft = 0 AND prerelease = 0"), key: "id" },
        { ...CURSORS, maxExaminedPerCall: options.countMaxExamined ?? RELEASE_COUNT_MAX_EXAMINED },
      );
      return { count: progress.counted, ...taskFields(ctx.operation, progress) };
    },

    get_release(input: { release_id: number }, ctx: HandlerContext): Release {
      const visible = visibleTo(ctx);
      const row = ctx.db.prepare(`SELECT * FROM releases WHERE id = ? AND ${visible.text}`).get(input.release_id, ...visible.params) as ReleaseRow | undefined;
      if (!row) throw new PlatformError("RELEASE_NOT_FOUND", `No release ${input.release_id} is visible to this caller.`);
      return releaseOf(row);
    },
  };
}

/** Start the releases platform on 127.0.0.1, seeded with releaseSeed(options.dataset ?? "default"). */
export function startReleasesServer(options: ReleasesServerOptions = {}): Promise<RunningPlatform> {
  const dataset = options.dataset ?? "default";
  return startExample({ spec: RELEASES_SPEC, schema: SCHEMA, dataset, seed: seeder(dataset), handlers: releaseHandlers(options) }, options);
}
