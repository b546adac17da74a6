/**
 * A previewable operation's execute method requires the confirm token in its type, and takes the
 * dry-run switch only as `false` (the client sends false either way); its preview method takes the
 * input without token or switch. Pinned with one tsc --strict run over calls marked `@ts-expect-error`,
 * for a dry-run default of true and of false.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { contractYaml, freshRoot, generateInto, parseOk, tscStrict } from "../hostile/harness.js";

const refund = (name: string, dryRunDefault: boolean) => `
  ${name}:
    summary: Refund.
    http: { method: POST, path: /${name} }
    effects: { kind: mutating, idempotent: key, destructive: true, reversible: false }
    idempotency: { key: key, retention: 24h, mismatchError: KEY_REUSED }
    preview: { dryRun: dry_run, default: ${dryRunDefault}, confirmToken: confirm_token, ttl: 10m, invalidTokenError: CONFIRMATION_REQUIRED }
    input:
      type: object
      required: [amount]
      properties:
        amount: { type: integer }
        key: { type: string }
        dry_run: { type: boolean, default: ${dryRunDefault} }
        confirm_token: { type: string }
    output: { type: object, properties: { amount: { type: integer } } }
    errors: [KEY_REUSED, CONFIRMATION_REQUIRED]`;

describe("execute and preview method inputs", () => {
  it("the execute method requires the confirm token; dry run only false; preview takes neither", async () => {
    const root = freshRoot("confirm-types");
    const yaml = contractYaml({
      errors: [
        "  BAD_INPUT: { class: invalid_input, action: fix_field, http: 400 }",
        "  KEY_REUSED: { class: conflict, action: stop_and_surface, http: 409 }",
        "  CONFIRMATION_REQUIRED: { class: conflict, action: reread_and_replan, http: 409 }",
      ].join("\n"),
      operations: refund("refund_preview_default", true) + refund("refund_execute_default", false),
    });
    const model = parseOk("confirm", yaml);
    await generateInto(join(root, "confirm"), model);
    const checks = [
      `import { HostileClient } from "./client.js";`,
      `export async function calls(c: HostileClient): Promise<void> {`,
      ...["refundPreviewDefault", "refundExecuteDefault"].flatMap((m) => {
        const preview = `preview${m[0]!.toUpperCase()}${m.slice(1)}`;
        return [
          `  {`,
          `  await c.${m}({ amount: 1, confirm_token: "t" });`,
          `  await c.${m}({ amount: 1, key: "k", confirm_token: "t", dry_run: false });`,
          `  // @ts-expect-error the confirm token is required to execute`,
          `  await c.${m}({ amount: 1 });`,
          `  // @ts-expect-error executing cannot be a dry run`,
          `  await c.${m}({ amount: 1, confirm_token: "t", dry_run: true });`,
          `  const p = { amount: 1, confirm_token: undefined as string | undefined };`,
          `  // @ts-expect-error a possibly missing token is not a token`,
          `  await c.${m}(p);`,
          `  await c.${preview}({ amount: 1 });`,
          `  // @ts-expect-error a preview issues the token, it takes none`,
          `  await c.${preview}({ amount: 1, confirm_token: "t" });`,
          `  }`,
        ];
      }),
      `}`,
    ];
    writeFileSync(join(root, "confirm", "sdk", "confirm-checks.ts"), `${checks.join("\n")}\n`);
    expect(tscStrict(root)).toBe("");
  });
});
