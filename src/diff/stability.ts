/**
 * What an operation's stability level promises its callers (OpenAPI's `x-stability-level`): draft and
 * alpha operations may change freely, beta ones without a major version, stable ones only compatibly.
 * A finding about an operation is judged by the level the old contract gave it (that is what callers
 * were told when they wrote their code), so a change that settles an operation is judged leniently too;
 * a finding about several operations by the most settled of them.
 */
import type { StabilityLevel } from "../model/types.js";
import { STABILITY_LEVELS } from "../model/types.js";
import type { Severity } from "./rule.js";

/** Rules about the stability itself, which a level cannot relax. */
export const STABILITY_RULES: ReadonlySet<string> = new Set(["operation-stability-decreased", "operation-stability-changed"]);

/** The severity of a finding about an operation at `level`: breaking is a warning under beta; nothing is more than info under draft or alpha. */
export function relaxedSeverity(severity: Severity, level: StabilityLevel | null): Severity {
  if (level === "draft" || level === "alpha") return "info";
  if (level === "beta" && severity === "breaking") return "warning";
  return severity;
}

/** The hint a relaxed finding carries, saying why it is not breaking. */
export function stabilityHint(level: StabilityLevel): string {
  return level === "beta"
    ? "The operation is marked beta: its callers were told it may change without a major version; tell them what changed."
    : `The operation is marked ${level}: its callers were told it may change or go away at any time.`;
}

/** Rank of a level (absent reads as stable), for comparing two. */
export function stabilityRank(level: StabilityLevel | null): number {
  return STABILITY_LEVELS.indexOf(level ?? "stable");
}
