#!/usr/bin/env node
/** Serve the bookshelf reference platform: node dist/examples/bookshelf/main.js --port 4031 --dataset default (it serves under /v1). */
import { runExampleCli } from "../shared/cli.js";
import { BOOKSHELF_DATASETS, BOOKSHELF_OVERLAYS, BOOKSHELF_SPEC, type BookshelfDataset, startBookshelfServer } from "./server.js";

await runExampleCli({
  spec: BOOKSHELF_SPEC,
  overlays: BOOKSHELF_OVERLAYS,
  start: startBookshelfServer,
  extraOptions: { dataset: `books to seed: ${BOOKSHELF_DATASETS.join(", ")} (default: default)` },
  extra: (values) => {
    const dataset = values.dataset ?? "default";
    if (!(BOOKSHELF_DATASETS as readonly string[]).includes(dataset)) throw new Error(`--dataset must be one of ${BOOKSHELF_DATASETS.join(", ")}`);
    return { dataset: dataset as BookshelfDataset };
  },
});
