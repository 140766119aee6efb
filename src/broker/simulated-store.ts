/**
 * The simulated broker's persistence: a snapshot (`sim-broker.json`, rewritten atomically at a day
 * change or reset) plus a write-ahead log of changes since (`sim-broker.json.log`): order
 * operations, and in a many-day simulation the day changes between snapshots.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import type { Static } from "@sinclair/typebox";
import { EXIT } from "../core/exit-codes.js";
import type { MarketData } from "../market/data.js";
import { writeFileAtomicSync } from "../util/atomic-write.js";
import { BrokerError } from "./errors.js";
import {
  assertSimLogRecord,
  assertSimState,
  assertSimStateAfterLine,
  type SimFillSchema,
  type SimLogRecordSchema,
  type SimOrderSchema,
  type SimStateDoc,
} from "./simulated-state.js";
import { READ_LIMITS, readRegularFile } from "../util/regular-file.js";

const SIM_DEFAULT_START = "2007-01-03";
const SIM_DEFAULT_CASH = 100_000;
const SIM_STATE_VERSION = 1;

/** An order in the simulated book: the schema's type (sim-state.ts), the one definition. */
export type SimOrder = Static<typeof SimOrderSchema>;

/** A fill in the simulated book; `commission_currency` is absent in books from before it was recorded. */
export type SimFill = Static<typeof SimFillSchema>;

/** The simulated book (`sim-broker.json`): the schema's type (sim-state.ts), the one definition. */
export type SimState = SimStateDoc;

export function newSimState(market: MarketData, opts: { start?: string | null; cash?: number; currency?: string } = {}): SimState {
  const wanted = opts.start ?? SIM_DEFAULT_START;
  const start = market.calendar.onOrAfter(wanted);
  if (!start) {
    throw new BrokerError(
      "sim_exhausted",
      `no trading day on or after ${wanted} in the market data (last: ${market.calendar.last ?? "none"})`,
      EXIT.USAGE_OR_CONFIG,
    );
  }
  if (market.calendar.countBefore(start) < 2) {
    throw new BrokerError("sim_exhausted", `start ${start} leaves no price history before it; pick a later day`, EXIT.USAGE_OR_CONFIG);
  }
  const cash = opts.cash ?? SIM_DEFAULT_CASH;
  return {
    version: SIM_STATE_VERSION,
    account_id: `SIM-PAPER-${randomBytes(4).toString("hex").toUpperCase()}`,
    currency: (opts.currency ?? "USD").toUpperCase(),
    starting_cash: cash,
    cash,
    start_date: start,
    current_day: null,
    day_open: false,
    played_days: [],
    positions: {},
    orders: [],
    fills: [],
    next_order_seq: 1,
    next_fill_seq: 1,
  };
}

/**
 * One appended change: the new values of what an order operation touched, or a day change (the
 * orders it expired, the book emptied of finished orders, the day opened or closed).
 */
export type LogRecord = Static<typeof SimLogRecordSchema>;

export const logPath = (path: string) => `${path}.log`;

/**
 * Reads the book: the snapshot (`sim-broker.json`, rewritten atomically at a day change or reset)
 * plus the write-ahead log of changes since (`sim-broker.json.log`, one JSON line per order
 * operation or logged day change, appended before the call returns). Log lines of an older snapshot generation and a
 * torn last line are ignored.
 */
export function readSimState(path: string): SimState | undefined {
  const read = readRegularFile(path, READ_LIMITS.state);
  if (read.kind === "absent") return undefined;
  if (read.kind === "refused") throw new BrokerError("sim_state_invalid", `simulated broker state: ${read.reason}`);
  let state: unknown;
  try {
    state = JSON.parse(read.text);
  } catch (e) {
    throw new BrokerError("sim_state_invalid", `simulated broker state ${path} is not valid JSON: ${(e as Error).message}`);
  }
  assertSimState(path, state);
  state.gen ??= 0;
  if (existsSync(logPath(path))) {
    const lines = readFileSync(logPath(path), "utf8").split("\n");
    const orderIndex = new Map(state.orders.map((o, i) => [o.broker_order_id, i]));
    const fillIds = new Set(state.fills.map((f) => f.fill_id));
    let lastGen = -1;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.trim().length === 0) continue;
      let rec: unknown;
      try {
        rec = JSON.parse(line);
      } catch (e) {
        if (i >= lines.length - 2) break; // torn last write
        throw new BrokerError("broker_unreachable", `simulated broker log ${logPath(path)} line ${i + 1} is unreadable: ${(e as Error).message}`);
      }
      assertSimLogRecord(logPath(path), i + 1, rec);
      logOrder(logPath(path), i + 1, rec.gen, lastGen, state.gen);
      lastGen = rec.gen;
      if (rec.gen !== state.gen) continue;
      for (const o of rec.orders ?? []) {
        const at = orderIndex.get(o.broker_order_id);
        if (at === undefined) {
          orderIndex.set(o.broker_order_id, state.orders.length);
          state.orders.push(o);
        } else state.orders[at] = o;
      }
      for (const f of rec.fills ?? []) {
        if (fillIds.has(f.fill_id)) continue;
        fillIds.add(f.fill_id);
        state.fills.push(f);
      }
      if (rec.cash !== undefined) state.cash = rec.cash;
      for (const [symbol, pos] of rec.positions ?? []) {
        if (pos) state.positions[symbol] = pos;
        else delete state.positions[symbol];
      }
      if (rec.seqs) [state.next_order_seq, state.next_fill_seq] = rec.seqs;
      if (rec.clear) {
        state.orders = [];
        state.fills = [];
        orderIndex.clear();
        fillIds.clear();
      }
      if (rec.day) {
        if (rec.day.played) state.played_days.push(rec.day.played);
        state.current_day = rec.day.current;
        state.day_open = rec.day.open;
      }
      assertSimStateAfterLine(logPath(path), i + 1, state);
    }
    assertSimState(path, state);
  }
  return state;
}

/**
 * The log's lines are in the order they were written: a snapshot generation never goes back, and
 * no line is of a generation after the snapshot's (lines of an earlier one are a crash's leftovers).
 */
function logOrder(file: string, line: number, gen: number, lastGen: number, snapshotGen: number): void {
  const refuse = (why: string) => {
    throw new BrokerError(
      "sim_state_invalid",
      `the simulated broker's log ${file} is not valid (line ${line}: ${why}); nothing was traded on it or written. Restore it, or start afresh with \`tradewarden sim reset\`.`,
    );
  };
  if (gen > snapshotGen) refuse(`gen ${gen} is after the snapshot's generation ${snapshotGen}`);
  if (gen < lastGen) refuse(`gen ${gen} comes after a line of generation ${lastGen}: lines are out of order`);
}

/**
 * Writes a full snapshot atomically (temp file + rename) and starts a new log generation; flushed
 * to the disk unless `durable: false` (a simulation's book, which follows its non-durable journal).
 */
export function writeSimState(path: string, state: SimState, opts: { durable?: boolean } = {}): void {
  mkdirSync(dirname(path), { recursive: true });
  state.gen = (state.gen ?? 0) + 1;
  writeFileAtomicSync(path, JSON.stringify(state), opts.durable === false ? { durable: false } : {});
  rmSync(logPath(path), { force: true });
}
