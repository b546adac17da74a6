/**
 * OpenAPI Overlay 1.0 / 1.1 (src/import/openapi/overlay.ts) on small documents and overlays written
 * to a temporary folder here: update (merge), append, remove, copy, order, problems located in the
 * overlay file, origins, and what an overlay may not do (pollute prototypes, read outside its folder,
 * run non-standard JSONPath).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyOverlays } from "../../src/import/openapi/overlay.js";

let ROOT: string;
let DOC: string;
let n = 0;

beforeAll(() => {
  ROOT = mkdtempSync(join(tmpdir(), "contractgen-overlay-"));
  mkdirSync(join(ROOT, "api"), { recursive: true });
  mkdirSync(join(ROOT, "overlays", "shared"), { recursive: true });
  DOC = join(ROOT, "api", "openapi.json");
  writeFileSync(DOC, "{}");
});

afterAll(() => {
  rmSync(ROOT, { recursive: true, force: true });
});

/** Write an overlay (an object as JSON, a string as it is) and return its path. */
function overlay(content: object | string, ext = typeof content === "string" ? "yaml" : "json"): string {
  const file = join(ROOT, "overlays", `o${n++}.${ext}`);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return file;
}

const ov = (actions: object[], version = "1.0.0") => ({ overlay: version, info: { title: "t", version: "1" }, actions });

function pets(): any {
  return {
    openapi: "3.1.0",
    info: { title: "Pets", version: "1.0.0", description: "old" },
    tags: [{ name: "a" }, { name: "b" }, { name: "c" }, { name: "d" }],
    paths: {
      "/pets": {
        get: { operationId: "listPets", summary: "List", parameters: [{ name: "limit", in: "query" }], responses: { "200": { description: "ok" } } },
        post: { operationId: "createPet", responses: { "201": { description: "made" } } },
      },
      "/pets/{id}": { get: { operationId: "getPet", responses: { "200": { description: "ok" } } } },
    },
    components: { schemas: { Pet: { type: "object", properties: { name: { type: "string" } } } } },
  };
}

const errors = (r: { problems: Array<{ severity: string }> }) => r.problems.filter((p) => p.severity === "error");

describe("update", () => {
  it("merges objects recursively, replaces scalars and arrays, adds new keys", () => {
    const doc = pets();
    const r = applyOverlays(doc, [overlay(ov([
      { target: "$.info", update: { title: "Pets API", contact: { name: "Team" } } },
      { target: "$.paths['/pets'].get", update: { summary: "All pets", parameters: [{ name: "page", in: "query" }], responses: { "200": { content: {} } } } },
    ]))], DOC);
    expect(r.problems).toEqual([]);
    const v = r.value as any;
    expect(v.info).toEqual({ title: "Pets API", version: "1.0.0", description: "old", contact: { name: "Team" } });
    expect(v.paths["/pets"].get.summary).toBe("All pets");
    expect(v.paths["/pets"].get.parameters).toEqual([{ name: "page", in: "query" }]);
    expect(v.paths["/pets"].get.responses["200"]).toEqual({ description: "ok", content: {} });
    expect(v.paths["/pets"].post).toBe(doc.paths["/pets"].post); // untouched parts are shared, not copied
  });

  it("appends the update to an array target as one element", () => {
    const r = applyOverlays(pets(), [overlay(ov([
      { target: "$.tags", update: { name: "e" } },
      { target: "$.tags", update: [1, 2] },
    ]))], DOC);
    expect(r.problems).toEqual([]);
    expect((r.value as any).tags).toEqual([{ name: "a" }, { name: "b" }, { name: "c" }, { name: "d" }, { name: "e" }, [1, 2]]);
  });

  it("refuses a scalar update on an object target, applying nothing of the overlay", () => {
    const doc = pets();
    const r = applyOverlays(doc, [overlay(ov([{ target: "$.info", update: { title: "x" } }, { target: "$.info", update: "text" }]))], DOC);
    expect(errors(r).map((p) => [p.code, p.pointer])).toEqual([["overlay-update-invalid", "/actions/1/update"]]);
    expect(r.value).toBe(doc);
  });

  it("skips a scalar target with a warning", () => {
    const r = applyOverlays(pets(), [overlay(ov([{ target: "$.info.title", update: { a: 1 } }]))], DOC);
    expect(r.problems.map((p) => [p.code, p.severity, p.pointer])).toEqual([["overlay-target-not-container", "warning", "/actions/0/target"]]);
    expect((r.value as any).info.title).toBe("Pets");
  });

  it("works with a filter-expression target", () => {
    const r = applyOverlays(pets(), [overlay(ov([{ target: "$.paths.*[?@.operationId == 'listPets']", update: { "x-tagged": true } }]))], DOC);
    expect(r.problems).toEqual([]);
    const v = r.value as any;
    expect(v.paths["/pets"].get["x-tagged"]).toBe(true);
    expect(v.paths["/pets"].post["x-tagged"]).toBeUndefined();
    expect(v.paths["/pets/{id}"].get["x-tagged"]).toBeUndefined();
  });
});

