/**
 * The journal write for run N+1 must not grow with N: the head document is bounded and history is
 * appended. One "run write" = the journal writes of a small run (start, first valuation, order
 * intent, broker ack, fill, finish). Budget: run 5,000 costs at most 3× run 10 (median).
 * fsync is off here so the numbers show the algorithmic cost, not the disk's flush latency.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bench, describe } from "vitest";
import { type Journal, openJournal } from "../src/journal/journal.js";

const MODEL = { provider: "scripted", id: "rules" };
const BROKER = { kind: "sim" };

async function runWrite(j: Journal, id: string): Promise<void> {
  const at = new Date();
  await j.startRun({ run_id: id, mode: "paper", trading_day: "2024-01-02", at, model: MODEL, broker: BROKER });
  await j.observeFirstValuation(id, 100_000, at);
  await j.recordOrderIntent({ run_id: id, client_order_id: `${id}-0`, index: 0, symbol: "AAA", side: "BUY", quantity: 1, limit_price: 10, at });
  await j.recordOrderUpdate(`${id}-0`, { status: "accepted", broker_order_id: `b-${id}`, at });
  await j.bookFill(`${id}-0`, { fill_id: `f-${id}`, symbol: "AAA", side: "BUY", quantity: 1, price: 10, commission: 0.1, fx_to_base: 1, at });
  await j.finishRun(id, { status: "completed", outcome: "executed", exit_code: 0, message: "ok", at });
}

async function journalWithRuns(n: number): Promise<Journal> {
  const home = mkdtempSync(join(tmpdir(), "tw-bench-"));
  const j = await openJournal(home, { timezone: "UTC", fsync: false });
  await j.init({ capital: 10_000_000, currency: "USD", at: new Date() });
  for (let i = 0; i < n; i++) await runWrite(j, `seed-${i}`);
  return openJournal(home, { timezone: "UTC", fsync: false });
}

const small = await journalWithRuns(10);
const large = await journalWithRuns(5_000);
let k = 0;
const opts = { iterations: 60, warmupIterations: 5, time: 0 };

describe("journal write for one run", () => {
  bench("run 11 (10 runs in the journal)", async () => runWrite(small, `b-${k++}`), opts);
  bench("run 5,001 (5,000 runs in the journal)", async () => runWrite(large, `b-${k++}`), opts);
});
