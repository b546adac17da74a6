// The seed labs through code mode (issue 43): a scripted agent that knows each platform only
// through its generated MCP server in `--mode code` — the two tools' catalogue, what search_docs
// answers (signatures, documentation, types), and what its programs return from execute. It stands
// in for a model: it reads the method and the input fields from the docs, never from this file, and
// counts the tokens of everything it reads and sends. Used by test/e2e/code-mode-labs.test.ts and by
// bench/code-mode.mjs.

/** The docs did not say what the agent needed: the lab fails here, naming what was missing. */
export class CodeGap extends Error {}

/** The fields an interface of the docs' types declares (`name?: Type;` at its first level). */
export function declaredFields(types, name) {
  const start = types.indexOf(`export interface ${name} {`);
  if (start < 0) return new Set();
  const fields = new Set();
  let depth = 0;
  for (const line of types.slice(start).split("\n").slice(1)) {
    if (depth === 0 && /^\s*}/.test(line)) break;
    const field = depth === 0 ? /^\s*(?:readonly\s+)?("?)([A-Za-z_$][\w$]*)\1\??:/.exec(line) : null;
    if (field) fields.add(field[2]);
    depth += (line.match(/{/g) ?? []).length - (line.match(/}/g) ?? []).length;
  }
  return fields;
}

export class CodeAgent {
  /** `client`: a connected MCP client of a server in code mode; `countTokens`: the tokenizer. */
  constructor({ client, countTokens }) {
    this.client = client;
    this.countTokens = countTokens;
    this.tokens = { catalogue: 0, calls: 0, results: 0 };
    this.executes = 0;
    this.searches = 0;
  }

  /** The catalogue the model loads: the tools and the server's instructions. */
  async open() {
    const { tools } = await this.client.listTools();
    const instructions = this.client.getInstructions() ?? "";
    this.tools = tools.map((t) => t.name);
    this.tokens.catalogue = this.countTokens(JSON.stringify({ tools })) + this.countTokens(instructions);
    return this.tools;
  }

  async call(name, args) {
    this.tokens.calls += this.countTokens(JSON.stringify({ name, arguments: args }));
    const result = await this.client.callTool({ name, arguments: args });
    const text = result.content[0]?.text ?? "";
    this.tokens.results += this.countTokens(text);
    return { isError: result.isError === true, json: JSON.parse(text) };
  }

  /** search_docs: the first page of entries for `query`. */
  async search(query, limit) {
    this.searches++;
    const { isError, json } = await this.call("search_docs", { query, ...(limit ? { limit } : {}) });
    if (isError) throw new CodeGap(`search_docs failed: ${JSON.stringify(json)}`);
    return json.results;
  }

  /** execute: the program's result, or its error (with the SDK error it threw, if any). */
  async execute(code) {
    this.executes++;
    return this.call("execute", { code });
  }

  get totalTokens() {
    return this.tokens.catalogue + this.tokens.calls + this.tokens.results;
  }
}

/** An entry's methods: the operation's call and its variants (preview, traversal), with their signatures. */
const methodsOf = (entry) => [{ method: entry.method, signature: entry.signature }, ...(entry.variants ?? [])];

/**
 * The method (a traversal, or a plain call) whose input declares every one of `fields`, from the
 * docs, best match first; a brief result is read whole only when the ones before it did not do.
 */
