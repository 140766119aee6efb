/** Which notice a finished run sends, by its outcome: from the run's own events, nothing for a quiet ending. */
import { expect, test } from "vitest";
import type { RunEvent } from "../../src/core/events.js";
import type { ExitCode } from "../../src/core/exit-codes.js";
import type { RunOutcome } from "../../src/core/events.js";
import { runNotice } from "../../src/run/notify-run.js";

const base = { runId: "r-1", tradingDay: "2007-01-08", runDir: "/x" };
const at = { run_id: "r-1", seq: 1, at: "2007-01-08T15:00:00Z" };
const input = (outcome: RunOutcome, exitCode: ExitCode, message: string, events: unknown[] = []) => ({
  home: "/h",
  env: { TRADEWARDEN_HOME: "/h" },
  summary: { ...base, outcome, exitCode, message },
  events: events as RunEvent[],
  sessionCloses: null,
  currency: "USD",
});

test("a quiet ending (hold, no trades, rejected) sends nothing", () => {
  expect(runNotice(input("hold", 0, "held"))).toBeNull();
  expect(runNotice(input("no_trades", 0, "none"))).toBeNull();
  expect(runNotice(input("rejected", 0, "the operator rejected the proposal"))).toBeNull();
});

test("awaiting approval: the approve command (no --home for the default home) and the session's end", () => {
  const n = runNotice(
    input("awaiting_approval", 6, "approval required", [
      {
        ...at,
        type: "approval.decided",
        decision: "awaiting",
        by: "none",
        orders: [{ symbol: "ALFA", side: "BUY", quantity: 5, limit_price: 10 }],
        orders_hash: "h",
      },
    ]),
  );
  expect(n).toMatchObject({
    event: "approval_needed",
    approve_command: "tradewarden approve r-1",
    orders: [{ symbol: "ALFA", side: "BUY", quantity: 5, limit_price: 10 }],
    expires: { trading_day: "2007-01-08", at: null },
  });
});

test("reconcile failure, trip, and any other non-zero exit", () => {
  const diff = { kind: "position_mismatch", symbol: "ALFA", explanation: "x" };
  expect(
    runNotice(input("reconcile_failed", 3, "journal and broker disagree", [{ ...at, type: "reconcile.failed", differences: [diff, diff] }])),
  ).toMatchObject({
    event: "reconcile_failed",
    differences: 2,
    reason: "journal and broker disagree",
  });
  const trip = {
    ...at,
    type: "killswitch.tripped",
    value: 70,
    peak: 100,
    drawdown_pct: 30,
    limit_pct: 25,
    reason: "drawdown",
    liquidation: [],
    by: "drawdown",
  };
  expect(runNotice(input("tripped", 5, "tripped", [trip]))).toMatchObject({ event: "killswitch_tripped", by: "drawdown", drawdown_pct: 30, currency: "USD" });
  expect(runNotice(input("halted", 5, "trading is HALTED"))).toMatchObject({
    event: "run_failed",
    exit_code: 5,
    outcome: "halted",
    reason: "trading is HALTED",
  });
  expect(runNotice(input("interrupted", 130, "interrupted"))).toMatchObject({ event: "run_failed", exit_code: 130 });
});
