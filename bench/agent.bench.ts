/**
 * Agent-loop benchmarks. Targets (issue 6): harness overhead per turn with the scripted model under
 * 1 ms median (model time excluded); under 2% of wall time for a 20-turn run against the loopback
 * fake Messages API answering in 200 ms.
 */
import { afterAll, bench, describe } from "vitest";
import { AnthropicClient } from "../src/agent/anthropic-client.js";
import { ScriptedClient } from "../src/agent/scripted-client.js";
import { type FakeAnthropic, startFakeAnthropic } from "../tests/agent/fake-anthropic-server.js";
import { LIMITS } from "../tests/agent/helpers.js";
import { median, type OverheadSample, sampleRun } from "../tests/agent/overhead.js";

const scripted: OverheadSample[] = [];
const server: OverheadSample[] = [];
let fake: FakeAnthropic | undefined;

/**
 * The fake API, started on first use: a model that reads a price history every turn, 200 ms per
 * answer. Each call asks for another lookback, so the calls past the tool's limit are refused as
 * different calls and the run goes to the turn limit (an unchanged repeat of a refused call would
 * end it on the repair budget).
 */
async function fakeApi(): Promise<FakeAnthropic> {
  if (fake) return fake;
  const f = await startFakeAnthropic();
  let n = 0;
  f.setResponder(() => ({
    kind: "message",
    delayMs: 200,
    content: [
      { type: "text", text: "Checking the history again." },
      { type: "tool_use", id: `toolu_${n}`, name: "get_price_history", input: { symbol: "ALFA", lookback_days: 30 + (n++ % 200) } },
    ],
    stop_reason: "tool_use",
  }));
  fake = f;
  return f;
}

/** Prints the targets' measurements (vitest bench shows only timings of whole iterations). */
function report(): void {
  const s = median(scripted.map((x) => x.overheadPerTurnMs));
  const lines = [`scripted model: harness overhead per turn, median of ${scripted.length} runs: ${(s * 1000).toFixed(1)} µs (target < 1000 µs)`];
  const r = server.at(-1);
  if (r) {
    const pct = ((r.wallMs - r.modelMs) / r.wallMs) * 100;
    lines.push(
      `fake API at 200 ms: ${r.turns} turns, wall ${r.wallMs.toFixed(0)} ms, inside the model client ${r.modelMs.toFixed(0)} ms, harness ${(r.wallMs - r.modelMs).toFixed(1)} ms = ${pct.toFixed(2)}% of wall (target < 2%)`,
    );
  }
  console.log(lines.join("\n"));
}

afterAll(async () => {
  await fake?.close();
});

describe("agent loop, scripted model", () => {
  bench("momentum run (4 turns: reads, histories, dry run, submit)", async () => {
    scripted.push(await sampleRun(new ScriptedClient({ script: "momentum" })));
  });
  bench("runaway run (get_portfolio every turn: 5 calls, then its limit's refusal repeated unchanged ends the run on turn 7)", async () => {
    scripted.push(await sampleRun(new ScriptedClient({ script: "runaway" })));
  });
});

describe("agent loop, Claude client against the fake API answering in 200 ms", () => {
  bench(
    "20-turn run",
    async () => {
      const client = new AnthropicClient({ model: "claude-sonnet-5", apiKey: "sk-ant-bench", baseURL: (await fakeApi()).url, maxRetries: 0 });
      server.push(await sampleRun(client, { ...LIMITS, runBudgetUsd: 100 }));
      report();
    },
    { iterations: 2, time: 0, warmupIterations: 0, warmupTime: 0 },
  );
});
