/**
 * The fast YAML reader (src/contract/yaml-fast.ts) against the `yaml` library path it replaces: for every
 * text, parseSource (fast reader, falling back) and parseSourceSlow (`yaml` only) must give the same
 * value, the same diagnostics and the same location — start and end — for every value and every key.
 * Each hand-written case also pins which path it takes, so an agreement is never vacuous.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_EXPANDED_NODES, MAX_YAML_DEPTH, parseSource, parseSourceSlow, parseYamlSource, type YamlRules } from "../../src/contract/load.js";
import { estimateYamlValues } from "../../src/contract/yaml-depth.js";
import { fastParseOrReason } from "../../src/contract/yaml-fast.js";
import { compareLoads } from "../support/yaml-compare.js";

const encode = (text: string) => new TextEncoder().encode(text);
/** Why the fast reader declines `text`, or "fast" when it reads it. */
function path(text: string): string {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const result = fastParseOrReason(body, MAX_YAML_DEPTH, MAX_EXPANDED_NODES);
  return typeof result === "string" ? result : "fast";
}
function agree(name: string, bytes: Uint8Array): string[] {
  return compareLoads(parseSource(name, bytes), parseSourceSlow(name, bytes));
}

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    for (const entry of readdirSync(d)) {
      const p = join(d, entry);
      const st = statSync(p);
      if (st.isDirectory()) stack.push(p);
      else if (st.isFile() && /\.ya?ml$/.test(entry)) out.push(p);
    }
  }
  return out.sort();
}

const CORPUS = ["specs", "test", "generated-examples", "examples"].flatMap(yamlFiles);

describe("the fast reader agrees with the yaml library on every YAML file of the repository", () => {
  it("same values, diagnostics and locations; most files take the fast path", () => {
    const differing: string[] = [];
    let fast = 0;
    for (const file of CORPUS) {
      const bytes = readFileSync(file);
      const diff = agree(file, bytes);
      if (diff.length > 0) differing.push(`${file}:\n  ${diff.join("\n  ")}`);
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        continue;
      }
      if (path(text) === "fast") fast++;
    }
    expect(differing).toEqual([]);
    expect(CORPUS.length).toBeGreaterThan(200);
    // Every file with a YAML problem, anchor or tag declines; the rest (the vast majority) is read fast.
    expect(fast / CORPUS.length).toBeGreaterThan(0.85);
  });
  it("every example contract is read by the fast path", () => {
    for (const file of yamlFiles("specs")) expect(`${file}: ${path(readFileSync(file, "utf8"))}`).toBe(`${file}: fast`);
  });
});

