import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Journal, openJournal } from "../../src/journal/journal.js";
import type { CommandIO } from "../../src/commands/io.js";

export const tmpHome = (): string => mkdtempSync(join(tmpdir(), "tw-journal-"));

export async function freshJournal(opts: { timezone?: string; capital?: number; currency?: string; reducing?: number; home?: string } = {}): Promise<Journal> {
  const home = opts.home ?? tmpHome();
  const j = await openJournal(home, { timezone: opts.timezone ?? "UTC", fsync: false, reducingRunsAfterReset: opts.reducing ?? 0 });
  await j.init({ capital: opts.capital ?? 10_000, currency: opts.currency ?? "USD", at: "2024-01-02T00:00:00Z" });
  return j;
}

export const MODEL = { provider: "scripted", id: "rules" };
export const BROKER = { kind: "sim", account_id: "sim-1", endpoint: "local" };

export async function startRun(j: Journal, id: string, at = "2024-01-02T14:00:00Z", mode: "paper" | "observe" = "paper") {
  return j.startRun({ run_id: id, mode, trading_day: at.slice(0, 10), at, model: MODEL, broker: BROKER });
}

export async function finish(j: Journal, id: string, at = "2024-01-02T15:00:00Z") {
  await j.finishRun(id, { status: "completed", outcome: "executed", exit_code: 0, message: "done", at });
}

/** An order sent and filled in one go. */
export async function buy(
  j: Journal,
  run: string,
  coid: string,
  symbol: string,
  qty: number,
  price: number,
  commission = 0,
  at = "2024-01-02T14:30:00Z",
  side: "BUY" | "SELL" = "BUY",
) {
  await j.recordOrderIntent({ run_id: run, client_order_id: coid, index: 0, symbol, side, quantity: qty, limit_price: price, at });
  await j.recordOrderUpdate(coid, { status: "accepted", broker_order_id: `b-${coid}`, at });
  await j.bookFill(coid, { fill_id: `f-${coid}`, symbol, side, quantity: qty, price, commission, fx_to_base: 1, at });
  await j.recordOrderUpdate(coid, { status: "filled", filled_quantity: qty, at });
}

export function captureIO(): CommandIO & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} };
}
