/** The console shows standing orders firing at the start of a run (the tools' summary lines: tests/tools/summaries.test.ts). */
import { describe, expect, it } from "vitest";
import { initialRunState, type RunItem, type RunState, reduceRun } from "../../src/screens/run-state.js";
import type { RunEvent } from "../../src/core/events.js";
import { ev, order } from "./helpers.js";

const lastItem = (s: RunState): RunItem | undefined => s.items[s.itemCount - 1];
const reduceAll = (events: RunEvent[]) => events.reduce(reduceRun, initialRunState());

describe("the console and the new tools", () => {
  it("a fired standing order is a line on the run screen, placed or blocked", () => {
    const base = {
      type: "standing.fired" as const,
      id: "so-1",
      standing_type: "stop_loss",
      trigger_price: 90,
      reference_price: 89.8,
      order: order("ALFA", "SELL", 5, 89.5),
      approved_by: "alice",
      binding_hash: "h",
    };
    expect(lastItem(reduceAll([ev({ ...base, result: "placed", reasons: [] })]))).toMatchObject({
      kind: "note",
      tone: "ok",
      text: "standing order so-1 (stop_loss at 90.00: SELL 5 ALFA @ 89.50, approved by alice) fired at reference 89.80: passed the final gate, placing it",
    });
    expect(lastItem(reduceAll([ev({ ...base, result: "blocked", reasons: [{ code: "quota", message: "monthly quota used up" }] })]))).toMatchObject({
      tone: "warn",
      text: expect.stringMatching(/blocked by the final gate, not placed \(monthly quota used up\)$/),
    });
    expect(lastItem(reduceAll([ev({ ...base, reference_price: null, result: "expired", reasons: [] })]))).toMatchObject({
      text: expect.stringMatching(/expired unfired$/),
    });
  });
});