describe("remove", () => {
  it("removes an object key", () => {
    const r = applyOverlays(pets(), [overlay(ov([{ target: "$.info.description", remove: true }, { target: "$.paths['/pets'].post", remove: true }]))], DOC);
    expect(r.problems).toEqual([]);
    const v = r.value as any;
    expect("description" in v.info).toBe(false);
    expect(Object.keys(v.paths["/pets"])).toEqual(["get"]);
  });

  it("removes several elements of one array, whatever order they are selected in", () => {
    const r = applyOverlays(pets(), [overlay(ov([{ target: "$.tags[0,2]", remove: true }, { target: "$.tags[?@.name == 'd' || @.name == 'b']", remove: true }]))], DOC);
    expect(r.problems).toEqual([]);
    expect((r.value as any).tags).toEqual([]);
    const r2 = applyOverlays(pets(), [overlay(ov([{ target: "$.tags[3,0,1]", remove: true }]))], DOC);
    expect((r2.value as any).tags).toEqual([{ name: "c" }]);
  });

  it("wins over an update in the same action", () => {
    const r = applyOverlays(pets(), [overlay(ov([{ target: "$.info", remove: true, update: { title: "x" } }]))], DOC);
    expect(r.problems).toEqual([]);
    expect((r.value as any).info).toBeUndefined();
  });
});

describe("copy (Overlay 1.1)", () => {
  it("uses the one node copy selects as the update", () => {
    const r = applyOverlays(pets(), [overlay(ov([{ target: "$.paths['/pets/{id}'].get", copy: "$.paths['/pets'].get.parameters" }], "1.1.0"))], DOC);
    // an object target with an array copy does not fit
    expect(errors(r).map((p) => p.code)).toEqual(["overlay-update-invalid"]);
    const r2 = applyOverlays(pets(), [overlay(ov([{ target: "$.paths['/pets/{id}']", copy: "$.paths['/pets']" }], "1.1.0"))], DOC);
    expect(r2.problems).toEqual([]);
    const v = r2.value as any;
    expect(v.paths["/pets/{id}"].post).toEqual({ operationId: "createPet", responses: { "201": { description: "made" } } });
    expect(v.paths["/pets/{id}"].get.operationId).toBe("listPets");
    expect(v.paths["/pets/{id}"].post).not.toBe(v.paths["/pets"].post); // a copy
  });

  it("refuses a copy selecting several nodes or none", () => {
    const file = overlay(ov([{ target: "$.info", copy: "$.paths.*" }], "1.1.0"));
    const r = applyOverlays(pets(), [file], DOC);
    expect(errors(r).map((p) => [p.code, p.file, p.pointer])).toEqual([["overlay-copy-ambiguous", file, "/actions/0/copy"]]);
    const r2 = applyOverlays(pets(), [overlay(ov([{ target: "$.info", copy: "$.nothing" }], "1.1.0"))], DOC);
    expect(errors(r2).map((p) => p.code)).toEqual(["overlay-copy-ambiguous"]);
  });

  it("is not part of Overlay 1.0", () => {
    const r = applyOverlays(pets(), [overlay(ov([{ target: "$.info", copy: "$.components" }]))], DOC);
    expect(errors(r).map((p) => [p.code, p.pointer])).toEqual([["overlay-invalid", "/actions/0/copy"]]);
  });
});

