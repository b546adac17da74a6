#!/usr/bin/env node
// Writes the "Seed data" section of docs/examples.md from the reference platforms' own seed sources
// (examples/*/server.ts, built into dist/): the records each platform starts with, so the values a
// reader tries (an invoice id, an incident, a release) are the ones the platform holds. Never typed
// by hand, so the page cannot drift from the seeds.
//
//   node scripts/docs-seeds.mjs           rewrite the section (after npm run build)
//   node scripts/docs-seeds.mjs --check   exit 1 when the section differs from what it would write
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "docs", "examples.md");
const START = "<!-- seeds:start (written by scripts/docs-seeds.mjs from examples/*/server.ts; do not edit) -->";
const END = "<!-- seeds:end -->";

const load = (path) => import(pathToFileURL(join(root, "dist", path)).href);

/** A Markdown table cell: pipes and line breaks would break the row. */
const cell = (value) => (value === undefined || value === null ? "—" : String(value).replaceAll("|", "\\|").replace(/\s+/g, " "));
const table = (headers, rows) => [`| ${headers.join(" | ")} |`, `|${headers.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`)].join("\n");

/** The port a platform listens on by default: its contract's base URL's (examples/shared/cli.ts). */
async function defaultPort(spec, overlays = []) {
  const { loadExampleContract } = await load("examples/shared/example.js");
  const model = await loadExampleContract(spec, overlays);
  return { port: new URL(model.transport.baseUrl).port || "0", path: new URL(model.transport.baseUrl).pathname.replace(/\/$/, "") };
}

async function section() {
  const billing = await load("examples/billing/server.js");
  const incidents = await load("examples/incidents/server.js");
  const releases = await load("examples/releases/server.js");
  const bookshelf = await load("examples/bookshelf/server.js");
  const out = [];

  const b = await defaultPort(billing.BILLING_SPEC);
  out.push(`### billing (\`${billing.BILLING_SPEC}\`, port ${b.port})`, "");
  out.push(`Customers (\`BILLING_SEED_CUSTOMERS\`; \`list_customers\` returns them newest first):`, "");
  out.push(table(["id", "email", "name", "created_at"], billing.BILLING_SEED_CUSTOMERS.map((c) => [`\`${c.id}\``, c.email, c.name, c.created_at])), "");
  out.push(`Invoices (\`BILLING_SEED_INVOICES\`; amounts in cents, refundable = total − refunded):`, "");
  out.push(
    table(
      ["id", "customer", "status", "total_cents", "refunded_cents", "refundable", "currency"],
      billing.BILLING_SEED_INVOICES.map((i) => [`\`${i.id}\``, `\`${i.customer_id}\``, i.status, i.total_cents, i.refunded_cents, i.total_cents - i.refunded_cents, i.currency]),
    ),
    "",
  );

  const inc = await defaultPort(incidents.INCIDENTS_SPEC);
  const seed = incidents.incidentSeed();
  const facts = incidents.INCIDENT_SEED_FACTS;
  out.push(`### incidents (\`${incidents.INCIDENTS_SPEC}\`, port ${inc.port})`, "");
  out.push(
    `${seed.length} incidents, \`${seed[0].id}\` to \`${seed.at(-1).id}\` (\`incidentSeed()\`), ${facts.pages} pages unfiltered; ` +
      `the open P1 checkout incidents in production (\`OPEN_P1_CHECKOUT_PRODUCTION\`) are ${incidents.OPEN_P1_CHECKOUT_PRODUCTION.map((id) => `\`${id}\``).join(" and ")}. ` +
      `Assignable teams (\`INCIDENT_TEAMS\`): ${incidents.INCIDENT_TEAMS.map((t) => `\`${t}\``).join(", ")}. ` +
      `Those two and their near misses (\`NEAR_MISS_INCIDENTS\`, each failing exactly one of the four filters):`,
    "",
  );
  const named = new Set([...incidents.OPEN_P1_CHECKOUT_PRODUCTION, ...incidents.NEAR_MISS_INCIDENTS]);
  out.push(table(["id", "status", "severity", "service", "environment", "owner", "revision", "title"], seed.filter((i) => named.has(i.id)).map((i) => [`\`${i.id}\``, i.status, i.severity, i.service, i.environment, i.owner, i.revision, i.title])), "");

  const rel = await defaultPort(releases.RELEASES_SPEC);
  out.push(`### releases (\`${releases.RELEASES_SPEC}\`, port ${rel.port})`, "");
  out.push(`One data set per \`--dataset\` (\`releaseSeed(dataset)\`, \`RELEASE_FACTS\`; \`list_releases\` returns them newest first):`, "");
  out.push(
    table(
      ["data set", "releases", "drafts", "stable", "ids", "tags"],
      releases.RELEASE_DATASETS.map((d) => {
        const list = releases.releaseSeed(d);
        const f = releases.RELEASE_FACTS[d];
        return [d, f.releases, f.drafts, f.stable, list.length ? `\`${list[0].id}\` to \`${list.at(-1).id}\`` : "—", list.length ? `\`${list[0].tag_name}\` to \`${list.at(-1).tag_name}\`` : "—"];
      }),
    ),
    "",
  );

  const bk = await defaultPort(bookshelf.BOOKSHELF_SPEC, bookshelf.BOOKSHELF_OVERLAYS);
  out.push(`### bookshelf (\`${bookshelf.BOOKSHELF_SPEC}\` with \`${bookshelf.BOOKSHELF_OVERLAYS.join("`, `")}\`, port ${bk.port}, under \`${bk.path}\`)`, "");
  out.push(`Books (\`BOOKSHELF_SEED_BOOKS\`, in shelf order):`, "");
  out.push(table(["id", "title", "author", "pages", "revision"], bookshelf.BOOKSHELF_SEED_BOOKS.map((k) => [`\`${k.id}\``, k.title, k.author, k.pages, k.revision])), "");
  return out.join("\n");
}

const page = readFileSync(target, "utf8");
const from = page.indexOf(START);
const to = page.indexOf(END);
if (from < 0 || to < from) {
  console.error(`${target}: no ${START} … ${END} markers`);
  process.exit(2);
}
const next = `${page.slice(0, from + START.length)}\n\n${await section()}\n${page.slice(to)}`;
if (process.argv.includes("--check")) {
  if (next !== page) {
    console.error("docs/examples.md: the seed data section is stale; run node scripts/docs-seeds.mjs (after npm run build)");
    process.exit(1);
  }
  console.log("docs/examples.md: seed data up to date");
} else {
  writeFileSync(target, next);
  console.log("wrote the seed data section of docs/examples.md");
}
