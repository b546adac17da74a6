/**
 * The review report of an OpenAPI import: everything the importer could not decide, guessed, or had
 * to drop, each item located by a JSON pointer into the OpenAPI document. Nothing is dropped silently.
 */

/** Every kind of review item, with the sentence the Markdown report puts above its list. */
export const REVIEW_KINDS = {
  "method-unsupported": "Operations dropped: the contract format has no HEAD, OPTIONS or TRACE operations.",
  "route-duplicate": "Operations dropped: same method and path shape as an earlier operation (parameter names differ only).",
  "name-derived": "Operation names derived from method and path (no operationId).",
  "name-shortened": "Operation names shortened to 64 characters.",
  "name-collision": "Operation names that collided once converted; a numeric suffix keeps them unique.",
  "type-renamed": "Schema names changed to fit the contract's type names (characters, uniqueness).",
  "tags-selected": "Only the operations with the tags asked for (`--tag`) were imported, with the types they reach.",
  "type-from-ref": "Schemas referred to by a pointer into another schema (not a component), used more than once or inside themselves: each became a type.",
  "summary-derived": "Summaries taken from the description or built from method and path.",
  "parameter-dropped": "Parameters dropped: duplicates, names the contract cannot carry, or headers the transport sets itself.",
  "parameter-style-dropped": "Parameter styles not defined for the parameter's location: the location's default style is used.",
  "field-renamed": "Input fields renamed because they collided with another parameter or body field.",
  "body-not-json": "Request bodies dropped: no JSON, form-urlencoded or multipart media type (binary, XML…). The operation cannot send them.",
  "encoding-narrowed": "Multipart parts that allow several media types: the first is sent.",
  "body-wrapped": "Request bodies kept whole under one input field (`http.body`): not an object, or a property collides with a parameter.",
  "response-not-json": "Success responses without a JSON media type: the operation asks for that type (`http.accept`) and returns text, or base64 text for other types; or, when JSON and other types are mixed, the output accepts any value.",
  "response-body-ignored": "Bodies declared on 204/205 responses, which carry none: the output is null for them.",
  "success-status-assumed": "No explicit 2xx response: the success response was taken from `default` or `2XX`.",
  "error-range-dropped": "Error responses given as a range (4XX, 5XX), or a `default` beside declared error statuses: not mapped to error codes.",
  "error-codes-read": "Error codes the document names (a code member's enum, const or examples; backticked codes in a response description) that the import could not assign as written.",
  "error-default-read": "Operations whose errors are a `default` response alone: read as the API's error shape, with contract-wide codes.",
  "error-class-guessed": "Error classes guessed for statuses without a conventional class.",
  "error-taxonomy-default": "The document declares no error response; a generic error code was added.",
  "idempotency-retention-assumed": "Idempotency keys mapped with an assumed retention of 24h.",
  "idempotency-key-optional": "Idempotency-Key headers the document makes optional: declared as the operation key with `keyRequired: false` (the platform takes a call without one as a separate intent); the generated callers mint one when the caller gives none.",
  "sunset-unreadable": "`x-sunset` values that are not a date: the operation, parameter or property is deprecated without a sunset date.",
  "stability-unreadable": "`x-stability-level` values other than draft, alpha, beta or stable: the operation is read as stable.",
  "pagination-detected": "Pagination detected from parameter and field names: check style and fields.",
  "pagination-max-unknown": "Paginated operations whose page size has no declared maximum.",
  "pagination-undecided": "Operations that look paginated but whose style could not be decided: left unpaginated.",
  "auth-unsupported": "Security schemes the contract cannot express (mutual TLS, digest, undeclared schemes, two schemes in one place…).",
  "auth-assumed": "Security schemes mapped with an assumption (OAuth2/OpenID Connect tokens sent as bearer tokens; optional credentials imported as none).",
  "toolset-first-tag": "Operations with several tags: only the first becomes the toolset.",
  "base-url-placeholder": "Base URL built from server variables, or a placeholder where none is absolute.",
  "header-derived": "Contract header fields derived or defaulted (name, version, changelog date).",
  "callbacks-dropped": "Callbacks, webhooks and links dropped: the format describes only calls to the platform.",
  "keyword-dropped": "Schema keywords dropped: not JSON Schema 2020-12, or not checkable (discriminator, xml, unknown formats, patterns that are not ECMAScript…).",
  "ref-unresolved": "References that could not be followed ($dynamicRef, a plain-name $anchor, a reference that recurses into itself without being a component): the values they describe are not checked (`{}`).",
  "ref-cycle-broken": "Schemas that include themselves through allOf/anyOf/oneOf/not and $ref alone, with nothing in between that describes a part of the value (validators loop on them; TypeScript cannot type them): the $ref that closes the loop was dropped.",
  "error-bodies-dropped": "Error response bodies: the contract's error envelope replaces them.",
  "error-format-derived": "How the API reports errors (`transport.http.errorFormat`), derived from its error responses: problem details, a code in its own body, or the status alone.",
  "x-contract-invalid": "`x-contract` extensions ignored: not a mapping (of contract fields, operation fields, taxonomy entry fields or schema keywords), or in a place the import does not read (it reads them on operations, 4xx/5xx responses, schemas and the document root).",
  "openapi-problem": "Problems the OpenAPI validator (@redocly/openapi-core, structural rules) reported; the import went on.",
} as const;

