/**
 * Every screen over fixture runs, checked for any number or time a person reads that skipped the one
 * formatter (src/core/format.ts): tests/util/unformatted.ts lists what counts (too many decimals, 4+
 * digits without separators, an amount without its currency, an ISO timestamp, a clock glued to a day).
 */
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { bindingHash, SIDE_OF, type StandingOrder, type StandingType } from "../../src/journal/standing-orders.js";
import { EventSink } from "../../src/run/event-sink.js";
import { AccountBody } from "../../src/screens/journal-chart.js";
import { JournalScreen } from "../../src/screens/JournalScreen.js";
import { KillSwitchScreen } from "../../src/screens/KillSwitchScreen.js";
import { ReconcileScreen } from "../../src/screens/ReconcileScreen.js";
import type { Mounted } from "../../src/screens/run-app.js";
import { StandingApprovalScreen } from "../../src/screens/StandingApprovalScreen.js";
import { findingsText } from "../util/unformatted.js";
import { io } from "./fake-terminal.js";
import { approvalOnScreen, halted, source } from "./fixtures.js";
import { KEY, sendInputAndWaitForChange, waitForFrame } from "./helpers.js";
import { scenarioEvents } from "./scenario.js";

const mounted: Mounted[] = [];
afterEach(() => {
  for (const m of mounted.splice(0)) m.unmount();
  cleanup();
});

function standing(id: string, type: StandingType, trigger: number): StandingOrder {
  const o: StandingOrder = {
    id,
    symbol: "ALFA",
    type,
    trigger_price: trigger,
    side: SIDE_OF[type],
    quantity: 1_200,
    limit_price: trigger,
    expires_on: "2024-01-31",
    reason: `why ${id}`,
    evidence_ids: ["e"],
    proposed_run: "r1",
    proposed_day: "2024-01-02",
    proposed_at: "2024-01-02T15:00:00Z",
    ttl_trading_days: 20,
    binding_hash: "",
    status: "proposed",
  };
  return { ...o, binding_hash: bindingHash(o) };
}

describe("no screen shows an unformatted number or time", () => {
  it("the run console and its approval screen", async () => {
    const t = io(120, 50);
    const sink = new EventSink();
    sink.runId = "20260302T140000Z-abcdef";
    for (const e of scenarioEvents(40)) if (e.type !== "run.finished") sink.emit(e);
    expect(findingsText("approval", await approvalOnScreen(sink, t, mounted))).toBe("");
  });

  it("the journal: runs list, a run's detail and the account chart", async () => {
    const inst = render(<JournalScreen source={source()} onExit={() => {}} onInterrupt={() => {}} />);
    const list = await waitForFrame(inst, "run-0304");
    expect(findingsText("journal list", list)).toBe("");
    await sendInputAndWaitForChange(inst, KEY.enter);
    const detail = await waitForFrame(inst, "Timeline");
    expect(findingsText("journal detail", detail)).toBe("");
    const chart = render(
      <AccountBody
        account={{
          points: [100_000, 104_000, 97_000].map((value, i) => ({ run_id: `r${i}`, trading_day: `2008-01-0${i + 2}`, value, peak: Math.max(100_000, value) })),
          max_drawdown_pct: 10,
          base_currency: "USD",
          trading_state: "ACTIVE",
        }}
        width={100}
        height={16}
      />,
    );
    expect(findingsText("account chart", chart.lastFrame() ?? "")).toBe("");
  });

  it("the kill-switch screen", () => {
    const f =
      render(
        <KillSwitchScreen
          facts={{ ...halted, tripped_at: "2026-03-02T15:30:00.123Z", trading_day: "2026-03-02" }}
          onReset={async () => {}}
          onExit={() => {}}
          onInterrupt={() => {}}
        />,
      ).lastFrame() ?? "";
    expect(f).toContain("15:30:00 UTC");
    expect(findingsText("kill switch", f)).toBe("");
  });

  it("the reconcile screen", () => {
    const f =
      render(
        <ReconcileScreen
          recovered={[]}
          differences={[
            {
              kind: "unbooked_position",
              symbol: "SPX",
              journal_quantity: 0,
              broker_quantity: 3,
              message: "the broker holds 3 SPX, the journal has no such holding",
              proves: "no journal order explains these shares",
              adoptable: true,
            },
          ]}
          onAdopt={async () => []}
          onExit={() => {}}
        />,
      ).lastFrame() ?? "";
    expect(findingsText("reconcile", f)).toBe("");
  });

  it("the standing-order review", () => {
    const orders = [standing("so-1", "stop_loss", 1_090.5), standing("so-2", "take_profit", 1_200)];
    const f = render(<StandingApprovalScreen request={{ runId: "r1", orders }} onDecide={() => {}} onInterrupt={() => {}} />).lastFrame() ?? "";
    expect(f).toContain("ALFA");
    expect(findingsText("standing review", f)).toBe("");
  });
});