/** [name, text, "fast" or a fragment of the reason it declines]. */
const CASES: Array<[string, string, string]> = [
  ["plain scalars and nesting", "a: 1\nb:\n  c: x\n  d:\n    - e\n    - f: g\n      h: i\n", "fast"],
  ["quoted scalars", "a: 'it''s'\nb: \"tab\\tand \\u00e9 \\\"q\\\"\"\nc: ''\nd: \"\"\ne: 'multi\n  line'\n", "fast"],
  ["literal and folded block scalars", "a: |\n  one\n    two\n\n  three\nb: >\n  folded\n  text\n\n  para\nc: |-\n  strip\nd: >+\n  keep\n\n\ne: |2\n    explicit\nf: x\n", "fast"],
  ["a block scalar last, at the end of the text without a newline", "a:\n  b: |\n    text", "fast"],
  ["block scalars as sequence items", "a:\n  - |\n    one\n  - >-\n    two\n  - - |\n      three\n", "fast"],
  ["a block scalar with a header comment and leading empty lines", "a: |  # note\n\n  text\nb: 1\n", "fast"],
  ["flow collections, nested and multi-line", "a: [1, [2, 3], {b: c, d: [e]}]\nf: {}\ng: []\nh:\n  [\n    x,\n    y,\n  ]\ni: { j: 1,\n  k: 2 }\n", "fast"],
  ["empty values point at their keys", "a:\nb:\n  c:\n  d:\n", "fast"],
  ["an empty value in a flow mapping", "a: {b: , c: 1}\n", "fast"],
  ["comments: leading, trailing, column 0", "# head\n  # indented head\na: 1 # trailing\nb: # after key\n  c: 2   # c\n# between\nd: [1, 2] # flow\n# tail\n", "fast"],
  ["CRLF line endings", "a: 1\r\nb:\r\n  c: |\r\n    text\r\n    more\r\n  d: [1,\r\n    2]\r\ne: \"x\"\r\n", "fast"],
  ["a byte order mark", "\ufeffa: 1\nb: [2]\n", "fast"],
  ["core-schema numbers and specials", "a: 0x1F\nb: 1e3\nc: .inf\nd: -.Inf\ne: .NaN\nf: -.NaN\ng: 007\nh: 1_000\ni: 0o17\nj: +12\nk: -0\nl: 1.\nm: .5\nn: 1e400\no: 12345678901234567890\np: 0X1F\n", "fast"],
  ["null, booleans and their look-alikes as values", "a: null\nb: ~\nc: Null\nd: NULL\ne: nULL\nf: True\ng: TRUE\nh: tRUE\ni: \"null\"\nj: 'True'\nk: yes\n", "fast"],
  ["unicode keys and values", "ünï: çødé 😀\n\"\\u00e9\": é\n'日本': 語\nlong: \"\\x41\\u263A\\U0001F600\"\n", "fast"],
  ["prototype-named keys stay data", "__proto__: {polluted: true}\nconstructor: 1\ntoString: x\nhasOwnProperty: y\n", "fast"],
  ["a very long line", `a: ${"x".repeat(200_000)}\nb: [${Array.from({ length: 2000 }, (_, i) => i).join(", ")}]\n`, "fast"],
  ["a document start marker", "---\na: 1\n", "fast"],
  ["trailing blank lines and spaces", "a:\n  b: 1\n\n\n   \nc: 2\n\n\n", "fast"],
  ["colons and hashes inside plain scalars", "a: http://x.y/z#frag\nb: c:d\nc: x #y\n", "fast"],
  ["sequences of mappings, compact and nested", "- a: 1\n  b: 2\n- - c\n  - d\n- e: [f]\n", "fast"],
  ["keys and values with inner spaces", "a key: a value\n'quoted key': \"v\"\n", "fast"],
  ["a null key", "~: a\n", "not a string"],
  ["a boolean key", "true: a\n", "not a string"],
  ["a number key", "contract: a\n200: ok\n", "not a string"],
  ["an empty key", ": a\n", "key"],
  ["a collection key", "? [a]\n: b\n", "key"],
  ["an explicit key", "? a\n: b\n", "unexpected character"],
  ["a duplicate key", "a: 1\nb: 2\na: 3\n", "duplicate"],
  ["an anchor and an alias", "a: &x 1\nb: *x\n", "anchor"],
  ["a tag", "a: !!str 1\n", "tag"],
  ["an unknown tag", "a: !custom x\n", "tag"],
  ["two documents", "a: 1\n---\nb: 2\n", "content after the root"],
  ["an explicit document end", "a: 1\n...\n", "document"],
  ["an empty document", "# nothing\n", "document"],
  ["a scalar document", "just text\n", "root"],
  ["an empty sequence item", "a:\n  -\n  - b\n", "empty sequence item"],
  ["an indented comment line", "a:\n  b: 1\n  # note\n  c: 2\n", "indented comment"],
  ["a comment after an empty value", "a:\n# c\nb: 1\n", "empty value"],
  ["a tab used as indentation", "a:\n\tb: 1\n", "js-yaml"],
  ["a lone carriage return", "a: 1\rb: 2\n", "carriage return"],
  ["a syntax error", "a: [1, 2\nb: 3\n", "js-yaml"],
  ["an under-indented flow collection", "a:\n  b: [1,\n    2\n  ]\n", "js-yaml"],
  ["a flow collection on its own lines", "a:\n  b:\n    [1,\n    2\n    ]\n", "fast"],
  ["a whitespace-only line after block scalar content", "a: |\n  x\n   \nb: 1\n", "whitespace-only"],
  ["an over-long implicit key", `${"k".repeat(1100)}: v\n`, "implicit key"],
];

