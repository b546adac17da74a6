/** The reference host over the http format extensions: a whole-body field decoded, a 204 answered without a body. */
import { afterEach, describe, expect, it } from "vitest";
import { type RunningPlatform, startPlatform } from "../../examples/shared/host.js";
import { openDatabase } from "../../examples/shared/sqlite.js";
import { parseContractText } from "../../src/contract/parse.js";

const CONTRACT = `contract: labels
version: "1.0.0"
changelog:
  - { version: "1.0.0", date: "2026-01-15" }
transport:
  http: { baseUrl: "http://127.0.0.1:4010" }
errors:
  BAD_INPUT: { class: invalid_input, action: fix_field, http: 400 }
operations:
  add_labels:
    summary: Add labels to an issue.
    http: { method: POST, path: "/issues/{issue}/labels", successStatus: [200, 201], body: labels }
    effects: { kind: mutating, idempotent: natural, destructive: false }
    input:
      type: object
      additionalProperties: false
      required: [issue, labels]
      properties:
        issue: { type: integer }
        labels: { type: array, items: { type: string } }
    output: { type: array, items: { type: string } }
  remove_labels:
    summary: Remove labels from an issue.
    http: { method: DELETE, path: "/issues/{issue}/labels", successStatus: 204, body: labels }
    effects: { kind: mutating, idempotent: natural, destructive: false }
    input:
      type: object
      additionalProperties: false
      required: [issue, labels]
      properties:
        issue: { type: integer }
        labels: { type: array, items: { type: string } }
    output: { type: "null" }
`;

let platform: RunningPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform?.db.close();
  platform = undefined;
});

describe("reference host", () => {
  it("decodes a whole-body array into its field, answers the first listed status, and 204 with an empty body", async () => {
    const received: unknown[] = [];
    const model = parseContractText("labels.yaml", CONTRACT).model!;
    platform = await startPlatform({
      spec: model,
      db: openDatabase(),
      handlers: {
        add_labels: (input: { labels: string[] }) => (received.push(input), input.labels),
        remove_labels: (input: { labels: string[] }) => (received.push(input), null),
      },
    });
    const send = (method: string, path: string, body: string) => fetch(`${platform!.url}${path}`, { method, headers: { "content-type": "application/json" }, body });

    const added = await send("POST", "/issues/4/labels", '["bug","ui"]');
    expect([added.status, await added.text()]).toEqual([200, '["bug","ui"]']);
    const removed = await send("DELETE", "/issues/4/labels", '["bug"]');
    expect([removed.status, await removed.text(), removed.headers.get("content-length")]).toEqual([204, "", null]);
    expect(received).toEqual([{ issue: 4, labels: ["bug", "ui"] }, { issue: 4, labels: ["bug"] }]);

    // The body is the field: an object where an array is declared is refused as invalid input.
    const wrong = await send("POST", "/issues/4/labels", '{"labels":["bug"]}');
    expect(wrong.status).toBe(400);
  });
});