async function pick(agent, results, { traversal, fields, query }) {
  for (const found of results) {
    // A brief result is read whole by searching its method's name.
    const entry = found.brief ? (await agent.search(found.method, 1))[0] : found;
    if (!entry || entry.brief) continue;
    const declarations = entry.types;
    for (const m of methodsOf(entry)) {
      if (m.method.startsWith("preview")) continue;
      if (traversal !== undefined && /\bbounds: TraversalBounds\b/.test(m.signature) !== traversal) continue;
      const input = /\(input: (?:[A-Za-z]+<)*T\.([A-Za-z0-9_$]+)/.exec(m.signature)?.[1];
      const declared = input ? declaredFields(declarations, input) : new Set();
      if (fields.every((f) => declared.has(f))) return { entry: m, declared };
    }
  }
  throw new CodeGap(`no method in search_docs' answer to ${JSON.stringify(query)} takes ${fields.join(", ")}`);
}

const INCIDENT_FILTER = { status: "open", severity: "P1", service: "checkout", environment: "production" };

/**
 * The incident lab: which open P1 incidents hit checkout in production, with owner and evidence.
 * One search, then one program that reads every page within its bound and filters in the program;
 * an answer the traversal says is incomplete is continued from its continuation in a later run.
 */
export async function incidentLabCode(agent, { maxPages = 10, limit } = {}) {
  await agent.open();
  const query = "list incidents filtered by status, severity, service and environment";
  const { entry, declared } = await pick(agent, await agent.search(query), { traversal: true, fields: Object.keys(INCIDENT_FILTER), query });
  const input = { ...INCIDENT_FILTER, ...(declared.has("fields") ? { fields: ["id", "owner", "evidence_ref"] } : {}), ...(limit ? { limit } : {}) };
  const answer = [];
  let continuations = 0;
  let resume = null;
  for (;;) {
    const bounds = { maxPages, ...(resume !== null ? { resumeFrom: resume } : {}) };
    // A cursor traversal resumes from its cursor input field; the other styles from resumeFrom.
    const cursorInput = resume !== null && declared.has("cursor") ? { ...input, cursor: resume } : input;
    const run = await agent.execute(
      [
        `const r = await client.${entry.method}(${JSON.stringify(cursorInput)}, ${JSON.stringify(declared.has("cursor") ? { maxPages } : bounds)}).collect();`,
        "return { complete: r.complete, reasons: r.reasons, continuation: r.continuation, incidents: r.items.map((i) => ({ id: i.id, owner: i.owner, evidence_ref: i.evidence_ref })) };",
      ].join("\n"),
    );
    if (run.isError) throw new CodeGap(`the program failed: ${JSON.stringify(run.json)}`);
    answer.push(...run.json.result.incidents);
    if (run.json.result.complete) break;
    if (run.json.result.continuation === null) throw new CodeGap(`incomplete with no continuation: ${run.json.result.reasons.join("; ")}`);
    continuations++;
    resume = run.json.result.continuation;
  }
  return { answer: answer.sort((a, b) => a.id.localeCompare(b.id)), continuations };
}

/** The release count: how many stable releases; the program continues while the answer says it is not whole. */
export async function releaseCountLabCode(agent) {
  await agent.open();
  const query = "how many stable releases are there";
  const { entry } = await pick(agent, await agent.search(query), { traversal: false, fields: ["continuation"], query });
  const run = await agent.execute(
    [
      `let r = await client.${entry.method}({});`,
      "let calls = 1;",
      `while (!r.complete && r.continuation !== null && calls < 50) { r = await client.${entry.method}({ continuation: r.continuation }); calls++; }`,
      "return { count: r.count, complete: r.complete, calls };",
    ].join("\n"),
  );
  if (run.isError) throw new CodeGap(`the program failed: ${JSON.stringify(run.json)}`);
  if (!run.json.result.complete) throw new CodeGap("the count is not complete");
  return { answer: run.json.result.count, continuations: run.json.result.calls - 1 };
}

/**
 * The refund flow: refund `amount` cents of `invoiceId`. A first program previews and returns the
 * preview (the user sees it); a later one confirms with the preview's token; the same confirming
 * program again, as after a lost answer, gets the recorded refund (the key makes it one effect).
 * A program that previews and confirms in one go is refused first, as the tool's description warns.
 */
export async function refundLabCode(agent, { invoiceId = "inv_1001", amount = 1000 } = {}) {
  await agent.open();
  const query = "refund an invoice";
  const results = await agent.search(query);
  // The operation with a preview: its entry names the call and, as a variant, the preview (a brief
  // entry by name only: it is read whole by searching its method's name).
  const variantNames = (r) => (r.variants ?? []).map((v) => (typeof v === "string" ? v : v.method));
  const found = results.find((r) => variantNames(r).some((v) => v.startsWith("preview")));
  if (!found) throw new CodeGap("search_docs shows no operation with a preview for the refund");
  const call = found.brief ? (await agent.search(found.method, 1))[0] : found;
  const preview = call.variants.find((v) => v.method.startsWith("preview"));
  const tokenField = /\b(confirm_token|confirmToken)\b/.exec(call.signature + call.doc)?.[1];
  if (!tokenField) throw new CodeGap(`${call.method}: the docs do not name the confirm token field`);
  const input = { invoice_id: invoiceId, amount };
  const oneGo = await agent.execute(
    `const p = await client.${preview.method}(${JSON.stringify(input)});\nreturn await client.${call.method}({ ...${JSON.stringify(input)}, ${tokenField}: p.${tokenField} });`,
  );
  const previewed = await agent.execute(`return await client.${preview.method}(${JSON.stringify(input)});`);
  if (previewed.isError) throw new CodeGap(`the preview failed: ${JSON.stringify(previewed.json)}`);
  const token = previewed.json.result[tokenField];
  const confirmProgram = `return await client.${call.method}({ ...${JSON.stringify(input)}, ${tokenField}: ${JSON.stringify(token)} });`;
  const confirmed = await agent.execute(confirmProgram);
  if (confirmed.isError) throw new CodeGap(`the confirmation failed: ${JSON.stringify(confirmed.json)}`);
  const retried = await agent.execute(confirmProgram);
  if (retried.isError) throw new CodeGap(`the retry failed: ${JSON.stringify(retried.json)}`);
  return { oneGo: oneGo.json, preview: previewed.json.result, answer: confirmed.json.result, retried: retried.json.result };
}
