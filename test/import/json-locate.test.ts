/** JSON documents are located by scanning their text again: one pointer at a time or many at once, the same places. */
import { describe, expect, it } from "vitest";
import { JsonText } from "../../src/import/openapi/json.js";

const TEXT = JSON.stringify({ a: { b: [1, { c: 2 }], "x/y~z": "\"quoted\\" }, d: 3 }, null, 1);
const POINTERS = ["/a", "/a/b", "/a/b/1/c", "/a/x~1y~0z", "/d", "/a/missing"];

describe("JsonText", () => {
  it("finds each pointer where its value starts, asked one by one or all at once", () => {
    const one = new JsonText("x.json", TEXT, { maxDepth: 10, maxEntries: 10 });
    const byOne = POINTERS.map((p) => one.locate(p));
    const all = new JsonText("x.json", TEXT, { maxDepth: 10, maxEntries: 10 });
    all.prepare(POINTERS);
    expect(POINTERS.map((p) => all.locate(p))).toEqual(byOne);
    const lines = TEXT.split("\n");
    const at = (p: string) => {
      const l = byOne[POINTERS.indexOf(p)]!;
      return lines[l.line - 1]!.slice(l.col - 1);
    };
    expect(at("/a/b/1/c")).toBe("2");
    expect(at("/a/x~1y~0z")).toBe('"\\"quoted\\\\"');
    expect(at("/d")).toBe("3");
    // A pointer that names nothing is located at its nearest ancestor, keeping the pointer asked for.
    expect(byOne[5]).toMatchObject({ line: byOne[0]!.line, col: byOne[0]!.col, pointer: "/a/missing" });
  });
});
