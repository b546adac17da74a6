/**
 * Reference implementation of the bookshelf API: specs/openapi/bookshelf.yaml (the API team's
 * OpenAPI 3.1 document) with specs/openapi/bookshelf.overlay.yaml (its behaviour as x-contract),
 * imported in memory as every command reads them. Books live in SQLite; the shared host applies the
 * behaviour the overlay declares — the idempotency key of create_book, the expected_revision
 * precondition of rename_book (REVISION_CONFLICT), preview/confirm of delete_book
 * (CONFIRMATION_REQUIRED), pages with a total — so the handlers hold only the domain logic.
 */
import { randomBytes } from "node:crypto";
import type { Confirmation, HandlerContext, Handlers, RunningPlatform } from "../shared/host.js";
import { PlatformError } from "../shared/host.js";
import { type ExampleServerOptions, startExample } from "../shared/example.js";
import { listPage } from "../shared/paging.js";
import { allOf, equals } from "../shared/sql.js";
import type { Database } from "../shared/sqlite.js";

/** The OpenAPI document and its overlays, relative to the package root. */
export const BOOKSHELF_SPEC = "specs/openapi/bookshelf.yaml";
export const BOOKSHELF_OVERLAYS: readonly string[] = ["specs/openapi/bookshelf.overlay.yaml"];

/** The document's error code for an unknown book (its 404 response, named by the import). */
export const BOOK_NOT_FOUND = "NOT_FOUND";

export interface Book {
  id: string;
  title: string;
  author: string;
  pages?: number;
  /** Starts at 1; goes up by one on every change. */
  revision: number;
}

export type BookshelfDataset = "default" | "empty";

export const BOOKSHELF_DATASETS: readonly BookshelfDataset[] = ["default", "empty"];

