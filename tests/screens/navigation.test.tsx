/**
 * Moving around the console: `?` lists every key of each screen; lists and long views take
 * ↑/↓ j/k, PgUp/PgDn, g/G, Home/End and say "n of N"; `/` searches a run's timeline and its
 * transcript with n/N; Enter on an order shows its full reason and the evidence items themselves;
 * the transcript pretty-prints JSON.
 */
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import type { ProposedOrder } from "../../src/core/domain.js";
import { ApprovalScreen } from "../../src/screens/ApprovalScreen.js";
import { type JournalBrowserSource, JournalScreen } from "../../src/screens/JournalScreen.js";
import { KillSwitchScreen } from "../../src/screens/KillSwitchScreen.js";
import { createRunStore } from "../../src/screens/run-state.js";
import { RunScreen } from "../../src/screens/RunScreen.js";
import { detail, runs, source } from "./fixtures.js";
import { ev, fakeRequest, KEY, order, resetSeq, sendInputAndWaitForChange, waitForFrame } from "./helpers.js";

afterEach(() => cleanup());

const flat = (s: string | undefined) => (s ?? "").replace(/\s+/g, " ");

function approval(orders: ProposedOrder[] = [order("AAPL", "BUY", 10, 100), order("MSFT", "BUY", 5, 201)], extra: Parameters<typeof fakeRequest>[1] = {}) {
  const req = fakeRequest(orders, extra);
  return render(<ApprovalScreen request={req} onDecide={() => {}} onInterrupt={() => {}} maxRows={30} typeAheadGuardMs={0} />);
}

describe("the ? overlay lists every key of the screen", () => {
  it("approval", async () => {
    const inst = approval();
    const f = flat(await sendInputAndWaitForChange(inst, "?"));
    for (const k of [
      "Keys · approval",
      "↑/↓ j/k select",
      "PgUp/PgDn page",
      "g/G Home/End first/last",
      "Enter full reason & evidence",
      "p portfolio",
      "a approve…",
      "e edit qty/limit",
      "d drop/keep",
      "u undo this order",
      "U undo all edits",
      "r reject all…",
      "K kill switch…",
      "q how to leave",
      "Ctrl+C stop the run (nothing placed)",
    ])
      expect(f).toContain(k);
    // Any key closes it (and does nothing else).
    const g = await sendInputAndWaitForChange(inst, "a");
    expect(g).toContain("Approve orders?");
    expect(g).not.toContain("Cannot be undone");
  });

  it("run", async () => {
    const store = createRunStore();
    resetSeq();
    store.dispatch(
      ev({
        type: "run.started",
        run_id: "run-1",
        mode: "paper",
        trading_day: "2026-03-02",
        model: { provider: "scripted", id: "demo" },
        broker: { kind: "sim", account_id: "SIM-1", endpoint: "x" },
        base_currency: "USD",
      }),
    );
    const inst = render(<RunScreen state={store.getState()} onInterrupt={() => {}} />);
    const f = flat(await sendInputAndWaitForChange(inst, "?"));
    expect(f).toContain("Keys · run");
    expect(f).toContain("Ctrl+C stop the run (nothing more is placed)");
  });

  it("journal (list and run detail)", async () => {
    const inst = render(<JournalScreen source={source()} onExit={() => {}} />);
    await waitForFrame(inst, "run-0304");
    let f = flat(await sendInputAndWaitForChange(inst, "?"));
    for (const k of [
      "Keys · journal · list",
      "↑/↓ j/k select",
      "PgUp/PgDn page",
      "g/G Home/End first/last",
      "Enter open run",
      "/ filter",
      "v account chart",
      "q quit",
      "Ctrl+C quit (exit 130)",
    ])
      expect(f).toContain(k);
    await sendInputAndWaitForChange(inst, KEY.esc);
    await sendInputAndWaitForChange(inst, KEY.enter);
    await waitForFrame(inst, "Timeline");
    f = flat(await sendInputAndWaitForChange(inst, "?"));
    for (const k of ["Keys · journal · detail", "/ search", "n/N next/previous match", "t transcript", "Esc/b back"]) expect(f).toContain(k);
  });

  it("kill switch", async () => {
    const inst = render(
      <KillSwitchScreen
        facts={{ trading_state: "ACTIVE", liquidation: { status: "none" }, reducing_runs_after_reset: 0 }}
        onReset={async () => {}}
        onExit={() => {}}
      />,
    );
    const f = flat(await sendInputAndWaitForChange(inst, "?"));
    expect(f).toContain("Keys · kill switch");
    expect(f).toContain("q/Esc/Enter leave");
    expect(f).toContain("Ctrl+C leave (exit 130)");
  });
});

