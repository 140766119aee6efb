/**
 * Key press to next frame, measured on real Ink (ink-testing-library, a frame per render): the
 * approval screen with 50 orders and the journal browser with 10,000 runs. For the benchmark
 * (bench/screens.bench.ts); the target is < 50 ms per key.
 */
import { render } from "ink-testing-library";
import { ApprovalScreen } from "../../src/screens/ApprovalScreen.js";
import type { JournalBrowserSource, JournalRunSummary } from "../../src/screens/journal-data.js";
import { JournalScreen } from "../../src/screens/JournalScreen.js";
import { fakeRequest, order } from "./helpers.js";

export interface KeyTimings {
  keys: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

const tick = () => new Promise<void>((r) => setImmediate(r));

async function timeKeys(inst: { stdin: { write(s: string): void }; lastFrame(): string | undefined }, keys: readonly string[]): Promise<KeyTimings> {
  const ms: number[] = [];
  for (const k of keys) {
    const before = inst.lastFrame();
    const t0 = performance.now();
    inst.stdin.write(k);
    while (inst.lastFrame() === before) {
      if (performance.now() - t0 > 5_000) throw new Error(`no new frame after ${JSON.stringify(k)}`);
      await tick();
    }
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0;
  return { keys: ms.length, medianMs: at(0.5), p95Ms: at(0.95), maxMs: ms[ms.length - 1] ?? 0 };
}

/** j × 40 then k × 40 through 50 orders (each key re-renders the table, the brief and the portfolio). */
export async function approvalKeyTimings(): Promise<KeyTimings> {
  const orders = Array.from({ length: 50 }, (_, i) => order(`SYM${String(i).padStart(2, "0")}`, i % 3 ? "BUY" : "SELL", 10 + i, 100));
  const prices = Object.fromEntries(orders.map((o) => [o.symbol, 100]));
  const req = fakeRequest(orders, { prices, cash: 1e9 });
  const inst = render(<ApprovalScreen request={req} onDecide={() => {}} onInterrupt={() => {}} maxRows={40} typeAheadGuardMs={0} />);
  try {
    return await timeKeys(inst, [...Array(40).fill("j"), ...Array(40).fill("k")]);
  } finally {
    inst.unmount();
  }
}

export function manyRuns(n: number): JournalRunSummary[] {
  return Array.from({ length: n }, (_, i) => {
    const day = new Date(Date.UTC(2000, 0, 3) + i * 86_400_000).toISOString().slice(0, 10);
    return {
      run_id: `${day.replace(/-/g, "")}T140000Z-${String(i).padStart(6, "0")}`,
      started_at: `${day}T14:00:00Z`,
      trading_day: day,
      mode: "paper",
      outcome: i % 7 ? "executed" : "hold",
      orders: i % 4,
      fills: i % 4,
      cost_usd: 0.01,
    };
  });
}

/** j × 40, G, g, PgDn × 10 and a filter keystroke in a list of 10,000 runs. */
export async function journalKeyTimings(n = 10_000): Promise<KeyTimings> {
  const runs = manyRuns(n);
  const source: JournalBrowserSource = { listRuns: () => runs, runDetail: () => null, account: () => ({ points: [], max_drawdown_pct: 25 }) };
  const inst = render(<JournalScreen source={source} onExit={() => {}} />);
  try {
    while (!(inst.lastFrame() ?? "").includes(`${n} run(s)`)) await tick();
    return await timeKeys(inst, [...Array(40).fill("j"), "G", "g", ...Array(10).fill("\u001b[6~"), "/", "2", "0", "0", "5"]);
  } finally {
    inst.unmount();
  }
}