/** The seeded books, in shelf order (list_books order): five, so pages of 2 make 3 pages. */
export const BOOKSHELF_SEED_BOOKS: readonly Book[] = [
  { id: "bk_dune65", title: "Dune", author: "Frank Herbert", pages: 412, revision: 1 },
  { id: "bk_emma15", title: "Emma", author: "Jane Austen", pages: 474, revision: 1 },
  { id: "bk_persua17", title: "Persuasion", author: "Jane Austen", pages: 249, revision: 1 },
  { id: "bk_hobbit37", title: "The Hobbit", author: "J. R. R. Tolkien", pages: 310, revision: 1 },
  // No page count: pages is optional.
  { id: "bk_zine2024", title: "Shelf Notes", author: "Anonymous", revision: 1 },
];

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS books (
    seq      INTEGER PRIMARY KEY AUTOINCREMENT, -- shelf order: the order books were put on it
    id       TEXT    NOT NULL UNIQUE,
    title    TEXT    NOT NULL,
    author   TEXT    NOT NULL,
    pages    INTEGER,
    revision INTEGER NOT NULL CHECK (revision >= 1)
  );
  -- Only the seeded defect deleted-book-still-listed writes here (a delete that archives) and lists through the view.
  CREATE TABLE IF NOT EXISTS archived_books (
    seq      INTEGER PRIMARY KEY,
    id       TEXT    NOT NULL UNIQUE,
    title    TEXT    NOT NULL,
    author   TEXT    NOT NULL,
    pages    INTEGER,
    revision INTEGER NOT NULL
  );
  CREATE VIEW IF NOT EXISTS books_with_archived AS SELECT * FROM books UNION ALL SELECT * FROM archived_books;`;

function seed(db: Database): void {
  const insert = db.prepare("INSERT INTO books (id, title, author, pages, revision) VALUES (@id, @title, @author, @pages, @revision)");
  for (const book of BOOKSHELF_SEED_BOOKS) insert.run({ pages: null, ...book });
}

// -- handlers ---------------------------------------------------------------------------------------

interface BookRow {
  seq: number;
  id: string;
  title: string;
  author: string;
  pages: number | null;
  revision: number;
}

function bookOf(row: BookRow): Book {
  return { id: row.id, title: row.title, author: row.author, ...(row.pages === null ? {} : { pages: row.pages }), revision: row.revision };
}

/** `bk_` and 10 lowercase alphanumerics (the document's pattern asks for 6 or more). */
function newBookId(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return `bk_${[...randomBytes(10)].map((b) => alphabet[b % alphabet.length]).join("")}`;
}

/**
 * The seeded defect deleted-book-still-readable: get_book answers from this cache of the books it
 * read (per platform database), which a rename clears and a delete forgets to.
 */
const readCaches = new WeakMap<Database, Map<string, BookRow>>();

function cachedBook(db: Database, id: string): BookRow {
  let cache = readCaches.get(db);
  if (!cache) readCaches.set(db, (cache = new Map()));
  const row = cache.get(id) ?? requireBook(db, id);
  cache.set(id, row);
  return row;
}

function requireBook(db: Database, id: string): BookRow {
  const row = db.prepare("SELECT * FROM books WHERE id = ?").get(id) as BookRow | undefined;
  if (!row) throw new PlatformError(BOOK_NOT_FOUND, `No book ${id} is on the shelf.`, { field: "book_id" });
  return row;
}

interface CreateBookInput {
  idempotency_key: string;
  title: string;
  author: string;
  pages?: number;
}

interface RenameBookInput {
  book_id: string;
  title: string;
  expected_revision: number;
}

interface DeleteBookInput {
  book_id: string;
  dry_run?: boolean;
  confirm_token?: string;
}

const handlers: Handlers = {
  list_books(input: { author?: string }, ctx: HandlerContext) {
    return listPage<BookRow>(
      ctx,
      input,
      {
        // Seeded defect deleted-book-still-listed: the list also shows the books a delete archived.
        table: ctx.seededDefect === "deleted-book-still-listed" ? "books_with_archived" : "books",
        where: allOf(equals("author", input.author)),
        orderBy: [{ column: "seq", direction: "asc" }],
        toItem: bookOf,
      },
      // The document sets no cursor lifetime.
      { ttlMs: null, expiredCode: null },
    );
  },

  create_book(input: CreateBookInput, ctx: HandlerContext): Book {
    // The host journals the idempotency key: a retry under it replays this outcome instead of calling here.
    const id = newBookId();
    ctx.db.prepare("INSERT INTO books (id, title, author, pages, revision) VALUES (?, ?, ?, ?, 1)").run(id, input.title, input.author, input.pages ?? null);
    return bookOf(requireBook(ctx.db, id));
  },

  get_book(input: { book_id: string }, ctx: HandlerContext): Book {
    return bookOf(ctx.seededDefect === "deleted-book-still-readable" ? cachedBook(ctx.db, input.book_id) : requireBook(ctx.db, input.book_id));
  },

  rename_book: {
    // The host compares expected_revision with this book's revision in the rename's transaction.
    target: (input: RenameBookInput, ctx: HandlerContext): BookRow => requireBook(ctx.db, input.book_id),
    // Natural idempotency: renaming to the current title changes nothing, so a retry after a lost response succeeds.
    unchanged: (input: RenameBookInput, current: BookRow): boolean => input.title === current.title,
    execute(input: RenameBookInput, ctx: HandlerContext, current: BookRow): Book {
      if (input.title !== current.title) ctx.db.prepare("UPDATE books SET title = ?, revision = revision + 1 WHERE id = ?").run(input.title, current.id);
      readCaches.get(ctx.db)?.delete(current.id);
      return bookOf(requireBook(ctx.db, current.id));
    },
  },

  delete_book: {
    target: (input: DeleteBookInput, ctx: HandlerContext): BookRow =>
      // Seeded defect: a book already gone is "deleted" again (previews still call requireBook).
      ctx.seededDefect === "delete-missing-succeeds"
        ? ((ctx.db.prepare("SELECT * FROM books WHERE id = ?").get(input.book_id) as BookRow | undefined) ?? { seq: 0, id: input.book_id, title: "(deleted)", author: "(unknown)", pages: null, revision: 1 })
        : requireBook(ctx.db, input.book_id),
    preview(input: DeleteBookInput, ctx: HandlerContext, confirmation: Confirmation) {
      return { book: bookOf(requireBook(ctx.db, input.book_id)), deleted: false, confirm_token: confirmation.token, expires_at: confirmation.expiresAt };
    },
    execute(input: DeleteBookInput, ctx: HandlerContext, current: BookRow) {
      const book = bookOf(ctx.seededDefect === "delete-missing-succeeds" ? current : requireBook(ctx.db, input.book_id));
      if (ctx.seededDefect === "deleted-book-still-listed") ctx.db.prepare("INSERT INTO archived_books SELECT * FROM books WHERE id = ?").run(book.id);
      ctx.db.prepare("DELETE FROM books WHERE id = ?").run(book.id);
      return { book, deleted: true };
    },
  },
};

export interface BookshelfServerOptions extends ExampleServerOptions {
  /** "default" seeds BOOKSHELF_SEED_BOOKS; "empty" seeds nothing. */
  readonly dataset?: BookshelfDataset;
}

/** Start the bookshelf platform on 127.0.0.1 (its url ends in the document's base path, /v1). */
export function startBookshelfServer(options: BookshelfServerOptions = {}): Promise<RunningPlatform> {
  const dataset = options.dataset ?? "default";
  return startExample(
    { spec: BOOKSHELF_SPEC, overlays: BOOKSHELF_OVERLAYS, schema: SCHEMA, dataset, seed: dataset === "empty" ? () => undefined : seed, handlers },
    options,
  );
}