export type ReviewKind = keyof typeof REVIEW_KINDS;

/**
 * What to do about an item of each kind: the report says it under the kind's heading and with every
 * item in its JSON. Each settles it in the document (or an overlay beside it), so a re-import keeps it.
 */
const REVIEW_ACTIONS: Readonly<Record<string, string>> = {
  "method-unsupported": "Nothing, unless an agent needs the operation: then declare it as another method in the document.",
  "route-duplicate": "Keep one of the two operations, or give them distinct path shapes.",
  "name-derived": "Give the operation an operationId (the name every adapter shows).",
  "name-shortened": "Give the operation a shorter operationId.",
  "name-collision": "Give the operations operationIds that stay distinct in snake_case.",
  "type-renamed": "Nothing, or rename the schema; in x-contract, name it #/types/<the new name> or #/components/schemas/<its name>.",
  "tags-selected": "Nothing: import the other tags into contracts of their own.",
  "type-from-ref": "Move the schema into components/schemas under a name of your choice and refer to it there.",
  "summary-derived": "Give the operation a one-line summary (tool and command descriptions start with it).",
  "parameter-dropped": "Rename or remove the parameter, or leave the header to the transport.",
  "parameter-style-dropped": "Use a style defined for the parameter's location, or remove style.",
  "field-renamed": "Rename the parameter or the body property so the two differ.",
  "body-not-json": "Add a JSON (or form) media type to the request body, or accept that the operation sends none.",
  "encoding-narrowed": "Name one media type for the part in encoding.contentType.",
  "body-wrapped": "Nothing, or make the body an object whose properties differ from the parameters.",
  "response-not-json": "Add a JSON media type to the success response, or check that text is what callers get.",
  "response-body-ignored": "Remove the content from the 204/205 response, or answer 200.",
  "success-status-assumed": "Declare the success response under its 2xx status.",
  "error-range-dropped": "Declare the statuses the API answers one by one (400, 404, 409…), each with its x-contract code.",
  "error-codes-read": "Name the code for the status in the response's x-contract (code: NAME).",
  "error-default-read": "Declare the error statuses the API answers, or name their codes in x-contract at the document root (errors).",
  "error-class-guessed": "Set the class and action in the response's x-contract (class: …, action: …).",
  "error-taxonomy-default": "Declare the error responses the API answers (4xx/5xx).",
  "idempotency-retention-assumed": "State how long the platform keeps a key: x-contract on the operation, idempotency: { retention: 72h }.",
  "idempotency-key-optional": "Check that a call without a key is a new intent; or make the header required.",
  "sunset-unreadable": "Write x-sunset as a date (YYYY-MM-DD).",
  "stability-unreadable": "Write x-stability-level as draft, alpha, beta or stable.",
  "pagination-detected": "Check the style and fields; correct them with x-contract pagination on the operation (pagination: null when it is not paginated).",
  "pagination-max-unknown": "Declare the page size's maximum on its parameter's schema.",
  "pagination-undecided": "Declare the pagination in the operation's x-contract, or leave it unpaginated.",
  "auth-unsupported": "Declare a scheme the contract expresses (bearer, basic, API key), or set transport.auth in the root x-contract.",
  "auth-assumed": "Check that a bearer token is what the API takes; correct transport.auth in the root x-contract if not.",
  "toolset-first-tag": "Put the operation's own tag first, or set toolset in its x-contract.",
  "base-url-placeholder": "Give servers an absolute URL, or set transport.http.baseUrl in the root x-contract.",
  "header-derived": "Pass --name and --date, or set them in the root x-contract (contract, changelog).",
  "callbacks-dropped": "Nothing: the contract describes calls to the platform only.",
  "keyword-dropped": "Nothing, or say the constraint in JSON Schema 2020-12 keywords the contract checks.",
  "ref-unresolved": "Make the reference name a component schema, or describe the value in place.",
  "ref-cycle-broken": "Give the loop something that describes part of the value (a property), or remove the $ref that closes it.",
  "error-bodies-dropped": "Nothing: error details go in x-contract details on the response when callers need them.",
  "error-format-derived": "Check the style; set transport.http.errorFormat in the root x-contract if it is wrong.",
  "x-contract-invalid": "Write x-contract as a mapping, on an operation, a 4xx/5xx response, a schema or the document root.",
  "openapi-problem": "Fix the document at the location shown (contractgen validate shows it with its line).",
};

