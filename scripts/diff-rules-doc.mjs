// Writes docs/diff-rules.md from the rule registry (npm run docs:rules, after npm run build).
import { writeFileSync } from "node:fs";
import { CATEGORIES } from "../dist/src/diff/rule.js";
import { RULES } from "../dist/src/diff/rules/index.js";
import { KEYWORDS } from "../dist/src/diff/rules/_keywords.js";

const categories = [...new Set(RULES.map((r) => r.category))].sort();
const cell = (t) => t.replace(/\|/g, "\\|").replace(/\n/g, " ");
const lines = [
  "# Diff rules",
  "",
  "Generated from the registry (`src/diff/rules/`) by `npm run docs:rules`; do not edit by hand.",
  "",
  "`contractgen diff <old> <new>` first compares the two contract models neutrally, then each rule below",
  "classifies the changes. Severities: **breaking** (existing callers or generated adapters break),",
  "**warning** (may break some consumers or needs a decision), **info** (compatible). Override a rule's",
  "severity or accept a finding with a reason in a config file (`--config`). Rule ids never change;",
  "a retired rule stays listed with its replacement.",
  "",
  "**Version policy.** `version-major-bump-required` counts only breaking changes a consumer of the",
  "contract can observe: findings of the categories marked *yes* in the column *major bump* below (a",
  "category's `observable` flag in `CATEGORIES`, `src/diff/rule.ts`). A catalogue over its token or tool",
  "budget is a build gate for the contract's authors, not a change callers see, so `budget-*` findings",
  "fail `--fail-on breaking` but never ask for a major version; the policy's own findings (`version`) do",
  "not count either. A primary finding counts once, whether it or a consequence under it is breaking.",
  "",
  "**One edit, one finding.** A rule that describes something derived from another change (an MCP",
  "annotation derived from an effect, a CLI flag derived from an input field, the MCP output-schema",
  "notice) names the rules or categories it follows from (*follows from* below). When such a finding",
  "overlaps one of theirs (same operation, overlapping location) it is reported under it as a",
  "consequence (`consequences` in the JSON report, indented under it in text and Markdown), not as a",
  "line of its own; so is a policy duty about one finding (`changelog-entry-missing`). The summary",
  "counts primary findings; `--fail-on` also sees consequences.",
  "",
  "**Shared types.** A type under `types:` is compared once, by name, however many operations reach",
  "it (directly or through other types); an operation that refers to it is compared by its reference.",
  "Everything the input-* and output-* rules report inside one type is gathered under one",
  "`shared-type-changed` finding on the type: `operations` lists every operation it reaches, and `type`",
  "(JSON) gives, per side, the operations and the worst severity there. The same edit can break one side",
  "and not the other (a new required property breaks callers that send the type, not those that read",
  "it), so the grouped finding takes the worst severity and says which sides break. An operation that",
  "starts or stops using a type, or swaps one type for another, is compared as the schemas it now has,",
  "and reported on the operation.",
  "",
  "**Defaults.** A changed input default changes what existing calls do without any change on their",
  "side: a call that omitted the field now asks for something else. That is why",
  "`preview-dry-run-default-flipped` is breaking, and `input-default-changed`, the same kind of change",
  "on any other input field, is breaking too. The dry-run field and the page-size field are left to",
  "their own rules so that one edit yields one finding.",
  "",
  "**What is compared.** Everything an operation returns is compared by the `output-*` rules: its",
  "output and its preview output (`preview.output`); messages name which (\"preview output\"). The MCP",
  "output-schema notice (`mcp-output-schema-changed`) is reported only where clients can observe the",
  "change: inside a closed object (`additionalProperties: false` or `unevaluatedProperties: false`), or",
  "anywhere when the config file sets `strictOutputValidation: true` (clients validate strictly).",
  "",
  "**Locations.** Each finding carries both sides' `file:line:col` and JSON pointer. A member of a list",
  "(an enum value, a required name, an error code, a scope) is addressed by its index",
  "(`/types/Order/required/2`) and located at the item itself. GitHub annotations (`--format github`)",
  "attach to the new file, a removed thing at its nearest surviving parent, with the path relative to",
  "the repository root (`git rev-parse --show-toplevel`, else the working directory).",
  "",
  "| category | rules | breaking | warning | info | major bump | about |",
  "|---|---:|---:|---:|---:|---|---|",
  ...categories.map((c) => {
    const rs = RULES.filter((r) => r.category === c && !r.replacedBy);
    const n = (s) => rs.filter((r) => r.severity === s).length;
    return `| ${c} | ${rs.length} | ${n("breaking")} | ${n("warning")} | ${n("info")} | ${CATEGORIES[c].observable ? "yes" : "no"} | ${cell(CATEGORIES[c].about)} |`;
  }),
  `| **all** | **${RULES.filter((r) => !r.replacedBy).length}** | ${RULES.filter((r) => r.severity === "breaking").length} | ${RULES.filter((r) => r.severity === "warning").length} | ${RULES.filter((r) => r.severity === "info").length} | | |`,
  "",
];
lines.push(
  "## Schema keywords",
  "",
  "Every keyword the contract keeps is compared, at any depth: properties, items, prefixItems, contains,",
  "additionalProperties, patternProperties, dependentSchemas, propertyNames, unevaluated*, then/else,",
  "contentSchema and allOf/anyOf/oneOf members. A change is judged by what it does to the values the",
  "schema accepts: in an **input**, accepting fewer values breaks callers (`input-constraint-tightened`)",
  "and accepting more is compatible (`input-constraint-loosened`); in an **output**, promising more values",
  "breaks consumers when a value may fall outside a constraint they relied on (`output-constraint-loosened`)",
  "or a shape they were not written for appears: a union branch, an opened object (`output-schema-widened`;",
  "both breaking by default, two ids so a team can weigh them apart), while promising fewer is",
  "compatible (`output-constraint-tightened`). An optional output property removed is a warning",
  "(`output-optional-property-removed`: consumers already handle its absence); a required one is breaking.",
  "Keywords older rules judge in a position (bounds, patterns,",
  "formats, enums, `required`, properties, types, nullability, units, defaults) stay with those rules there.",
  "",
  "- **readOnly / writeOnly.** A `readOnly` property is not an input and a `writeOnly` one is not an output:",
  "  nothing inside them is judged in that position. A property becoming read-only is an input tightened; one",
  "  becoming write-only is `output-property-became-write-only`.",
  "- **`not` and `if`.** A change anywhere below them is one change of that keyword, judged both ways",
  "  (narrowing a `not` schema widens what is accepted; an `if` decides which branch applies).",
  "- **Composition by identity.** allOf/anyOf/oneOf members are matched by the type they reference, then",
  "  the value of a discriminating property (`const`, or a one-value `enum`), then their `title`, then",
  "  their content; members still unpaired are paired by structure (shared types, properties, constants).",
  "  A member added or removed is one finding, located at the member; reordering members is no change.",
  "- **Annotations** (title, description, examples, deprecated, an output default, a `true` subschema, a",
  "  flag written `false`) are `schema-annotation-changed` (info).",
  "- **Nothing silent.** A change that no finding covers is still reported where it is, with both",
  "  locations: `schema-keyword-changed` inside schemas, `contract-field-changed` elsewhere (warnings).",
  "  A renamed operation is compared with its old self: `operation-renamed` plus every change inside it.",
  "",
  "| keyword | input: fewer values accepted / more | output: more values / fewer |",
  "|---|---|---|",
  ...[...KEYWORDS].map(([keyword, spec]) => {
    const own = (root) => spec.dedicated?.includes(root);
    const input = own("input") ? "its own `input-*` rules" : "`input-constraint-tightened` / `input-constraint-loosened`";
    const output = own("output") ? "its own `output-*` rules" : `\`${spec.weight === "value" ? "output-constraint-loosened" : "output-schema-widened"}\` / \`output-constraint-tightened\``;
    return `| \`${keyword}\` | ${input} | ${output} |`;
  }),
  "",
);
for (const c of categories) {
  lines.push(`## ${c}`, "", "| rule | severity | what it flags | migration hint |", "|---|---|---|---|");
  for (const r of RULES.filter((r) => r.category === c)) {
    const follows = r.consequenceOf ? ` Follows from ${r.consequenceOf.map((x) => `\`${x}\``).join(", ")}: reported under such a finding when it overlaps one.` : "";
    lines.push(`| \`${r.id}\` | ${r.severity}${r.phase ? ` (${r.phase})` : ""} | ${cell(r.replacedBy ? `Retired: use \`${r.replacedBy}\`.` : r.description + follows)} | ${cell(r.hint)} |`);
  }
  lines.push("");
}
writeFileSync("docs/diff-rules.md", lines.join("\n"));
console.log(`docs/diff-rules.md: ${RULES.length} rules`);
