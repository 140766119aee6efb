import { expect, test } from "vitest";
import { ScriptedClient } from "../../src/agent/scripted-client.js";
import { median, sampleRun } from "./overhead.js";

test("harness overhead per turn with the scripted model is under 1 ms median (model time excluded)", async () => {
  for (let i = 0; i < 20; i++) await sampleRun(new ScriptedClient({ script: "momentum" })); // warm-up
  const samples = [];
  for (let i = 0; i < 100; i++) samples.push(await sampleRun(new ScriptedClient({ script: i % 2 ? "momentum" : "runaway" })));
  const perTurn = median(samples.map((s) => s.overheadPerTurnMs));
  expect(perTurn).toBeLessThan(1);
});