describe("order", () => {
  it("applies actions in order, each to the result of the ones before", () => {
    const r = applyOverlays(pets(), [overlay(ov([
      { target: "$.paths['/pets'].get", update: { operationId: "findPets" } },
      { target: "$.paths.*[?@.operationId == 'findPets']", update: { summary: "Found" } },
      { target: "$.tags", update: { name: "e" } },
      { target: "$.tags[4]", update: { description: "appended" } },
    ]))], DOC);
    expect(r.problems).toEqual([]);
    const v = r.value as any;
    expect(v.paths["/pets"].get.summary).toBe("Found");
    expect(v.tags[4]).toEqual({ name: "e", description: "appended" });
  });

  it("applies several overlays in order", () => {
    const a = overlay(ov([{ target: "$.info", update: { title: "A", "x-a": 1 } }]));
    const b = overlay(ov([{ target: "$.info", update: { title: "B" } }, { target: "$.info['x-a']", remove: true }]));
    const r = applyOverlays(pets(), [a, b], DOC);
    expect(r.problems).toEqual([]);
    expect((r.value as any).info).toEqual({ title: "B", version: "1.0.0", description: "old" });
    expect(r.files).toEqual([a, b]);
  });
});

describe("problems", () => {
  it("warns, located in the overlay, when a target matches nothing", () => {
    const file = overlay([
      "overlay: 1.0.0",
      "info: { title: t, version: '1' }",
      "actions:",
      "  - target: $.paths['/nothing']",
      "    update: { summary: x }",
      "",
    ].join("\n"));
    const r = applyOverlays(pets(), [file], DOC);
    expect(r.problems).toEqual([{ code: "overlay-target-unmatched", severity: "warning", message: expect.any(String), file, line: 4, col: 13, pointer: "/actions/0/target" }]);
  });

  it("refuses an invalid JSONPath, located, with json-p3's message and position", () => {
    const file = overlay(ov([{ target: "$.info" , update: { a: 1 } }, { target: "$.paths[", update: { a: 1 } }]));
    const doc = pets();
    const r = applyOverlays(doc, [file], DOC);
    expect(r.problems).toHaveLength(1);
    const p = r.problems[0]!;
    expect([p.code, p.severity, p.file, p.pointer]).toEqual(["overlay-jsonpath-invalid", "error", file, "/actions/1/target"]);
    expect(p.line).toBeGreaterThan(1);
    expect(p.message).toMatch(/unclosed bracketed selection/);
    expect(p.message).toMatch(/at character 9\b/);
    expect(r.value).toBe(doc); // nothing of it applied
  });

  it("refuses a function RFC 9535 does not define (nothing is evaluated as code)", () => {
    for (const target of ["$.paths[?eval('globalThis.polluted = 1')]", "$.paths[?@.get.constructor.constructor('x')]", "$.paths[?typeof(@) == 'object']", "$.paths[~]"]) {
      const r = applyOverlays(pets(), [overlay(ov([{ target, update: { a: 1 } }]))], DOC);
      expect(r.problems.map((p) => p.code), target).toEqual(["overlay-jsonpath-invalid"]);
    }
    expect((globalThis as any).polluted).toBeUndefined();
  });

  it("refuses an unsupported version and a malformed overlay", () => {
    for (const version of ["2.0.0", "1.2.0", "1.0", "0.9.0"]) {
      const r = applyOverlays(pets(), [overlay(ov([{ target: "$.info", update: { a: 1 } }], version))], DOC);
      expect(errors(r).map((p) => [p.code, p.pointer]), version).toEqual([["overlay-invalid", "/overlay"]]);
    }
    expect(errors(applyOverlays(pets(), [overlay(ov([{ target: "$.info", update: { a: 1 } }], "1.0.7"))], DOC))).toEqual([]);
    const numeric = applyOverlays(pets(), [overlay("overlay: 1.1\ninfo: { title: t, version: '1' }\nactions: [{ target: $.info, update: { a: 1 } }]\n")], DOC);
    expect(errors(numeric).map((p) => [p.code, p.pointer, p.line])).toEqual([["overlay-invalid", "/overlay", 1]]);
    expect(errors(numeric)[0]!.message).toContain("not a number");
    expect(errors(applyOverlays(pets(), [overlay({ overlay: "1.0.0", actions: [] })], DOC)).map((p) => p.pointer)).toEqual(["", "/actions"]);
    expect(errors(applyOverlays(pets(), [overlay({ ...ov([{ target: "$.info", updat: {} }]), "x-ok": 1 })], DOC)).map((p) => p.pointer)).toEqual(["/actions/0/updat", "/actions/0"]);
  });

  it("reports a missing or unreadable overlay naming the file", () => {
    const missing = join(ROOT, "overlays", "missing.yaml");
    const r = applyOverlays(pets(), [missing], DOC);
    expect(errors(r)).toHaveLength(1);
    expect(r.problems[0]!.message).toContain(missing);
    const bad = overlay("overlay: [1.0.0\n");
    const r2 = applyOverlays(pets(), [bad], DOC);
    expect(errors(r2).length).toBeGreaterThan(0);
    expect(r2.problems[0]!.file).toBe(bad);
  });
});

