/**
 * LLM spend is handed to the journal after every model call (issue #13), before the next call or any
 * tool runs: a loop that dies later (a crash, a kill) never loses what was already spent.
 */
import { describe, expect, test } from "vitest";
import { ScriptedClient } from "../../src/agent/scripted-client.js";
import type { CallHooks, ModelClient, ModelRequest, ModelResponse } from "../../src/agent/types.js";
import { run } from "./helpers.js";
import { makeWorld } from "./world.js";

/** Logs each model call, then answers with the scripted model. */
class LoggingClient implements ModelClient {
  readonly model: string;
  constructor(
    private readonly inner: ModelClient,
    private readonly log: string[],
  ) {
    this.model = inner.model;
  }
  async complete(req: ModelRequest, hooks?: CallHooks): Promise<ModelResponse> {
    this.log.push("call");
    return this.inner.complete(req, hooks);
  }
}

describe("spend per model call", () => {
  test("onUsage follows each call before the next one; a failure after the first call still leaves it recorded", async () => {
    const log: string[] = [];
    const w = makeWorld();
    const recorded: number[] = [];
    const { result } = await run({
      client: new LoggingClient(new ScriptedClient({ script: "blocked-then-revise" }), log),
      runtime: w.runtime,
      submitState: w.submit.state,
      onUsage: async (u) => {
        log.push("usage");
        recorded.push(u.turn);
      },
    });
    expect(result.usage.length).toBeGreaterThan(1);
    expect(log).toEqual(result.usage.flatMap(() => ["call", "usage"]));
    expect(recorded).toEqual(result.usage.map((u) => u.turn));

    // The journal write failing stops the loop at once (fail closed): no further model call.
    const log2: string[] = [];
    const failing = run({
      client: new LoggingClient(new ScriptedClient({ script: "blocked-then-revise" }), log2),
      runtime: makeWorld().runtime,
      onUsage: async () => {
        throw new Error("disk full");
      },
    });
    await expect(failing).rejects.toThrow("disk full");
    expect(log2).toEqual(["call"]);
  });
});
