import { describe, expect, it } from "vitest";
import { RUN_EVENT_TYPES } from "../../src/core/events.js";

const LISTED = [
  "run.started",
  "preflight.failed",
  "reconcile.ok",
  "reconcile.failed",
  "order.recovered",
  "valuation",
  "killswitch.tripped",
  "run.note",
  "standing.fired",
  "model.turn_started",
  "model.text",
  "model.response",
  "model.retry",
  "tool.called",
  "tool.rejected",
  "tool.result",
  "tool.pending",
  "research.search",
  "mask.enabled",
  "mask.leak",
  "gate.dry_run",
  "submit.bounced",
  "agent.finished",
  "proposal",
  "approval.requested",
  "approval.decided",
  "gate.final",
  "order.placed",
  "order.partially_filled",
  "order.filled",
  "order.funded_buy",
  "order.cancelled",
  "order.rejected",
  "order.uncertain",
  "order.expired",
  "run.finished",
];

describe("RUN_EVENT_TYPES", () => {
  it("is read off the event schema: every event type once", () => {
    expect(new Set(RUN_EVENT_TYPES).size).toBe(RUN_EVENT_TYPES.length);
    expect([...RUN_EVENT_TYPES].sort()).toEqual([...LISTED].sort());
  });
});