describe("safety", () => {
  it("bounds what a wide target can write, and stays fast on thousands of matches", () => {
    // 20,000 matches, each updated: origins are recorded without rescanning the ones before (a
    // quadratic walk would outlast the test's time limit); a target matching every node with a
    // 100-key update would write past the budget and is refused, applying nothing.
    const doc = pets();
    for (let i = 0; i < 20_000; i++) doc.paths[`/p${i}`] = { get: { operationId: `op${i}`, responses: { "200": { description: "ok" } } } };
    const ok = applyOverlays(doc, [overlay(ov([{ target: "$.paths.*.get", update: { "x-contract": { effects: { kind: "read" } } } }]))], DOC);
    expect(errors(ok)).toEqual([]);
    expect((ok.value as any).paths["/p19999"].get["x-contract"]).toEqual({ effects: { kind: "read" } });
    expect(ok.origin("/paths/~1p19999/get/x-contract/effects")?.pointer).toBe("/actions/0/update/x-contract/effects");
    const big = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i]));
    const wide = applyOverlays(doc, [overlay(ov([{ target: "$..*", update: { big } }]))], DOC);
    expect(errors(wide).map((p: any) => [p.code, p.pointer])).toEqual([["overlay-update-invalid", "/actions/0/target"]]);
    expect(wide.value).toBe(doc);
  });

  it("never mutates the input", () => {
    const doc = pets();
    const before = JSON.stringify(doc);
    const r = applyOverlays(doc, [overlay(ov([
      { target: "$.info", update: { title: "x" } },
      { target: "$.tags[0]", remove: true },
      { target: "$.tags", update: { name: "z" } },
      { target: "$.paths['/pets'].get.responses['200']", update: { description: "changed" } },
      { target: "$.components.schemas.Pet.properties", update: { age: { type: "integer" } } },
    ]))], DOC);
    expect(r.problems).toEqual([]);
    expect(JSON.stringify(doc)).toBe(before);
    expect(JSON.stringify(r.value)).not.toBe(before);
  });

  it("keeps a __proto__ key of an update an ordinary key", () => {
    const file = overlay('{"overlay":"1.0.0","info":{"title":"t","version":"1"},"actions":[{"target":"$.info","update":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}},{"target":"$.components","update":{"schemas":{"__proto__":{"polluted":true}}}}]}', "json");
    const r = applyOverlays(pets(), [file], DOC);
    expect(r.problems).toEqual([]);
    expect(({} as any).polluted).toBeUndefined();
    expect((Object.prototype as any).polluted).toBeUndefined();
    const info = (r.value as any).info;
    expect(Object.getPrototypeOf(info)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(info, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(info, "__proto__")!.value).toEqual(JSON.parse('{"polluted":true}'));
    expect(info.polluted).toBeUndefined();
  });

  it("refuses a $ref leaving the overlay's folder, or a URL, and rewrites one inside it for the document", () => {
    const outside = overlay(ov([{ target: "$.components.schemas", update: { A: { $ref: "../api/secret.yaml#/A" }, B: { $ref: "https://example.com/x.yaml" }, C: { $ref: "/etc/passwd" } } }]));
    const r = applyOverlays(pets(), [outside], DOC);
    expect(errors(r).map((p) => [p.code, p.pointer])).toEqual([
      ["overlay-ref-outside-root", "/actions/0/update/A/$ref"],
      ["overlay-ref-outside-root", "/actions/0/update/B/$ref"],
      ["overlay-ref-outside-root", "/actions/0/update/C/$ref"],
    ]);
    expect((r.value as any).components.schemas.A).toBeUndefined();
    const inside = overlay(ov([{ target: "$.components.schemas", update: { A: { $ref: "./shared/a.yaml#/A" }, L: { $ref: "#/components/schemas/Pet" } } }]));
    const r2 = applyOverlays(pets(), [inside], DOC);
    expect(r2.problems).toEqual([]);
    expect((r2.value as any).components.schemas.A).toEqual({ $ref: "../overlays/shared/a.yaml#/A" });
    expect((r2.value as any).components.schemas.L).toEqual({ $ref: "#/components/schemas/Pet" });
  });

  it("refuses an update that would nest past the depth limit", () => {
    let deep: any = { leaf: true };
    for (let i = 0; i < 250; i++) deep = { d: deep };
    let target: any = {};
    const doc: any = { openapi: "3.1.0", deep: target };
    for (let i = 0; i < 20; i++) target = target.d = {};
    const r = applyOverlays(doc, [overlay(ov([{ target: "$.deep" + ".d".repeat(20), update: deep }]))], DOC);
    expect(errors(r).map((p) => p.code)).toEqual(["overlay-update-invalid"]);
  });
});

