/**
 * Harness overhead of the agent loop: wall time of a run minus the time spent inside the model
 * client, per turn. Shared by the overhead test and bench/agent.bench.ts.
 */
import { runAgent } from "../../src/agent/loop.js";
import { priceFor } from "../../src/agent/pricing.js";
import type { CallHooks, ModelClient, ModelRequest, ModelResponse } from "../../src/agent/types.js";
import { drain, LIMITS } from "./helpers.js";
import { makeWorld } from "./world.js";

export class TimedClient implements ModelClient {
  readonly model: string;
  modelMs = 0;
  constructor(private readonly inner: ModelClient) {
    this.model = inner.model;
  }
  async complete(req: ModelRequest, hooks?: CallHooks): Promise<ModelResponse> {
    const t = performance.now();
    try {
      return await this.inner.complete(req, hooks);
    } finally {
      this.modelMs += performance.now() - t;
    }
  }
}

export interface OverheadSample {
  turns: number;
  wallMs: number;
  modelMs: number;
  overheadPerTurnMs: number;
}

/** One run; the world (tool runtime) is built before the clock starts. */
export async function sampleRun(client: ModelClient, limits = LIMITS): Promise<OverheadSample> {
  const w = makeWorld();
  const timed = new TimedClient(client);
  const t = performance.now();
  const { result } = await drain(
    runAgent({
      client: timed,
      runtime: w.runtime,
      system: "You are a test agent.",
      task: "Trading day: 2024-05-06.",
      limits,
      price: priceFor(client.model === "scripted" ? "scripted" : client.model),
      submitState: w.submit.state,
    }),
  );
  const wallMs = performance.now() - t;
  return { turns: result.turns, wallMs, modelMs: timed.modelMs, overheadPerTurnMs: (wallMs - timed.modelMs) / Math.max(1, result.turns) };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}