describe("navigation keys and n of N", () => {
  const many = Array.from({ length: 30 }, (_, i) => order(`S${String(i + 1).padStart(2, "0")}`, "BUY", 1, 100));
  const prices = Object.fromEntries(many.map((o) => [o.symbol, 100]));

  it("approval list: j/k, G/g, End/Home, PgDn/PgUp", async () => {
    const inst = approval(many, { prices, cash: 1e9 });
    expect(inst.lastFrame()).toContain("order 1 of 30");
    expect(await sendInputAndWaitForChange(inst, "j")).toContain("order 2 of 30");
    expect(await sendInputAndWaitForChange(inst, "k")).toContain("order 1 of 30");
    let f = await sendInputAndWaitForChange(inst, "G");
    expect(f).toContain("order 30 of 30");
    expect(f).toMatch(/› 30\s+BUY\s+S30/);
    expect(await sendInputAndWaitForChange(inst, "g")).toContain("order 1 of 30");
    expect(await sendInputAndWaitForChange(inst, "\u001b[F")).toContain("order 30 of 30");
    expect(await sendInputAndWaitForChange(inst, "\u001b[H")).toContain("order 1 of 30");
    f = await sendInputAndWaitForChange(inst, KEY.pageDown);
    expect(f).toMatch(/order (\d+) of 30/);
    const n = Number(/order (\d+) of 30/.exec(f)?.[1]);
    expect(n).toBeGreaterThan(2);
    expect(await sendInputAndWaitForChange(inst, KEY.pageUp)).toContain("order 1 of 30");
  });

  it("Enter on an order: the full reason and the evidence items themselves, scrollable", async () => {
    const long = `${"A long reason that would be cut with an ellipsis at 120 columns. ".repeat(4)}The end.`;
    const req = fakeRequest([{ ...order("AAPL", "BUY", 10, 100), reason: long, evidence_ids: ["price:AAPL:2026-02-27"] }]);
    req.evidence = { "price:AAPL:2026-02-27": { evidence_id: "price:AAPL:2026-02-27", symbol: "AAPL", last_close: 100.5, returns_pct: { "1m": 3.2 } } };
    const inst = render(<ApprovalScreen request={req} onDecide={() => {}} onInterrupt={() => {}} maxRows={40} typeAheadGuardMs={0} />);
    const f = await sendInputAndWaitForChange(inst, KEY.enter);
    expect(flat(f)).toContain("The end.");
    expect(f).toContain("Evidence (1)");
    expect(f).toContain('"last_close": 100.5');
    expect(f).toContain('"1m": 3.2');
    expect(f).toMatch(/order details · lines 1–\d+ of \d+/);
    expect(await sendInputAndWaitForChange(inst, KEY.esc)).toContain("Approve orders?");
  });

  it("journal runs list: j/k, G/g and 'run n of N'", async () => {
    const inst = render(<JournalScreen source={source()} onExit={() => {}} />);
    await waitForFrame(inst, "run 1 of 3");
    expect(await sendInputAndWaitForChange(inst, "j")).toContain("run 2 of 3");
    expect(await sendInputAndWaitForChange(inst, "G")).toContain("run 3 of 3");
    expect(await sendInputAndWaitForChange(inst, "g")).toContain("run 1 of 3");
    expect(runs).toHaveLength(3);
  });

  it("journal run detail: / searches the timeline, n and N move between matches", async () => {
    const d = detail();
    const src: JournalBrowserSource = { ...source(), runDetail: async () => d };
    const inst = render(<JournalScreen source={src} onExit={() => {}} />);
    await waitForFrame(inst, "run-0304");
    await sendInputAndWaitForChange(inst, KEY.enter);
    await waitForFrame(inst, "Timeline");
    await sendInputAndWaitForChange(inst, "/");
    let f = await sendInputAndWaitForChange(inst, "AAPL\r");
    expect(f).toMatch(/"AAPL": match 1 of (\d+) \(n\/N\)/);
    const total = Number(/match 1 of (\d+)/.exec(f)?.[1]);
    expect(total).toBeGreaterThan(2);
    f = await sendInputAndWaitForChange(inst, "n");
    expect(f).toContain(`match 2 of ${total}`);
    f = await sendInputAndWaitForChange(inst, "N");
    expect(f).toContain(`match 1 of ${total}`);
    f = await sendInputAndWaitForChange(inst, "N");
    expect(f).toContain(`match ${total} of ${total}`);
    expect(f).toContain("▶");
  });

  it("transcript: JSON is pretty-printed, searchable", async () => {
    const d = detail();
    d.transcript = [
      { role: "assistant", text: '→ get_price_history {"symbol":"AAPL","lookback_days":90}' },
      { role: "tool", text: '← {"success":true,"symbol":"AAPL","last_close":100.5}' },
    ];
    const src: JournalBrowserSource = { ...source(), runDetail: async () => d };
    const inst = render(<JournalScreen source={src} onExit={() => {}} />);
    await waitForFrame(inst, "run-0304");
    await sendInputAndWaitForChange(inst, KEY.enter);
    await waitForFrame(inst, "Timeline");
    const f = await sendInputAndWaitForChange(inst, "t");
    expect(f).toContain("→ get_price_history");
    expect(f).toContain('  "lookback_days": 90');
    expect(f).toContain('  "last_close": 100.5');
    await sendInputAndWaitForChange(inst, "/");
    expect(await sendInputAndWaitForChange(inst, "last_close\r")).toContain('"last_close": match 1 of 1');
  });
});
