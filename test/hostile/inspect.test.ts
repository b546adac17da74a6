/**
 * The hostile corpus's Markdown inspector reads code spans as CommonMark does (a run of N backticks
 * closed by the next run of exactly N), so text a wider fence holds verbatim is not taken for a live
 * tag, while a tag outside every span, or behind an opener with no partner, still is.
 */
import { describe, expect, it } from "vitest";
import { markdownInjections } from "./support/inspect.js";

describe("markdownInjections", () => {
  it("finds a raw script tag or javascript: link outside code spans", () => {
    expect(markdownInjections("a.md", "x <script>y")).toEqual(["a.md: raw <script> tag"]);
    expect(markdownInjections("a.md", "[c](javascript:x) ``q``")).toEqual(["a.md: live javascript: link"]);
  });

  it("ignores what a code span of any fence width holds", () => {
    expect(markdownInjections("a.md", "x `<script>` y")).toEqual([]);
    expect(markdownInjections("a.md", "x ``a ` <script> [c](javascript:x)`` y")).toEqual([]);
    expect(markdownInjections("a.md", "x `a`` <script>` y")).toEqual([]);
  });

  it("treats an opener without a partner of the same width as literal text", () => {
    expect(markdownInjections("a.md", "x ``a <script>` y")).toEqual(["a.md: raw <script> tag"]);
    expect(markdownInjections("a.md", "` [c](javascript:x)")).toEqual(["a.md: live javascript: link"]);
  });
});
