/** The diff configuration file: per-rule severities and accepted findings, each with a reason. */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import type { DiffConfig } from "./engine.js";
import { type Rule, SEVERITIES } from "./rule.js";

export class ConfigError extends Error {}

export function loadDiffConfig(path: string, rules: readonly Rule[]): DiffConfig {
  let raw: unknown;
  try {
    raw = parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new ConfigError(`${path}: ${(e as Error).message.split("\n")[0]}`);
  }
  const ids = new Set(rules.map((r) => r.id));
  const out: { rules: Record<string, "breaking" | "warning" | "info" | "off">; ignore: Array<{ rule: string; operation?: string; reason: string }>; strictOutputValidation?: boolean } = {
    rules: Object.create(null) as Record<string, "breaking" | "warning" | "info" | "off">,
    ignore: [],
  };
  if (raw === null || raw === undefined) return out;
  if (typeof raw !== "object" || Array.isArray(raw)) throw new ConfigError(`${path}: must be a mapping with \`rules\`, \`ignore\` and/or \`strictOutputValidation\`.`);
  const { rules: severities, ignore, strictOutputValidation, ...rest } = raw as Record<string, unknown>;
  for (const key of Object.keys(rest)) throw new ConfigError(`${path}: unknown key ${JSON.stringify(key)} (expected rules, ignore, strictOutputValidation).`);
  if (strictOutputValidation !== undefined) {
    if (typeof strictOutputValidation !== "boolean") throw new ConfigError(`${path}: \`strictOutputValidation\` must be true or false.`);
    out.strictOutputValidation = strictOutputValidation;
  }
  if (severities !== undefined) {
    if (typeof severities !== "object" || severities === null || Array.isArray(severities)) throw new ConfigError(`${path}: \`rules\` must map rule ids to a severity or off.`);
    for (const [id, level] of Object.entries(severities)) {
      if (!ids.has(id)) throw new ConfigError(`${path}: rules.${id}: no such rule (see docs/diff-rules.md).`);
      if (level !== "off" && !SEVERITIES.includes(level as never)) throw new ConfigError(`${path}: rules.${id}: must be breaking, warning, info or off.`);
      out.rules[id] = level as never;
    }
  }
  if (ignore !== undefined) {
    if (!Array.isArray(ignore)) throw new ConfigError(`${path}: \`ignore\` must be a list.`);
    ignore.forEach((item: unknown, i) => {
      const entry = item as Record<string, unknown> | null;
      if (!entry || typeof entry !== "object") throw new ConfigError(`${path}: ignore[${i}] must be a mapping.`);
      if (typeof entry.rule !== "string" || !ids.has(entry.rule)) throw new ConfigError(`${path}: ignore[${i}].rule must name a rule.`);
      if (typeof entry.reason !== "string" || entry.reason.trim() === "") throw new ConfigError(`${path}: ignore[${i}] needs a reason: say why this finding is accepted.`);
      if (entry.operation !== undefined && typeof entry.operation !== "string") throw new ConfigError(`${path}: ignore[${i}].operation must be a string.`);
      out.ignore.push({ rule: entry.rule, reason: entry.reason.trim(), ...(typeof entry.operation === "string" ? { operation: entry.operation } : {}) });
    });
  }
  return out;
}
