/** The journal browser: a proposal awaiting approval and decided later shows it decided and names the deciding run. */
import { cleanup, render } from "ink-testing-library";
import { afterEach, expect, it, vi } from "vitest";
import { JournalScreen } from "../../src/screens/JournalScreen.js";
import type { JournalBrowserSource, JournalRunSummary } from "../../src/screens/journal-data.js";
import { detail, source } from "./fixtures.js";
import { KEY, sendInputAndWaitForChange, waitForFrame } from "./helpers.js";

afterEach(() => cleanup());

const base = { started_at: "2026-03-05T14:00:00Z", trading_day: "2026-03-05", mode: "paper", fills: 0, cost_usd: 0.01 };
const runs: JournalRunSummary[] = [
  { ...base, run_id: "run-0305b", outcome: "executed", orders: 1 },
  { ...base, run_id: "run-0305a", outcome: "awaiting_approval", orders: 0, decided_by: { run_id: "run-0305b", decision: "approved" } },
];

it("the runs list shows an awaiting proposal decided, and its detail names the deciding run", async () => {
  const src: JournalBrowserSource = { ...source(), listRuns: async () => runs, runDetail: async (id) => ({ ...detail(), run_id: id, events: [] }) };
  const inst = render(<JournalScreen source={src} onExit={vi.fn()} />);
  let f = await waitForFrame(inst, "run-0305a");
  expect(f).toMatch(/awaiting→approved\s+0\/0\s+\$0.0100 run-0305a/);
  await sendInputAndWaitForChange(inst, KEY.down);
  await sendInputAndWaitForChange(inst, KEY.enter);
  f = await waitForFrame(inst, "Decided later");
  expect(f).toContain("Outcome: awaiting_approval");
  expect(f).toContain("Decided later by run run-0305b: approved");
});

it("the account view between a reset and the next run: the limit line and headroom follow the reset's peak, not the old one", async () => {
  const base = source();
  const account = await base.account();
  const src: JournalBrowserSource = { ...base, account: async () => ({ ...account, trading_state: "REDUCING", reset_after_last_run: { peak: 95_000 } }) };
  const inst = render(<JournalScreen source={src} onExit={vi.fn()} />);
  await waitForFrame(inst, "run-0304");
  await sendInputAndWaitForChange(inst, "v");
  const f = (await waitForFrame(inst, "headroom")).replace(/\s+/g, " ");
  expect(f).toContain("reset after day 2026-03-05: value = peak 95,000.00 USD · drawdown 0.00% of max 10% · REDUCING");
  expect(f).toContain("limit line 85,500.00 USD · headroom 9,500.00 USD");
  expect(f).not.toContain("92,700.00");
});