/** What to do about an item of `kind`. */
export function reviewAction(kind: string): string {
  return REVIEW_ACTIONS[kind] ?? "Check the item at its location and settle it in the document or in an overlay.";
}

/**
 * Kinds `--strict` refuses: the contract accepts values the document may not, because the importer
 * could not tell what the document means there. The other kinds are decisions a person should
 * check, or parts the contract format has no place for, and are written as reviewed guesses.
 */
export const STRICT_KINDS: ReadonlySet<ReviewKind> = new Set<ReviewKind>(["ref-unresolved", "ref-cycle-broken"]);

export interface ReviewItem {
  readonly kind: ReviewKind;
  /** JSON pointer into the OpenAPI document ("" is its root). */
  readonly pointer: string;
  /** The contract operation concerned, when there is one. */
  readonly operation?: string;
  readonly message: string;
  /** `file:line:col` of the pointer (in the document, or in the overlay that wrote it), when the report was located. */
  readonly location?: string;
}

export interface ReviewReport {
  readonly source: string;
  readonly openapi: string;
  readonly operations: number;
  readonly types: number;
  readonly counts: Readonly<Record<string, number>>;
  readonly items: readonly ReviewItem[];
}

export function buildReport(source: string, openapi: string, operations: number, types: number, items: readonly ReviewItem[]): ReviewReport {
  const order = Object.keys(REVIEW_KINDS);
  const sorted = [...items].sort(
    (a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || cmp(a.pointer, b.pointer) || cmp(a.message, b.message),
  );
  const counts: Record<string, number> = {};
  for (const kind of order) {
    const n = sorted.filter((i) => i.kind === kind).length;
    if (n > 0) counts[kind] = n;
  }
  return { source, openapi, operations, types, counts, items: sorted };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One line for stderr: how many items of which kinds. */
export function reportSummary(report: ReviewReport): string {
  const total = report.items.length;
  if (total === 0) return "nothing to review";
  const parts = Object.entries(report.counts).map(([k, n]) => `${n} ${k}`);
  return `${total} item${total === 1 ? "" : "s"} to review (${parts.join(", ")})`;
}

export function reportJson(report: ReviewReport): string {
  const items = report.items.map((i) => ({ ...i, action: reviewAction(i.kind) }));
  return `${JSON.stringify({ generator: "contractgen import-openapi", ...report, items }, null, 2)}\n`;
}

/** Markdown text: code spans get their backticks neutralised so a hostile name cannot break the layout. */
export function reportMarkdown(report: ReviewReport): string {
  const code = (s: string) => `\`${s.replace(/`/g, "'").replace(/[\r\n]+/g, " ")}\``;
  const text = (s: string) => s.replace(/[\r\n]+/g, " ").replace(/([\\`*_[\]<>|])/g, "\\$1");
  const lines = [
    "<!-- contractgen import-openapi review report -->",
    `# Import review: ${text(report.source)}`,
    "",
    `OpenAPI ${text(report.openapi)} → ${report.operations} operations, ${report.types} types. ${report.items.length} items to review.`,
    "",
  ];
  if (report.items.length > 0) {
    lines.push("| Kind | Items |", "|---|---|");
    for (const [kind, n] of Object.entries(report.counts)) lines.push(`| ${code(kind)} | ${n} |`);
    lines.push("");
  }
  for (const kind of Object.keys(report.counts) as ReviewKind[]) {
    lines.push(`## ${code(kind)}`, "", REVIEW_KINDS[kind], "", `What to do: ${text(reviewAction(kind))}`, "");
    for (const item of report.items.filter((i) => i.kind === kind)) {
      const op = item.operation ? ` (${code(item.operation)})` : "";
      const at = item.location ? ` at ${code(item.location)}` : "";
      lines.push(`- ${code(item.pointer === "" ? "#" : `#${item.pointer}`)}${at}${op}: ${text(item.message)}`);
    }
    lines.push("");
  }
  return `${lines.join("\n")}`;
}
