/**
 * Every diagnostic `contractgen validate` can report: stable kebab-case code → severity, one-line
 * title (for docs) and the default fix hint. Codes are never renamed; tests pin them.
 */
export const DIAGNOSTIC_CODES = {
  // --- reading the file ---
  "file-not-found": { severity: "error", title: "The file does not exist.", hint: "Check the path; it is resolved from the current directory." },
  "file-is-directory": { severity: "error", title: "The path is a directory.", hint: "Pass a contract file (for example specs/billing.v2.yaml), not a folder." },
  "file-unreadable": { severity: "error", title: "The file cannot be read.", hint: "Check the file's permissions." },
  "file-too-large": { severity: "error", title: "The file exceeds the size limit.", hint: "A contract is expected to be well under 10 MiB; split shared types into files referenced with $ref." },
  "file-binary": { severity: "error", title: "The file is not UTF-8 text.", hint: "Save the contract as UTF-8 YAML." },
  "file-not-regular": { severity: "error", title: "The path is not a regular file.", hint: "Pass a regular contract file; devices, FIFOs and sockets are never read." },
  "file-empty": { severity: "error", title: "The file has no content.", hint: "Start from `contractgen init` or one of the examples in specs/." },

  // --- YAML ---
  "yaml-syntax": { severity: "error", title: "The YAML cannot be parsed.", hint: "Fix the YAML syntax at the position shown." },
  "yaml-duplicate-key": { severity: "error", title: "A mapping repeats a key.", hint: "Remove or rename one of the duplicate keys; YAML keeps only one of them." },
  "yaml-tab-indent": { severity: "error", title: "A tab is used for indentation.", hint: "Indent with spaces; YAML forbids tabs in indentation." },
  "yaml-non-string-key": { severity: "error", title: "A mapping key is not a string.", hint: "Quote the key (\"200\": …) or use a plain word." },
  "yaml-alias-limit": { severity: "error", title: "Too many alias expansions.", hint: "The document expands aliases beyond the safety limit (a \"billion laughs\" pattern); write the content out or use $ref." },
  "yaml-multiple-documents": { severity: "error", title: "The file holds more than one YAML document.", hint: "Keep one contract per file; remove the extra `---` separator." },
  "yaml-depth-limit": { severity: "error", title: "The YAML nests deeper than the limit.", hint: "Collections may nest at most 256 levels (docs/contract-format.md, Limits); flatten the structure or move shared parts into types referenced with $ref." },
  "yaml-unsupported-tag": { severity: "error", title: "A YAML tag is not supported.", hint: "Remove the custom tag (`!name`); contracts use plain YAML values." },

  // --- structure (the published JSON Schema) ---
  "document-not-mapping": { severity: "error", title: "The document is not a mapping.", hint: "A contract is a YAML mapping starting with `contract:` and `version:`." },
  "contract-required-field": { severity: "error", title: "A required field is missing.", hint: "Add the field; docs/contract-format.md describes it." },
  "contract-unknown-field": { severity: "error", title: "A field is not part of the contract format.", hint: "Remove it, fix its spelling, or prefix it with `x-` for an extension." },
  "contract-invalid-type": { severity: "error", title: "A field has the wrong type.", hint: "Use the type the format expects (quote versions and dates)." },
  "operation-limit": { severity: "error", title: "The contract declares more operations than the limit.", hint: "A contract may declare at most 10,000 operations (docs/contract-format.md, Limits); split the platform into several contracts." },
  "contract-invalid-value": { severity: "error", title: "A field has a value the format does not allow.", hint: "Use one of the allowed values shown in docs/contract-format.md." },

  // --- $ref ---
  "ref-unresolved": { severity: "error", title: "A $ref points at nothing.", hint: "Point $ref at an existing definition, e.g. '#/types/Name' or './common.yaml#/types/Name'." },
  "ref-cycle": { severity: "error", title: "$refs refer to each other without any schema between them.", hint: "Break the loop: one of the definitions must contain a schema, not only a $ref." },
  "ref-outside-root": { severity: "error", title: "A $ref leaves the folders references may read.", hint: "Keep referenced files under the contract's folder, or allow another folder with --ref-root <dir>; symlinks must point inside these folders too." },
  "ref-not-regular-file": { severity: "error", title: "A $ref names something that is not a regular file.", hint: "Point $ref at a YAML file; directories, devices, FIFOs and sockets are never read." },
  "ref-file-limit": { severity: "error", title: "$refs reach more files than the limit.", hint: "A contract may reach at most 256 files through $ref (docs/contract-format.md, Limits); merge shared definitions into fewer files." },
  "ref-bytes-limit": { severity: "error", title: "The contract and its referenced files exceed the total size limit.", hint: "All files of one contract may hold at most 32 MiB together (docs/contract-format.md, Limits); reference less, or smaller files." },
  "ref-depth-limit": { severity: "error", title: "$refs are nested deeper than the limit.", hint: "Follow at most 64 $refs in a row, whether bare $refs or schemas each referencing the next (docs/contract-format.md, Limits); point at the final schema directly." },
  "ref-invalid": { severity: "error", title: "A $ref is not a supported reference.", hint: "Use a local pointer ('#/types/Name') or a relative file ('./file.yaml#/types/Name'); remote URLs are not fetched." },

  // --- header ---
  "version-not-semver": { severity: "error", title: "A version is not semantic (MAJOR.MINOR.PATCH).", hint: "Write the version as \"1.2.3\" (quoted), optionally with a -prerelease suffix." },
  "changelog-missing-current-version": { severity: "error", title: "The changelog has no entry for the current version.", hint: "Add a dated changelog entry for this version at the top of `changelog`." },
  "changelog-unsorted": { severity: "error", title: "The changelog is not ordered newest first.", hint: "Order entries by version, newest first, with dates not increasing." },
  "changelog-future-version": { severity: "warning", title: "A changelog entry is newer than the contract version.", hint: "Bump `version` or remove the entry." },
  "changelog-target-unresolved": { severity: "error", title: "A changelog change points at nothing in the contract.", hint: "Point `target` at an existing node, e.g. /operations/refund_invoice/input/properties/amount_cents." },

  // --- errors taxonomy ---
  "error-code-undeclared": { severity: "error", title: "An error code is used but not declared in `errors`.", hint: "Declare the code under `errors:` with a class, an action and an HTTP status, or fix its spelling." },
  "error-action-mismatch": { severity: "warning", title: "An error's recovery action does not fit its class.", hint: "Pick the action a caller of this class can take (e.g. transient → retry_same_key)." },
  "error-status-mismatch": { severity: "warning", title: "An error's HTTP status does not fit its class.", hint: "Use the conventional status (invalid_input 400/422, not_found 404, conflict 409/412, permission 403, rate_limited 429, transient 5xx)." },
  "error-field-missing": { severity: "error", title: "An operation lists an error whose `field` is not one of its input fields.", hint: "Give the operation that input field, declare a separate error code for it, or drop the error's `field`." },
  "error-pointer-invalid": { severity: "error", title: "A pointer of `errorFormat` is not a JSON pointer, or its style does not use it.", hint: "Write a JSON pointer into the error body (`/detail`, `/error/code`, `/errors/0/field`); envelope takes none, status no `code`." },
  "error-wire-duplicate": { severity: "error", title: "Two error codes are sent with the same wire value.", hint: "Give each code its own `wire` value (a code without one is sent as itself), so an answer names one code." },
  "error-status-ambiguous": { severity: "error", title: "With errorFormat style status, an operation declares two errors with the same HTTP status.", hint: "Keep one error per status in the operation's list (and its behaviours), or choose a style that reads the code from the body (body, problem)." },
  "behaviour-error-class": { severity: "error", title: "A behaviour names an error of the wrong class.", hint: "Idempotency mismatches, invalid confirm tokens and stale preconditions are `conflict` (or `invalid_input` for tokens) errors." },
  "behaviour-error-not-listed": { severity: "warning", title: "An operation can raise a behaviour error it does not list.", hint: "Add the code to the operation's `errors` so clients and docs know it can arrive." },

  // --- effects, idempotency, preview ---
  "idempotency-key-missing": { severity: "error", title: "The idempotency key field is not an input property.", hint: "Add the field to `input.properties` (a string, e.g. format uuid)." },
  "idempotency-key-not-required": { severity: "error", title: "The idempotency key field is optional.", hint: "List the key field in `input.required`, so no call goes out without a key; or, if the platform accepts a call without a key (each a separate intent), declare `idempotency.keyRequired: false`." },
  "idempotency-key-optional-but-required": { severity: "error", title: "`idempotency.keyRequired` is false but the key field is in `input.required`.", hint: "Remove the key field from `input.required` (the platform accepts calls without a key), or drop `keyRequired: false`." },
  "idempotency-key-blocks-preview": { severity: "error", title: "A previewable operation requires its idempotency key on every call.", hint: "Remove the key field from `input.required`: a preview needs no key, and executions require one anyway." },
  "idempotency-mode-mismatch": { severity: "error", title: "`effects.idempotent` and `idempotency` disagree.", hint: "Use `idempotent: key` together with an `idempotency` block, and only then." },
  "read-with-idempotency-key": { severity: "warning", title: "A read operation declares an idempotency key.", hint: "Reads are naturally idempotent; remove the `idempotency` block or mark the operation mutating." },
  "preview-dry-run-missing": { severity: "error", title: "The preview's dry-run field is not a boolean input property.", hint: "Add the dry-run field to `input.properties` as `{ type: boolean }`." },
  "preview-confirm-token-missing": { severity: "error", title: "The preview's confirm-token field is not an input property.", hint: "Add the confirm-token field to `input.properties` as a string." },
  "preview-default-mismatch": { severity: "warning", title: "The dry-run field's schema default differs from `preview.default`.", hint: "Make the schema default equal `preview.default` (true is safest)." },
  "preview-on-read": { severity: "warning", title: "A read operation declares a preview.", hint: "Previews guard effects; remove `preview` from read operations." },
  "destructive-unguarded": { severity: "warning", title: "A destructive operation has neither preview nor idempotency.", hint: "Add `preview` (dry run + confirm token) or an `idempotency` key so a retry or a misread cannot repeat the damage." },
  "preview-output-token-missing": { severity: "error", title: "The preview output does not return the confirm token.", hint: "Add the confirm-token field to `preview.output` as a required string property: the caller needs it to execute." },
  "preview-expiry-field-missing": { severity: "error", title: "The preview's expiry field is not in its output.", hint: "Add the `preview.expiresAt` field to `preview.output` as a required string (format date-time), or drop `expiresAt`." },
  "undo-not-inverse": { severity: "error", title: "`effects.undo` names an operation that cannot undo this one.", hint: "Name a mutating operation whose input requires a field this operation's output returns (the result's identity)." },
  "effects-inconsistent": { severity: "error", title: "The effects contradict each other.", hint: "A read operation cannot be destructive and its idempotency is `natural`." },
  "effects-inferred": { severity: "warning", title: "Effects were inferred by a tool and not reviewed.", hint: "Review each operation's `effects` (read or mutating, idempotency, destructive) and remove `inferred: true` once a person has checked them." },

  // --- names ---
  "operation-name-collision": { severity: "error", title: "Two operations get the same name once converted for an adapter.", hint: "Rename one operation; names must stay distinct in snake_case, camelCase and kebab-case." },
  "input-field-collision": { severity: "error", title: "Two input fields get the same name once converted for an adapter.", hint: "Rename one field; `user_id` and `userId` become the same SDK property and CLI flag." },
  "operation-name-reserved": { severity: "error", title: "An operation's method name is a member every JavaScript object or the generated client already has.", hint: "Rename the operation (e.g. `then` → `then_step`, `close` → `close_ticket`); `constructor`, `toString`, `then`, `core` and `close` cannot be client methods." },
  "type-name-collision": { severity: "error", title: "Two types would get the same name in the generated SDK.", hint: "Rename one of them: operations own <Name>Input, <Name>Output and <Name>Preview, and type names differing only by case or underscores (`note_item`, `NoteItem`) are one TypeScript name." },
  "toolset-undeclared": { severity: "error", title: "An operation names a toolset not declared in `toolsets`.", hint: "Declare the toolset under `toolsets:` or fix its spelling." },
  "operation-ref-unknown": { severity: "error", title: "A field names an operation that does not exist.", hint: "Use the name of an operation declared under `operations:`." },

  // --- transport ---
  "auth-scheme-unknown": { severity: "error", title: "A credential alternative names a scheme that is not declared.", hint: "Declare the scheme under `transport.auth.schemes`, or fix its name in `require` or the operation's `auth` (the single forms are named `bearer` and `apiKey`)." },
  "auth-scheme-unused": { severity: "warning", title: "A declared credential scheme is required nowhere.", hint: "Name the scheme in `transport.auth.require` or an operation's `auth`, or remove it." },
  "auth-schemes-conflict": { severity: "error", title: "Two schemes sent together write the same header, query parameter or cookie.", hint: "Put such schemes in separate alternatives (`[[a], [b]]`), or send one under another name." },
  "auth-name-invalid": { severity: "error", title: "An API key's header or cookie name is not an HTTP token.", hint: "Use letters, digits and !#$%&'*+-.^_`|~ only (no spaces, colons or quotes)." },
  "auth-env-duplicate": { severity: "error", title: "An environment variable is read for two different values.", hint: "Give each credential (and the base URL, and the MCP server's bearer token) its own environment variable." },
  "http-path-param-missing": { severity: "error", title: "A path parameter is not an input property.", hint: "Add the field to `input.properties` and `input.required`, or fix the path template." },
  "http-path-param-optional": { severity: "error", title: "A path parameter is optional in the input.", hint: "List the path parameter in `input.required`; a URL cannot have an empty segment." },
  "http-binding-field-missing": { severity: "error", title: "A query, header or body binding names a field that is not an input property.", hint: "Add the field to `input.properties` or remove the binding." },
  "http-route-duplicate": { severity: "error", title: "Two operations share a method and path.", hint: "Give each operation its own route." },
  "http-body-method": { severity: "error", title: "`http.body` is set on a GET operation.", hint: "A GET request has no body: bind the field to the query instead, or use POST, PUT, PATCH or DELETE." },
  "http-body-field-unbound": { severity: "error", title: "With `http.body`, another input field has no place in the request.", hint: "The body is the `http.body` field alone: bind every other input field to the path, `http.query` or `http.headers`." },
  "http-body-field-conflict": { severity: "error", title: "The `http.body` field is also bound to the path, query or a header.", hint: "Send the field in one place: drop it from the path template, `http.query` and `http.headers`, or choose another body field." },
  "http-cookie-field-conflict": { severity: "error", title: "A cookie field is also bound to the path, query or a header.", hint: "Send the field in one place: drop it from `http.cookies` or from the other binding." },
  "http-param-field-unbound": { severity: "error", title: "An `http.params` entry names a field that is not a path, query, header or cookie field.", hint: "Params say how parameters are serialized: name a field bound to the path, `http.query`, `http.headers` or `http.cookies` (body fields take `http.encoding`)." },
  "http-param-style-location": { severity: "error", title: "A parameter style (or allowReserved) is not defined where the field is sent.", hint: "path: simple, label, matrix; query: form, spaceDelimited, pipeDelimited, deepObject; header: simple; cookie: form. allowReserved applies to query parameters only." },
  "http-encoding-field-unbound": { severity: "error", title: "An `http.encoding` entry names a field that is not in the request body.", hint: "Name a body field (not a path, query, header or cookie field), or remove the entry." },
  "http-encoding-content-type": { severity: "error", title: "An `http.encoding` entry does not apply to the operation's request content type.", hint: "Encoding applies to form and multipart bodies: `contentType` to multipart parts, `style` and `explode` to form-urlencoded fields." },
  "http-content-type-no-body": { severity: "error", title: "A request content type is declared on a GET operation.", hint: "A GET request has no body: remove `http.contentType`." },
  "output-null-missing": { severity: "error", title: "A no-content success status is listed but the output does not admit null.", hint: "A 204 response has no body and the client returns null: write `output: { type: \"null\" }`, or `anyOf: [ {…}, { type: \"null\" } ]` when other statuses return a body." },

  // --- schemas ---
  "schema-invalid": { severity: "error", title: "A schema is not valid JSON Schema 2020-12.", hint: "Fix the schema keyword shown; see https://json-schema.org/draft/2020-12." },
  "schema-invalid-pattern": { severity: "error", title: "A `pattern` is not a valid regular expression.", hint: "Write an ECMAScript regular expression (with the `u` flag semantics)." },
  "diff-schema-too-large": { severity: "warning", title: "A schema is too large for the diff to compare in full.", hint: "Changes deep inside it may go unreported. Make the definitions it repeats shared types (`types:`): the diff compares each of those once." },
  "schema-includes-itself": { severity: "error", title: "A shared type includes itself through allOf, anyOf, oneOf, not, if, then or else alone.", hint: "Put the recursion under a property or items (a tree's children), or drop the $ref that closes the loop: as written, the schema never finishes validating a value." },
  "schema-empty-range": { severity: "warning", title: "A lower bound of a schema is above its upper bound.", hint: "Swap or correct the bounds; as written, every value they apply to is rejected." },
  "schema-unknown-format": { severity: "warning", title: "A `format` is not one the generated validators know.", hint: "Use a standard format (uuid, date-time, date, email, uri, …) or drop it." },
  "schema-extensible-enum-invalid": { severity: "error", title: "A field's `x-extensible-enum` is not a list of distinct strings.", hint: "List the values the field is known to take, each once, e.g. x-extensible-enum: [active, paused]; use enum for a closed set." },
  "schema-sunset-invalid": { severity: "error", title: "A field's `x-sunset` is not a date.", hint: "Write the day after which the field may be removed as YYYY-MM-DD, e.g. x-sunset: 2027-06-30." },
  "schema-depth-limit": { severity: "error", title: "A schema nests subschemas deeper than the limit.", hint: "A schema may nest at most 64 levels of subschemas (docs/contract-format.md, Limits); move inner parts into types referenced with $ref." },
  "schema-unknown-keyword": { severity: "warning", title: "A schema uses a keyword JSON Schema 2020-12 does not define.", hint: "Fix the spelling, prefix extensions with `x-`, or quote a flow-mapping value that contains a comma ({ description: \"a, b\" })." },
  "schema-generator-keyword": { severity: "error", title: "A schema uses a keyword meant for one code generator (tsType, tsEnumNames).", hint: "Remove it and describe the value with standard JSON Schema (type, enum, format, …); generated types are derived from those alone." },
  "input-not-object": { severity: "error", title: "An operation's input is not an object schema.", hint: "Declare `input: { type: object, properties: {…} }` so each field becomes a parameter." },

  // --- reads ---
  "pagination-field-missing": { severity: "error", title: "A pagination field is absent from the input or output schema.", hint: "Add the field to the schema named in the message, or fix the name in `pagination`." },
  "pagination-limit-inconsistent": { severity: "error", title: "The page-size limit disagrees with its schema.", hint: "Make `limit.max` equal the field's `maximum`, and `limit.default` at most `max`." },
  "pagination-style-field": { severity: "error", title: "A pagination key belongs to another paging style.", hint: "Remove the key, or set `pagination.style` to the style that uses it." },
  "pagination-items-omitted": { severity: "error", title: "`pagination.items` is omitted but the output is not an array.", hint: "Name the output array field in `pagination.items`; omit it only when the output schema itself is the array." },
  "pagination-unbounded": { severity: "warning", title: "A paginated read has no known page-size bound.", hint: "Declare `pagination.limit` with `max` (and `maximum` on the limit field) so adapters and tests know the largest page." },
  "projection-field-missing": { severity: "error", title: "The projection's selection field is not an array input property.", hint: "Add the selection field to `input.properties` as an array of strings." },
  "projection-selectable-mismatch": { severity: "error", title: "The selection field's allowed values differ from `projection.selectable`.", hint: "Make the selection field's `items.enum` list exactly the selectable fields." },
  "projection-identity-optional": { severity: "warning", title: "An identity field is not required in the output.", hint: "Identity fields are always returned: list them in the item schema's `required`." },
  "projection-field-unknown": { severity: "error", title: "A projected field is not in the output.", hint: "Project only properties the output (or each page item) declares." },
  "filter-field-missing": { severity: "error", title: "A filter names a field that is not an input property.", hint: "Add the filter field to `input.properties` or remove it from `filters`." },
  "filter-duplicate": { severity: "error", title: "A filter field is listed twice.", hint: "List each filter field once, with its meaning when it has one." },
  "filter-property-missing": { severity: "error", title: "A filter tests a property the listed records do not have.", hint: "Name a property of each item of the list in the filter's `property`." },
  "filter-match-incompatible": { severity: "error", title: "A filter's match does not suit its property or field.", hint: "contains needs an array property, prefix a string property and field, range a number, date or date-time property and a bound of the same kind or a `{from, to}` window." },
  "task-field-missing": { severity: "error", title: "A task-scope field is absent from the output.", hint: "Add the field (recordsExamined: integer, complete: boolean, continuation: string|null) to the output." },
  "precondition-field-missing": { severity: "error", title: "A precondition field is not an input property.", hint: "Add the field to `input.properties`." },
  "precondition-not-required": { severity: "error", title: "A required precondition's field is optional in the input.", hint: "List the field in `input.required`, or set the precondition's `required: false`." },
  "precondition-target-invalid": { severity: "error", title: "A precondition target names no type or no read operation.", hint: "Set `target: { type: <a type under types> }` or `target: { readWith: <a read operation> }`." },
  "precondition-target-undeclared": { severity: "warning", title: "Preconditions compare fields of a target nobody declared.", hint: "Declare `target: { readWith: <read operation> }` or `target: { type: <Type> }`, so `compares` can be checked against its fields." },
  "precondition-compares-unknown": { severity: "error", title: "A precondition compares a field its target does not have.", hint: "Name a property of the target in `compares` (it defaults to `revision`), or point `target` at the resource that has it." },
  "outcome-partial-field-missing": { severity: "error", title: "The partial-completion field is not an output array.", hint: "Add the field to the output as an array with one result per effect." },

  // --- catalogue ---
  "budget-max-tools-exceeded": { severity: "error", title: "The catalogue has more tools than `budget.maxTools`.", hint: "Raise the budget, hide operations with `mcp.expose: false`, or split them into toolsets." },
  "budget-catalog-tokens-exceeded": { severity: "error", title: "The MCP catalogue costs more tokens than `budget.catalogTokens`.", hint: "Shorten descriptions and schemas, hide operations with `mcp.expose: false`, or raise the budget; `contractgen budget` shows the cost per tool." },
  "budget-skill-tokens-exceeded": { severity: "error", title: "A part of the generated Agent Skill costs more tokens than `budget.skill` allows.", hint: "Shorten the contract's title and description (the listing), group operations in fewer toolsets (the body), split a large toolset (a reference), or raise the ceiling; `contractgen budget` shows each part's cost." },
  "summary-not-one-line": { severity: "warning", title: "A summary spans several lines.", hint: "Keep `summary` to one line; put details in `description`." },
  "mcp-tool-name-collision": { severity: "error", title: "Two operations expose the same MCP tool name.", hint: "Change one `mcp.name`." },

  "overlay-needs-openapi": { severity: "error", title: "An overlay was given for a contract, not an OpenAPI document.", hint: "Overlays (--overlay) change an OpenAPI document before it is imported; edit the contract itself, or pass the OpenAPI document it was imported from." },

  // --- import-openapi (the OpenAPI document being imported, not a contract) ---
  "openapi-invalid": { severity: "error", title: "The OpenAPI document breaks the OpenAPI schema.", hint: "Fix the document at the position shown; `contractgen import-openapi` reads OpenAPI 3.0 and 3.1 as the specification defines them." },
  "openapi-version-unsupported": { severity: "error", title: "The document is not OpenAPI 3.0 or 3.1.", hint: "Convert a Swagger 2.0 document to OpenAPI 3 first (for example with swagger2openapi), then import it." },
  "openapi-no-operations": { severity: "error", title: "The OpenAPI document has no operation a contract can hold.", hint: "A contract needs at least one GET, PUT, POST, DELETE or PATCH operation; webhooks and HEAD/OPTIONS/TRACE are not imported." },
  "openapi-tag-unknown": { severity: "error", title: "No operation of the OpenAPI document has a tag given with `--tag`.", hint: "Use tags as the document writes them (the message lists the largest); `--tag` may be given several times." },
  "openapi-contract-too-large": { severity: "error", title: "The imported contract would be larger than contractgen reads (10 MiB, 500,000 YAML nodes per file).", hint: "Import part of the document with `--tag` (one contract per tag or group of tags); the message lists the largest tags." },
  "openapi-operation-limit": { severity: "error", title: "The import would make a contract with more operations than the limit.", hint: "A contract declares at most 10,000 operations (docs/contract-format.md, Limits); import part of the document with `--tag`, one contract per tag or group of tags (the message lists the largest tags)." },
  "openapi-strict": { severity: "error", title: "With --strict, the import lost or guessed something that needs a person's review.", hint: "Fix the document at the place shown (pass --report <base> for every item), or import without --strict and review the contract by hand." },
  "openapi-ref-unresolved": { severity: "error", title: "A $ref of the OpenAPI document cannot be resolved.", hint: "Point $ref at a file that exists under the document's folder, and at a node that exists in it." },
  "openapi-ref-remote": { severity: "error", title: "A $ref of the OpenAPI document names a URL.", hint: "URLs are never fetched, however they are written (any scheme in any case, //host, backslashes): save the file in the document's folder and refer to it by a relative path." },
  "openapi-ref-unsupported": { severity: "error", title: "A $ref of the OpenAPI document means something the importer cannot follow.", hint: "A relative $ref inside a schema with an `$id` resolves against that `$id` (a URL, never fetched), not against the file: refer to the file relative to the document and drop the `$id`, or bundle the document first." },
  "openapi-ref-outside-root": { severity: "error", title: "A $ref of the OpenAPI document leaves the document's folder.", hint: "Keep referenced files under the document's folder; a symlink must point inside it too. Nothing outside it is read." },
  "openapi-ref-not-regular-file": { severity: "error", title: "A $ref of the OpenAPI document names something that is not a regular file.", hint: "Point $ref at a YAML or JSON file; folders, devices, FIFOs, sockets and symlink loops are never read." },
  "openapi-ref-depth-limit": { severity: "error", title: "$refs of the OpenAPI document lead through more schemas in a row than a contract allows.", hint: "Follow at most 64 $refs in a row, whether bare $refs or schemas each referencing the next (docs/contract-format.md, Limits); point at the final schema directly." },
  "openapi-ref-file-limit": { severity: "error", title: "$refs of the OpenAPI document reach more files than the limit.", hint: "An import reads at most 256 files besides the document (docs/contract-format.md, Importing OpenAPI); bundle the document into fewer files first (for example `redocly bundle`)." },
  "openapi-ref-bytes-limit": { severity: "error", title: "The OpenAPI document and the files its $refs reach are larger than the limit.", hint: "An import reads at most 64 MiB in all, each file's size checked before it is read (docs/contract-format.md, Importing OpenAPI); import a smaller document." },
  "openapi-alias-limit": { severity: "error", title: "YAML aliases of the OpenAPI document expand to more nodes than the limit.", hint: "An import expands at most 100,000 nodes through aliases (a \"billion laughs\" pattern goes far past it); write the shared part once under `components` and refer to it with $ref." },
  "openapi-nodes-limit": { severity: "error", title: "The OpenAPI document and the files its $refs reach hold more values than the limit.", hint: "An import reads at most 2,000,000 values (nodes) in all, and at most 500,000 from one YAML file (YAML is read keeping every value's position); give a large document as JSON, or import a smaller one." },
  "openapi-entries-limit": { severity: "error", title: "A mapping or list of the OpenAPI document has more entries than the limit.", hint: "An import reads at most 50,000 entries in one mapping or list (the largest real documents have 15,000); import a smaller document." },
  "openapi-schema-depth-limit": { severity: "error", title: "A schema of the OpenAPI document nests subschemas deeper than a contract allows.", hint: "A contract's schemas nest at most 64 levels (docs/contract-format.md, Limits); move inner parts into `components.schemas` and refer to them with $ref." },

  // --- OpenAPI overlays (import-openapi --overlay; located in the overlay file) ---
  "overlay-invalid": { severity: "error", title: "An overlay file is not an OpenAPI Overlay 1.0 or 1.1 document.", hint: "An overlay is a mapping with `overlay: 1.0.0` (or 1.1.0), `info: { title, version }` and a list of `actions`, each with a `target` and `update`, `remove: true` or (1.1) `copy`; other fields start with `x-`. Nothing of the overlay is applied." },
  "overlay-jsonpath-invalid": { severity: "error", title: "An overlay action's target or copy is not an RFC 9535 JSONPath query.", hint: "Write an RFC 9535 query (`$.paths['/pets'].get`, `$.paths.*[?@.operationId == 'listPets']`); only the functions length, count, match, search and value exist. Nothing of the overlay is applied." },
  "overlay-target-unmatched": { severity: "warning", title: "An overlay action's target selects nothing in the document.", hint: "Check the target against the document (names are case-sensitive, path keys are written in brackets: `$.paths['/pets']`); the action does nothing." },
  "overlay-target-not-container": { severity: "warning", title: "An overlay action updates a node that is neither an object nor an array.", hint: "Target the object holding the value and update its key instead (`target: $.info`, `update: { title: … }`); the action was skipped there." },
  "overlay-copy-ambiguous": { severity: "error", title: "An overlay action's copy selects no node or several.", hint: "Make `copy` select exactly one node of the document. Nothing of the overlay is applied." },
  "overlay-ref-outside-root": { severity: "error", title: "A $ref in an overlay's update leaves the overlay's folder or names a URL.", hint: "Keep files an overlay refers to under the overlay's folder and refer to them by a relative path; nothing outside it is read and nothing is fetched. Nothing of the overlay is applied." },
  "overlay-update-invalid": { severity: "error", title: "An overlay action's update does not fit its target.", hint: "An object target takes an object update (its keys are merged in), an array target any value (appended as one element); the document itself cannot be removed, and collections nest at most 256 levels. Nothing of the overlay is applied." },
} as const satisfies Record<string, { severity: "error" | "warning" | "info"; title: string; hint: string }>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;
