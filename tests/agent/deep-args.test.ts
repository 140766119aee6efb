/**
 * Tool arguments nested far too deep (the model's answer parsed fine; every recursive walk after it
 * overflows the stack) are answered with the validation envelope, and the run goes on. Through the
 * recording client a real run uses (its cassette, redaction) and a model whose next request is
 * serialised as a real client's is. Before the fix: "Maximum call stack size exceeded", model_error.
 */
import { describe, expect, test } from "vitest";
import { RecordingClient } from "../../src/agent/cassette.js";
import type { ModelRequest } from "../../src/agent/types.js";
import { CONTRACT_VERSION } from "../../src/tools/catalogue.js";
import { ofType, QueueClient, run, use } from "./helpers.js";
import { makeWorld } from "./world.js";

function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

/** A real client sends the whole conversation as JSON. */
const serialised = (req: ModelRequest) => JSON.stringify(req.messages);

describe("tool arguments nested too deep", () => {
  for (const depth of [65, 10_000, 200_000]) {
    test(`${depth} levels: refused with the validation envelope, recorded, and the model corrects itself`, async () => {
      const inner = new QueueClient([
        () => ({ content: [use("a", "get_portfolio", { x: nested(depth) })], stop_reason: "tool_use" }),
        (req) => {
          expect(serialised(req)).toContain("nest deeper than 64 levels");
          return { content: [use("b", "get_portfolio", {})], stop_reason: "tool_use" };
        },
        (req) => {
          serialised(req);
          return { content: [use("s1", "submit_orders", { orders: [], summary: "Nothing to do." })], stop_reason: "tool_use" };
        },
      ]);
      const client = new RecordingClient(inner, { contractVersion: CONTRACT_VERSION });
      const { result, events } = await run({ client, runtime: makeWorld().runtime });
      expect(result.outcome, result.reason).toBe("hold");
      expect(ofType(events, "tool.rejected")[0]).toMatchObject({
        call_id: "a",
        error_code: "invalid_tool_arguments_json",
        error: "arguments nest deeper than 64 levels",
      });
      // Every event and cassette line is writable JSON.
      expect(() => JSON.stringify(events)).not.toThrow();
      expect(client.lines.length).toBeGreaterThan(3);
    });
  }
});