describe("hand-written cases: both paths agree, and each takes the path it should", () => {
  for (const [name, text, expected] of CASES) {
    it(name, () => {
      expect(agree("case.yaml", encode(text))).toEqual([]);
      const taken = path(text);
      if (expected === "fast") expect(taken).toBe("fast");
      else expect(taken).toContain(expected);
    });
  }
});

describe("what the fast path reads", () => {
  const value = (text: string) => {
    expect(path(text)).toBe("fast");
    return parseSource("v.yaml", encode(text)).file!.value as Record<string, unknown>;
  };
  it("resolves plain scalars by the YAML 1.2 core schema, non-finite numbers as their names", () => {
    expect(value("a: 0x1F\nb: 1e3\nc: .inf\nd: -.NaN\ne: 007\nf: 1_000\ng: 0o17\nh: 1e400\ni: ~\nj: True\nk: '1'\n")).toEqual({
      a: 31, b: 1000, c: "Infinity", d: "-.NaN", e: 7, f: "1_000", g: 15, h: "Infinity", i: null, j: true, k: "1",
    });
    expect(Object.is(value("a: -0\n").a, -0)).toBe(true);
  });
  it("keeps __proto__ as an own data key and pollutes nothing", () => {
    const v = value("__proto__: {polluted: true}\n");
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  it("locates a value, a key, and a key with no value (at the key)", () => {
    const file = parseSource("l.yaml", encode("a:\n  b: 'x'\n  c:\n  d: [1, 2]\n")).file!;
    expect(file.locate("/a/b")).toMatchObject({ line: 2, col: 6, endLine: 2, endCol: 9 });
    expect(file.locateKey("/a/b")).toMatchObject({ line: 2, col: 3, endLine: 2, endCol: 4 });
    expect(file.locate("/a/c")).toMatchObject({ line: 3, col: 3, endLine: 3, endCol: 4 });
    expect(file.locate("/a/d/1")).toMatchObject({ line: 4, col: 10, endLine: 4, endCol: 11 });
    expect(file.locate("/a")).toMatchObject({ line: 2, col: 3, endLine: 5, endCol: 1 });
  });
  it("leaves the node limit to the yaml path", () => {
    expect(fastParseOrReason("a: [1, 2, 3]\n", MAX_YAML_DEPTH, 3)).toContain("too many nodes");
  });
});

describe("mutated documents: both paths agree on every result, accepted or not", () => {
  const SEEDS = [
    "contract: demo\nversion: 1.0.0\ndescription: |\n  Line one\n    indented\n\n  after\nsummary: >-\n  folded\n  text\ntypes:\n  Item:\n    type: object\n    required: [id, \"name\"]\n    properties:\n      id: { type: integer, minimum: 0x1F }\n      name: 'q ''x'''\n      tags:\n        - a\n        - \"b\\tc\"\n      empty:\n      nested:\n        deep: ~\n# c\nops:\n  list: [ 1, 2.5, .inf, True, \"null\" ]   # t\n",
    "- a: 1\n  b:\n    - x\n    - y: |+\n        keep\n\n  c: \"multi\n    line\"\n- plain multi\n  line\n- [a, {b: c}, []]\n- {}\n",
    "a: 1\r\nb:\r\n  c: |\r\n    text\r\n  d: [1,\r\n    2]\r\ne: \"x\"\r\n",
  ];
  const SNIPPETS = [" ", "\n", "  ", "#", " # c", "\n# c\n", "\n  # c\n", "- ", ": ", "'", '"', "|", ">", "|-", "|+", "\t", "\r\n", "\r", "[", "]", "{", "}", ",", "?", "&a ", "*a", "!!str ", "---\n", "...\n", "~", "0x1F", ".inf", "__proto__: 1\n", "é", "@", "`", "%", "\n\n", "  \n", "x: \n", "\n- \n", ":", "\\"];
  it("agree on 1,000 seeded random edits", () => {
    let state = 12345;
    const rnd = (k: number) => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % k;
    };
    const failures: string[] = [];
    let fast = 0;
    for (let n = 0; n < 1000; n++) {
      let t = SEEDS[rnd(SEEDS.length)]!;
      for (let e = 1 + rnd(3); e > 0; e--) {
        const at = rnd(t.length + 1);
        const op = rnd(4);
        if (op === 0) t = t.slice(0, at) + t.slice(at + 1 + rnd(4));
        else if (op === 1) {
          const lineStart = t.lastIndexOf("\n", at - 1) + 1;
          t = t.slice(0, lineStart) + " ".repeat(1 + rnd(3)) + t.slice(lineStart);
        } else t = t.slice(0, at) + SNIPPETS[rnd(SNIPPETS.length)] + t.slice(at);
      }
      const diff = agree("m.yaml", encode(t));
      if (diff.length > 0 && failures.length < 5) failures.push(`${JSON.stringify(t)}\n  ${diff.join("\n  ")}`);
      if (path(t) === "fast") fast++;
    }
    expect(failures).toEqual([]);
    expect(fast).toBeGreaterThan(200);
  });
});

describe("OpenAPI documents' rules (import-openapi)", () => {
  const openapi: YamlRules = { holds: "OpenAPI document", maxAliases: Number.POSITIVE_INFINITY, maxNodes: Number.POSITIVE_INFINITY, scalarKeys: true, mergeKeys: true, aliasCode: "openapi-alias-limit" };
  const text = "responses:\n  200: { description: ok }\n  404: &gone { description: gone }\n  410: *gone\ntrue: yes\n";

  it("read scalar keys as js-yaml's strings on both paths (the fast one, without an alias; the yaml one, with)", () => {
    expect(fastParseOrReason("200: a\n", MAX_YAML_DEPTH, MAX_EXPANDED_NODES)).toMatch(/not a string/);
    const fast = fastParseOrReason("200: a\ntrue: b\n", MAX_YAML_DEPTH, MAX_EXPANDED_NODES, true);
    expect(typeof fast === "string" ? fast : fast.value).toEqual({ 200: "a", true: "b" });
    const slow = parseYamlSource("o.yaml", encode(text), openapi);
    expect(slow.diagnostics).toEqual([]);
    expect(slow.file!.value).toEqual({ responses: { 200: { description: "ok" }, 404: { description: "gone" }, 410: { description: "gone" } }, true: "yes" });
    // A contract still refuses them.
    expect(parseSource("c.yaml", encode(text)).diagnostics.map((d) => d.code)).toContain("yaml-non-string-key");
  });

  it("merge keys: the named mapping's entries, the mapping's own keys first, earlier sources before later ones", () => {
    const merged = parseYamlSource("m.yaml", encode("a: &a { x: 1, y: 1 }\nb: &b { y: 2, z: 2 }\nc: { <<: [*a, *b], x: 3 }\n"), openapi);
    expect(merged.file!.value).toEqual({ a: { x: 1, y: 1 }, b: { y: 2, z: 2 }, c: { x: 3, y: 1, z: 2 } });
  });

  it("one alias budget across files: an expansion past it is refused at the alias written in the document", () => {
    const budget = { remaining: 50, limit: 50 };
    const rules = { ...openapi, aliasBudget: budget };
    expect(parseYamlSource("one.yaml", encode("a: &a [1, 2, 3]\nb: *a\n"), rules).diagnostics).toEqual([]);
    expect(budget.remaining).toBe(46);
    const big = parseYamlSource("two.yaml", encode(`a: &a [${"1, ".repeat(60)}1]\nb: *a\n`), rules);
    expect(big.diagnostics.map((d) => `${d.code} ${d.location.line}:${d.location.col}`)).toEqual(["openapi-alias-limit 2:4"]);
  });

  it("estimates at least as many values as a text holds, without parsing it", () => {
    for (const file of yamlFiles("specs")) {
      const source = readFileSync(file, "utf8");
      const loaded = parseSource(file, encode(source));
      let values = 0;
      const stack: unknown[] = [loaded.file!.value];
      while (stack.length > 0) {
        const v = stack.pop();
        values++;
        if (v !== null && typeof v === "object") stack.push(...Object.values(v));
      }
      const estimate = estimateYamlValues(source, MAX_YAML_DEPTH).values;
      expect(estimate, file).toBeGreaterThanOrEqual(values);
      expect(estimate, file).toBeLessThan(values * 3);
    }
  });
});