describe("origin", () => {
  it("maps a node written by an overlay to its place in the overlay file, and the document's own to undefined", () => {
    const a = overlay([
      "overlay: 1.1.0",
      "info: { title: t, version: '1' }",
      "actions:",
      "  - target: $.info",
      "    update:",
      "      contact:",
      "        name: Team",
      "        email: team@example.com",
      "  - target: $.tags",
      "    update: { name: e }",
      "  - target: $.tags[1]",
      "    remove: true",
      "  - target: $.paths['/pets/{id}']",
      "    copy: $.paths['/pets'].post",
      "",
    ].join("\n"));
    const r = applyOverlays(pets(), [a], DOC);
    expect(r.problems).toEqual([]);
    expect(r.origin("/info/title")).toBeUndefined();
    expect(r.origin("/paths/~1pets/get")).toBeUndefined();
    const o = r.origin("/info/contact/email")!;
    expect([o.overlay, o.file, o.pointer]).toEqual([0, a, "/actions/0/update/contact/email"]);
    expect(o.locate()).toMatchObject({ file: a, line: 8, col: 16 });
    // appended as /tags/4, then /tags/1 removed: now /tags/3
    expect(r.origin("/tags/3")?.pointer).toBe("/actions/1/update");
    expect(r.origin("/tags/3/name")?.pointer).toBe("/actions/1/update/name");
    expect(r.origin("/tags/4")).toBeUndefined();
    expect(r.origin("/paths/~1pets~1{id}/responses/201")?.pointer).toBe("/actions/3/copy");
    expect(r.origin("/paths/~1pets~1{id}/get")).toBeUndefined();
    // a later overlay writing the same place wins; removing a node drops its records
    const b = overlay(ov([{ target: "$.info.contact", update: { email: "x@example.com" } }, { target: "$.tags[3]", remove: true }]));
    const r2 = applyOverlays(pets(), [a, b], DOC);
    expect(r2.problems).toEqual([]);
    expect([r2.origin("/info/contact/email")?.overlay, r2.origin("/info/contact/email")?.pointer]).toEqual([1, "/actions/0/update/email"]);
    expect(r2.origin("/info/contact/name")?.overlay).toBe(0);
    expect(r2.origin("/tags/3")).toBeUndefined();
  });
});
