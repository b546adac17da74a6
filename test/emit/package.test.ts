/**
 * The generated package installs as a new user would install it: its README starts with the
 * commands to run, its package.json names better-sqlite3 as an optional dependency and pg as an
 * optional peer (a skeleton's host depends on better-sqlite3) and lets npm run better-sqlite3's install script, and the README
 * says what the operation journal needs, where it lives and how to move it.
 */
import { describe, expect, it } from "vitest";
import { emitPackageFiles, nativeDependencies } from "../../src/emit/package/package.js";
import { parseContract } from "../../src/contract/parse.js";

const files = emitPackageFiles(parseContract("specs/billing.v2.yaml").model!);
const readme = files["README.md"]!;

describe("generated package", () => {
  it("README starts with npm install and npm run build", () => {
    const firstBlock = readme.match(/```(\w*)\n([\s\S]*?)```/)!;
    expect(readme.indexOf(firstBlock[0])).toBeLessThan(readme.indexOf("\n## "));
    expect(firstBlock[1]).toBe("sh");
    const commands = firstBlock[2]!.split("\n").filter((l) => l.trim() !== "").map((l) => l.replace(/\s*#.*$/, ""));
    expect(commands.slice(0, 2)).toEqual(["npm install", "npm run build"]);
  });

  it("package.json names better-sqlite3 as an optional dependency, pg as an optional peer, and allows better-sqlite3's install script", () => {
    type Pkg = { allowScripts?: Record<string, boolean>; dependencies: Record<string, string>; optionalDependencies?: Record<string, string>; peerDependencies: Record<string, string>; peerDependenciesMeta: Record<string, { optional: boolean }> };
    const pkg = JSON.parse(files["package.json"]!) as Pkg;
    expect(pkg.dependencies["better-sqlite3"]).toBeUndefined();
    expect(pkg.dependencies.pg).toBeUndefined();
    // Installed by a plain npm install (the default journal needs it), left out by --omit=optional.
    // TypeScript too: code mode (mcp --mode code) checks programs with it, and says so when it is left out.
    expect(pkg.optionalDependencies).toEqual({ "better-sqlite3": "12.11.1", typescript: "5.9.3" });
    // Code mode's engine: QuickJS compiled to WebAssembly, no native build.
    expect(pkg.dependencies).toMatchObject({ "quickjs-emscripten-core": "0.32.0", "@jitl/quickjs-wasmfile-release-sync": "0.32.0" });
    expect(pkg.peerDependencies).toEqual({ pg: "^8.23.1" });
    expect(pkg.peerDependenciesMeta).toEqual({ pg: { optional: true } });
    expect(pkg.allowScripts).toEqual({ "better-sqlite3": true });
    // A skeleton's host keeps its records in SQLite (in memory by default): there it is a dependency.
    const skeleton = JSON.parse(emitPackageFiles(parseContract("specs/billing.v2.yaml").model!, "skeleton")["package.json"]!) as Pkg;
    expect(skeleton.dependencies["better-sqlite3"]).toBe("12.11.1");
    expect(skeleton.optionalDependencies).toEqual({ typescript: "5.9.3" });
    expect(skeleton.peerDependencies).toEqual({ pg: "^8.23.1" });
    expect(nativeDependencies({ "better-sqlite3": "1.2.3", pg: "4.5.6" }, false)).toMatchObject({ optionalDependencies: { "better-sqlite3": "1.2.3" }, peerDependencies: { pg: "^4.5.6" } });
  });

  it("README says what the journal needs, where it lives by default and how to change it", () => {
    const section = readme.slice(readme.indexOf("## Operation journal"));
    const text = section.slice(0, section.indexOf("\n## ", 4) === -1 ? undefined : section.indexOf("\n## ", 4)).replace(/\s+/g, " ");
    expect(text).toContain("better-sqlite3");
    expect(text).toMatch(/writable folder/);
    expect(text).toMatch(/same (journal )?file/);
    expect(text).toContain("~/.contractgen/billing-journal.sqlite");
    expect(text).toContain("BILLING_JOURNAL");
    expect(text).toContain("`journal` option");
    expect(text).toContain("--journal");
  });
});
