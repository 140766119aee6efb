/**
 * One model call's signal: the run's signal is forwarded into the call's deadline (no
 * AbortSignal.any), an interrupt ends a call that ignores it without counting as a timeout, an
 * already-interrupted run hands the client an aborted signal, and nothing stays registered on the
 * run's signal once the call is over.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { callModel, type CallEnd, type ModelCall } from "../../src/agent/loop-call.js";
import type { ModelClient, ModelRequest, ModelResponse } from "../../src/agent/types.js";

const answer: ModelResponse = {
  content: [{ type: "text", text: "ok" }],
  stop_reason: "end_turn",
  usage: { input_tokens: 1, output_tokens: 1 },
  model: "m",
} as ModelResponse;

function call(client: ModelClient, signal: AbortSignal | undefined, timeoutMs = 60_000): ModelCall {
  return { client, system: "s", tools: [], transcript: [], maxTokens: 10, timeoutMs, turn: 1, signal, now: Date.now };
}

async function drain(gen: AsyncGenerator<unknown, CallEnd, void>): Promise<CallEnd> {
  for (;;) {
    const r = await gen.next();
    if (r.done) return r.value;
  }
}

describe("a model call's signal", () => {
  it("answers, and leaves nothing registered on the run's signal", async () => {
    const run = new AbortController();
    let seen: AbortSignal | undefined;
    const client: ModelClient = {
      model: "m",
      complete: async (req: ModelRequest) => {
        seen = req.signal;
        return answer;
      },
    };
    const end = await drain(callModel(call(client, run.signal)));
    expect(end.outcome).toEqual({ ok: true, response: answer });
    expect(end.timedOut).toBe(false);
    expect(seen?.aborted).toBe(false);
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
  });

  it("an interrupt ends a call that ignores it, with the run's reason, not as a timeout", async () => {
    const run = new AbortController();
    let seen: AbortSignal | undefined;
    const client: ModelClient = {
      model: "m",
      complete: (req: ModelRequest) => {
        seen = req.signal;
        return new Promise<ModelResponse>(() => {});
      },
    };
    const pending = drain(callModel(call(client, run.signal)));
    await new Promise((r) => setTimeout(r, 5));
    run.abort(new Error("SIGINT"));
    const end = await pending;
    expect(end.outcome.ok).toBe(false);
    expect(end.timedOut).toBe(false);
    expect(seen?.aborted).toBe(true);
    expect((seen?.reason as Error | undefined)?.message).toBe("SIGINT");
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
  });

  it("an already interrupted run hands the client an aborted signal", async () => {
    const run = new AbortController();
    run.abort(new Error("before"));
    let seen: AbortSignal | undefined;
    const client: ModelClient = {
      model: "m",
      complete: async (req: ModelRequest) => {
        seen = req.signal;
        throw new Error("aborted");
      },
    };
    const end = await drain(callModel(call(client, run.signal)));
    expect(seen?.aborted).toBe(true);
    expect((seen?.reason as Error | undefined)?.message).toBe("before");
    expect(end.outcome.ok).toBe(false);
  });

  it("the deadline ends a call that ignores it, as a timeout", async () => {
    const client: ModelClient = { model: "m", complete: () => new Promise<ModelResponse>(() => {}) };
    const end = await drain(callModel(call(client, undefined, 10)));
    expect(end.outcome.ok).toBe(false);
    expect(end.timedOut).toBe(true);
  });
});
