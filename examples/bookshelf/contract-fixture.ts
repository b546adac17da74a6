/** The generated contract suite's fixture for the bookshelf reference platform (test/examples/bookshelf.test.ts). */
import { platformFixture } from "../shared/contract-fixture.js";
import { BOOK_NOT_FOUND, BOOKSHELF_OVERLAYS, BOOKSHELF_SPEC, startBookshelfServer } from "./server.js";

/** Well formed (^bk_[a-z0-9]{6,}$) but never seeded nor created. */
const UNKNOWN_BOOK = "bk_nobody404";

export const fixture = platformFixture({
  spec: BOOKSHELF_SPEC,
  overlays: BOOKSHELF_OVERLAYS,
  start: startBookshelfServer,
  tables: ["books"],
  // The seeded books are already mixed (authors with one book and with two, a book without a page count).
  datasets: { empty: "empty", mixed: "default" },
  samples(operation, variant) {
    switch (operation) {
      case "list_books":
        return variant === 0 ? {} : { author: "Jane Austen" };
      case "create_book":
        return variant === 0 ? { title: "Middlemarch", author: "George Eliot", pages: 880 } : { title: "Beloved", author: "Toni Morrison" };
      case "get_book":
        return variant === 0 ? { book_id: "bk_dune65" } : { book_id: "bk_zine2024" };
      case "rename_book":
        return variant === 0 ? { book_id: "bk_dune65", title: "Dune (50th anniversary edition)", expected_revision: 1 } : undefined;
      case "delete_book":
        return variant === 0 ? { book_id: "bk_hobbit37" } : { book_id: "bk_emma15" };
      default:
        return undefined;
    }
  },
  errors(operation, code) {
    switch (`${operation} ${code}`) {
      case `get_book ${BOOK_NOT_FOUND}`:
        return { book_id: UNKNOWN_BOOK };
      case `rename_book ${BOOK_NOT_FOUND}`:
        return { book_id: UNKNOWN_BOOK, title: "Nothing", expected_revision: 1 };
      case "rename_book REVISION_CONFLICT":
        // Every seeded book is at revision 1.
        return { book_id: "bk_dune65", title: "Dune Messiah", expected_revision: 2 };
      case `delete_book ${BOOK_NOT_FOUND}`:
        return { book_id: UNKNOWN_BOOK };
      default:
        return undefined;
    }
  },
});
