import type { AgentLimits, AgentResult, RunAgentOptions } from "../../src/agent/loop.js";
import { runAgent } from "../../src/agent/loop.js";
import { priceFor } from "../../src/agent/pricing.js";
import type { CallHooks, ContentBlock, ModelClient, ModelRequest, ModelResponse } from "../../src/agent/types.js";
import type { RunEventBody, Usage } from "../../src/core/events.js";

export const LIMITS: AgentLimits = {
  maxTurns: 20,
  maxSeconds: 300,
  runBudgetUsd: 1,
  monthlyBudgetLeftUsd: 50,
  maxTokens: 4096,
  requestTimeoutS: 60,
};

export async function drain(gen: AsyncGenerator<RunEventBody, AgentResult, void>): Promise<{ events: RunEventBody[]; result: AgentResult }> {
  const events: RunEventBody[] = [];
  for (;;) {
    const n = await gen.next();
    if (n.done) return { events, result: n.value };
    events.push(n.value);
  }
}

export function run(opts: Partial<RunAgentOptions> & Pick<RunAgentOptions, "client" | "runtime">) {
  return drain(
    runAgent({
      system: "You are a test agent.",
      task: "Trading day: 2024-05-06.",
      limits: LIMITS,
      price: priceFor("scripted"),
      ...opts,
    }),
  );
}

export const usage = (input = 100, output = 20, extra: Partial<Usage> = {}): Usage => ({
  input_tokens: input,
  output_tokens: output,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  ...extra,
});

export type Turn =
  | { content: ContentBlock[]; stop_reason: string; usage?: Usage }
  | ((req: ModelRequest) => { content: ContentBlock[]; stop_reason: string; usage?: Usage });

/** A client answering from a list of turns; records each request. */
export class QueueClient implements ModelClient {
  readonly model: string;
  readonly requests: ModelRequest[] = [];
  private i = 0;
  constructor(
    private readonly turns: Turn[],
    model = "claude-sonnet-4-5",
  ) {
    this.model = model;
  }
  async complete(req: ModelRequest, hooks?: CallHooks): Promise<ModelResponse> {
    this.requests.push(req);
    const t = this.turns[this.i++];
    if (!t) throw new Error("QueueClient ran out of turns");
    const r = typeof t === "function" ? t(req) : t;
    for (const b of r.content) if (b.type === "text") hooks?.onText?.(String(b.text));
    return { content: r.content, stop_reason: r.stop_reason, usage: r.usage ?? usage(), model: this.model };
  }
}

export const text = (t: string): ContentBlock => ({ type: "text", text: t });
export const use = (id: string, name: string, input: unknown): ContentBlock => ({ type: "tool_use", id, name, input });

export function types(events: RunEventBody[]): string[] {
  return events.filter((e) => e.type !== "model.text").map((e) => e.type);
}

export function ofType<T extends RunEventBody["type"]>(events: RunEventBody[], t: T): Extract<RunEventBody, { type: T }>[] {
  return events.filter((e): e is Extract<RunEventBody, { type: T }> => e.type === t);
}
