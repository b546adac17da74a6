import { type Diagnostic, diagnostic } from "../../diagnostics/diagnostic.js";
import { compareSemver, parseSemver, type SemVer } from "../../model/semver.js";
import type { CheckContext } from "../context.js";
import { hasPointer, joinPointer } from "../source.js";

/** The contract version is semver; the changelog is newest first, covers it and points at real nodes. */
export function checkHeader(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { doc, file } = ctx;
  const current = parseSemver(doc.version);
  if (!current) {
    out.push(diagnostic("version-not-semver", `Contract version ${JSON.stringify(doc.version)} is not MAJOR.MINOR.PATCH.`, file.locate("/version")));
  }
  const changelog = doc.changelog ?? [];
  const parsed: Array<{ version: SemVer; index: number } | undefined> = changelog.map((entry, index) => {
    const v = parseSemver(entry.version);
    if (!v) {
      out.push(diagnostic("version-not-semver", `Changelog version ${JSON.stringify(entry.version)} is not MAJOR.MINOR.PATCH.`, file.locate(`/changelog/${index}/version`)));
      return undefined;
    }
    return { version: v, index };
  });

  if (current && !changelog.some((e) => e.version === doc.version)) {
    out.push(
      diagnostic(
        "changelog-missing-current-version",
        `The changelog has no entry for version ${doc.version}.`,
        changelog.length > 0 ? file.locateKey("/changelog") : file.locate("/version"),
      ),
    );
  }
  for (let i = 1; i < changelog.length; i++) {
    const prev = changelog[i - 1]!;
    const entry = changelog[i]!;
    const a = parsed[i - 1];
    const b = parsed[i];
    if (a && b && compareSemver(a.version, b.version) <= 0) {
      out.push(diagnostic("changelog-unsorted", `Changelog entry ${entry.version} follows ${prev.version}; entries must be newest first with distinct versions.`, file.locate(`/changelog/${i}/version`)));
    } else if (entry.date > prev.date) {
      out.push(diagnostic("changelog-unsorted", `Changelog entry ${entry.version} is dated ${entry.date}, after the newer entry ${prev.version} (${prev.date}).`, file.locate(`/changelog/${i}/date`)));
    }
  }
  parsed.forEach((p, i) => {
    if (p && current && compareSemver(p.version, current) > 0) {
      out.push(diagnostic("changelog-future-version", `Changelog entry ${changelog[i]!.version} is newer than the contract version ${doc.version}.`, file.locate(`/changelog/${i}/version`)));
    }
  });
  changelog.forEach((entry, i) => {
    (entry.changes ?? []).forEach((change, j) => {
      if (!hasPointer(file.value, change.target)) {
        out.push(diagnostic("changelog-target-unresolved", `Changelog target ${JSON.stringify(change.target)} names nothing in this contract.`, file.locate(joinPointer(`/changelog/${i}/changes/${j}`, "target"))));
      }
    });
  });
  return out;
}
