import { q, type Rule } from "../rule.js";

/** Old credentials are sent the old way, which the platform no longer accepts. */
export const rule: Rule = {
  id: "auth-scheme-changed",
  severity: "breaking",
  category: "transport",
  description: "How requests authenticate changed between the single forms: bearer to API key or back, or the header an API key is sent in.",
  hint: "Regenerate the adapters and provision credentials for the new scheme before upgrading.",
  check: (ctx) => {
    // Auth added or removed is judged by auth-credential-required and auth-removed; named schemes by
    // what they send (auth-credential-required). This rule compares the single forms.
    const single = (v: unknown) => v === "bearer" || v === "apiKey";
    const type = ctx.find(["transport", "auth", "type"], ["modified"]).filter((m) => single(m.change.before) && single(m.change.after));
    if (ctx.find(["transport", "auth", "type"], ["modified"]).length > type.length) return [];
    if (type.length > 0) {
      const m = type[0]!;
      return [
        {
          operation: null,
          message: `The auth scheme changed from ${q(m.change.before)} to ${q(m.change.after)}.`,
          before: m.change.path,
          after: m.change.path,
        },
      ];
    }
    // Same type (apiKey on both sides), other header: the key is sent where the platform no longer looks.
    return ctx.find(["transport", "auth", "header"], ["modified"]).map((m) => ({
      operation: null,
      message: `The API key header changed from ${q(m.change.before)} to ${q(m.change.after)}.`,
      before: m.change.path,
      after: m.change.path,
    }));
  },
};
