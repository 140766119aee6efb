/**
 * The order lifecycle: place (sells first), wait, cancel, settle, book.
 *
 * - The client order id (`tw-<runId>-<index>`) is written to the journal before the send.
 * - An order is never sent twice. An uncertain send (timeout, dropped connection) is resolved by
 *   looking the client id up; a duplicate-id refusal means "already sent": look it up.
 * - Waits up to `wait_s` for terminal states (polling every `poll_ms`), then cancels what is still
 *   working; a cancel that finds the order filled returns the filled state.
 * - Waits (bounded by `settle_s`) for the fills to add up to the filled quantity; only fills the
 *   broker reports are booked. An order still working after the cancel is recorded as
 *   `working_after_cancel` (the next run's reconciliation stops on it).
 * - Every outcome is an event.
 */
import { Dec } from "../core/money.js";
import { createHash } from "node:crypto";
import { isBrokerError, isUncertainSendError } from "../broker/errors.js";
import type { BrokerFill, BrokerOrder, BrokerOrderStatus } from "../broker/types.js";
import { isWorking } from "../broker/types.js";
import type { OrderStatus } from "../core/domain.js";
import type { OrderEventBase } from "../core/events.js";
import { TwError } from "../core/errors.js";
import type { Order } from "../core/order.js";
import { faultPoint } from "../util/test-fault.js";
import type { ExecuteOptions, ExecuteResult, ExecutorJournal, OrderExecution } from "./types.js";

const MAX_CLIENT_ID = 128;

/**
 * `tw-<runId>-<index>` (kill-switch liquidation: `tw-<runId>-L<index>`, so a run that liquidates and
 * then trades never reuses an id); a run id too long for the broker's 128 characters is replaced
 * by its hash.
 */
export function clientOrderId(runId: string, index: number, opts: { liquidation?: boolean; standing?: boolean } = {}): string {
  const suffix = `${opts.liquidation ? "L" : opts.standing ? "S" : ""}${index}`;
  const id = `tw-${runId}-${suffix}`;
  if (id.length <= MAX_CLIENT_ID) return id;
  return `tw-h${createHash("sha256").update(runId).digest("hex").slice(0, 40)}-${suffix}`;
}

export const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });

/** A broker status as the journal's OrderStatus (pending_cancel is still working). */
export function toOrderStatus(o: Pick<BrokerOrder, "status" | "filled_quantity">): OrderStatus {
  const s: BrokerOrderStatus = o.status;
  if (s === "pending_cancel") return o.filled_quantity > 0 ? "partially_filled" : "accepted";
  return s;
}

interface Entry {
  order: Order & { client_order_id: string };
  res: OrderExecution;
  broker?: BrokerOrder;
  /** Last status/filled written to the journal, to write only changes. */
  recorded?: { status: OrderStatus; filled: number };
  bookedIds: Set<string>;
  /** Outcome event already emitted (rejected / uncertain-unresolved). */
  done: boolean;
  announcedFilled: number;
}

export async function execute(opts: ExecuteOptions): Promise<ExecuteResult> {
  const { broker, journal, config, signal } = opts;
  const problems: string[] = [];
  // A listener that throws is a problem to report, never an exception inside the order lifecycle.
  const emit = (event: Parameters<ExecuteOptions["emit"]>[0]) => {
    try {
      opts.emit(event);
    } catch (err) {
      problems.push(`an event listener failed on ${event.type}: ${(err as Error).message}`);
    }
  };
  const sleep = opts.sleep ?? defaultSleep;
  const now = opts.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();
  const journalErrors: string[] = [];
  const waitMs = Math.max(0, config.wait_s * 1000);
  const settleMs = Math.max(0, config.settle_s * 1000);
  const pollMs = Math.max(0, config.poll_ms);

  const entries: Entry[] = opts.orders.map((placed, index) => {
    const order = { ...placed, symbol: placed.symbol.toUpperCase(), client_order_id: clientOrderId(opts.runId, index, { liquidation: placed.liquidation, standing: opts.standing === true }) };
    return {
    order,
    bookedIds: new Set<string>(),
    done: false,
    announcedFilled: 0,
    res: {
      index,
      client_order_id: order.client_order_id,
      order,
      symbol: order.symbol,
      side: order.side,
      quantity: order.quantity,
      limit_price: order.limit_price,
      status: "not_sent",
      filled_quantity: 0,
      avg_price: null,
      commission: 0,
      fills: [],
    },
  };
  });
  // Sells first (stable): they free cash and shares for the buys.
  const sequence = [...entries].sort((a, b) => (a.order.side === b.order.side ? a.res.index - b.res.index : a.order.side === "SELL" ? -1 : 1));

  const base = (e: Entry): OrderEventBase => ({
    client_order_id: e.res.client_order_id,
    ...(e.res.broker_order_id ? { broker_order_id: e.res.broker_order_id } : {}),
    symbol: e.res.symbol,
    side: e.res.side,
    quantity: e.res.quantity,
    limit_price: e.res.limit_price,
  });
  const note = (message: string) => {
    problems.push(message);
    emit({ type: "run.note", level: "warn", message });
  };
  const record = async (e: Entry, status: OrderStatus, message?: string) => {
    const filled = e.broker?.filled_quantity ?? 0;
    if (e.recorded && e.recorded.status === status && e.recorded.filled === filled && message === undefined) return;
    e.res.status = status;
    e.res.filled_quantity = filled;
    if (message !== undefined) e.res.message = message;
    try {
      await journal.recordOrderUpdate(e.res.client_order_id, {
        status,
        ...(e.res.broker_order_id ? { broker_order_id: e.res.broker_order_id } : {}),
        filled_quantity: filled,
        ...(message !== undefined ? { message } : {}),
        at: iso(),
      });
      e.recorded = { status, filled };
    } catch (err) {
      journalErrors.push(`${e.res.client_order_id}: ${(err as Error).message}`);
      note(`journal could not record ${status} for ${e.res.client_order_id}: ${(err as Error).message}`);
    }
  };
  const observe = async (e: Entry, o: BrokerOrder) => {
    e.broker = o;
    e.res.broker_order_id = o.broker_order_id;
    const status = toOrderStatus(o);
    if (!(e.recorded && e.recorded.status === status && e.recorded.filled === o.filled_quantity)) await record(e, status);
    if (isWorking(o.status) && o.filled_quantity > e.announcedFilled) {
      e.announcedFilled = o.filled_quantity;
      emit({ type: "order.partially_filled", ...base(e), filled_quantity: o.filled_quantity, avg_price: o.avg_fill_price ?? 0 });
    }
  };
  const rejected = async (e: Entry, message: string) => {
    await record(e, "rejected", message);
    e.done = true;
    emit({ type: "order.rejected", ...base(e), message });
  };
  const adopt = async (e: Entry, o: BrokerOrder, how?: string) => {
    if (o.status === "rejected") {
      e.broker = o;
      e.res.broker_order_id = o.broker_order_id;
      return rejected(e, o.reject_reason ?? "rejected by the broker");
    }
    e.broker = o;
    e.res.broker_order_id = o.broker_order_id;
    emit({ type: "order.placed", ...base(e) });
    await observe(e, o);
    if (how) e.res.message = how;
  };

  /**
   * Resolves an order whose send outcome is unknown by looking its client id up. Never re-sends.
   * "Not found" is not final while the send may still be on its way: only after the executor's
   * wait does a broker that keeps answering "no such order" prove it was never received.
   */
  const resolveByLookup = async (e: Entry, why: string) => {
    const deadline = now() + Math.max(waitMs, pollMs);
    let lastError = "";
    for (;;) {
      let notFound = false;
      try {
        const o = await broker.orderByClientId(e.res.client_order_id);
        if (o) return adopt(e, o, `${why}; found at the broker by client order id`);
        notFound = true;
        lastError = "";
      } catch (err) {
        lastError = (err as Error).message;
      }
      if (now() >= deadline) {
        if (notFound) return rejected(e, `${why}; the broker has no order ${e.res.client_order_id} after the executor's wait: it was not received (not re-sent)`);
        break;
      }
      if (signal?.aborted) break;
      await sleep(pollMs, signal);
    }
    const message = `${why}; the order's state is unknown (lookup failed: ${lastError || "no answer"}); the next run's reconciliation must resolve it`;
    await record(e, "uncertain", message);
    e.done = true;
    note(`${e.res.client_order_id} (${e.res.side} ${e.res.quantity} ${e.res.symbol}) is uncertain: ${message}`);
  };

  // ---- 1. place ---------------------------------------------------------------------------
  let journalBroken: string | undefined;
  for (const e of sequence) {
    if (signal?.aborted) {
      e.res.message = "interrupted before sending";
      e.done = true;
      continue;
    }
    if (journalBroken) {
      e.res.error_code = "journal_write_failed";
      e.res.message = `not sent: the journal could not record the intent (${journalBroken})`;
      e.done = true;
      continue;
    }
    try {
      await journal.recordOrderIntent({ ...e.order, run_id: opts.runId, index: e.res.index, at: iso() });
      e.res.status = "intent";
      faultPoint("executor.after_intent");
    } catch (err) {
      journalBroken = (err as Error).message;
      e.res.error_code = "journal_write_failed";
      e.res.message = `not sent: the journal could not record the intent (${journalBroken})`;
      e.done = true;
      note(`${e.res.client_order_id} not sent: the journal could not record the intent (${journalBroken})`);
      continue;
    }
    try {
      const o = await broker.placeLimitDayOrder({
        client_order_id: e.res.client_order_id,
        symbol: e.res.symbol,
        side: e.res.side,
        quantity: e.res.quantity,
        limit_price: e.res.limit_price,
      });
      faultPoint("executor.after_send");
      await adopt(e, o);
    } catch (err) {
      if (isBrokerError(err, "duplicate_client_order_id")) {
        await resolveByLookup(e, "the broker already has this client order id (already sent)");
      } else if (isUncertainSendError(err)) {
        const why = `send outcome unknown (${err instanceof TwError ? err.code : "error"}: ${(err as Error).message})`;
        // The send failed: if the lookup proves the broker never got it, the run names that cause
        // (exit 4), not "nothing to trade" (exit 0). An order found at the broker counts as sent.
        e.res.error_code = err instanceof TwError ? err.code : "broker_unreachable";
        await record(e, "uncertain", why);
        emit({ type: "order.uncertain", ...base(e), message: `${why}; looking it up by client order id` });
        await resolveByLookup(e, why);
      } else {
        if (err instanceof TwError) e.res.error_code = err.code;
        await rejected(e, (err as Error).message);
      }
    }
  }

  // ---- 2. wait for terminal states ----------------------------------------------------------
  // One open-orders call per poll; an order missing from it is looked up by client id (it ended).
  const poll = async (list: Entry[]) => {
    let open: Map<string, BrokerOrder> | undefined;
    try {
      open = new Map((await broker.openOrders()).map((o) => [o.client_order_id, o]));
    } catch {
      open = undefined;
    }
    for (const e of list) {
      const seen = open?.get(e.res.client_order_id);
      if (seen) {
        await observe(e, seen);
        continue;
      }
      try {
        const o = await broker.orderByClientId(e.res.client_order_id);
        if (o) await observe(e, o);
      } catch {
        // transient: keep the last known state; the cancel below settles it
      }
    }
  };
  const working = () => entries.filter((e) => !e.done && e.broker && isWorking(e.broker.status));
  const waitDeadline = now() + waitMs;
  for (let list = working(); list.length > 0 && !signal?.aborted; list = working()) {
    await poll(list);
    if (now() >= waitDeadline || signal?.aborted || working().length === 0) break;
    await sleep(pollMs, signal);
  }

  // ---- 3. cancel what is still working ------------------------------------------------------
  const stillWorking = working();
  for (const e of stillWorking) {
    try {
      await observe(e, await broker.cancel(e.broker!.broker_order_id));
    } catch (err) {
      try {
        const o = await broker.orderByClientId(e.res.client_order_id);
        if (o) await observe(e, o);
      } catch {
        // unknown: still working as far as we know
      }
      if (isWorking(e.broker!.status)) e.res.message = `cancel failed: ${(err as Error).message}`;
    }
  }
  const cancelDeadline = now() + settleMs;
  for (let list = working(); list.length > 0 && now() < cancelDeadline; list = working()) {
    await sleep(pollMs, undefined);
    await poll(list);
  }

  // ---- 4. settle and book fills -------------------------------------------------------------
  const needsFills = (e: Entry) => e.broker !== undefined && (e.broker.filled_quantity > 0 || e.res.status === "working_after_cancel");
  const bookedQty = (e: Entry) => e.res.fills.reduce((s, f) => s.add(f.quantity), new Dec(0)).toNumber();
  const book = async (e: Entry, fills: BrokerFill[]) => {
    for (const f of fills) {
      if (e.bookedIds.has(f.fill_id)) continue;
      try {
        await journal.bookFill(e.res.client_order_id, {
          fill_id: f.fill_id,
          symbol: e.res.symbol,
          side: e.res.side,
          quantity: f.quantity,
          price: f.price,
          commission: f.commission,
          commission_currency: f.commission_currency,
          fx_to_base: e.order.fx_to_base,
          at: f.at,
        });
        e.bookedIds.add(f.fill_id);
        e.res.fills.push({ fill_id: f.fill_id, quantity: f.quantity, price: f.price, commission: f.commission, commission_currency: f.commission_currency, at: f.at });
        faultPoint("executor.after_fill");
      } catch (err) {
        journalErrors.push(`fill ${f.fill_id} of ${e.res.client_order_id}: ${(err as Error).message}`);
        note(`journal could not book fill ${f.fill_id} of ${e.res.client_order_id}: ${(err as Error).message}`);
      }
    }
  };
  const settleDeadline = now() + settleMs;
  let pending = entries.filter(needsFills);
  for (;;) {
    for (const e of pending) {
      try {
        await book(e, await broker.fills(e.broker!.broker_order_id));
      } catch {
        // retry until the deadline
      }
    }
    pending = pending.filter((e) => bookedQty(e) < e.broker!.filled_quantity);
    if (pending.length === 0 || now() >= settleDeadline) break;
    await sleep(pollMs, undefined);
  }

  // ---- 5. final states and outcome events ---------------------------------------------------
  for (const e of entries) {
    if (e.done || !e.broker) continue;
    const o = e.broker;
    const qty = bookedQty(e);
    // Exact sums: each fill's commission is already in whole minor units of its currency.
    const value = e.res.fills.reduce((s, f) => s.add(new Dec(f.quantity).mul(f.price)), new Dec(0));
    e.res.commission = e.res.fills.reduce((s, f) => s.add(f.commission), new Dec(0)).toNumber();
    e.res.avg_price = qty > 0 ? value.div(qty).toDecimalPlaces(6, Dec.ROUND_HALF_EVEN).toNumber() : null;
    if (qty !== o.filled_quantity) {
      e.res.discrepancy = `the broker reports ${o.filled_quantity} filled but its fills add up to ${qty} (booked ${qty})`;
      note(`${e.res.client_order_id} (${e.res.side} ${e.res.symbol}): ${e.res.discrepancy}`);
    }
    if (isWorking(o.status)) {
      const message = `still working at the broker after the cancel (${o.status}, ${o.filled_quantity} of ${o.quantity} filled); the next run's reconciliation will stop on it`;
      await record(e, "working_after_cancel", message);
      emit({ type: "order.uncertain", ...base(e), message });
      note(`${e.res.client_order_id} (${e.res.side} ${e.res.quantity} ${e.res.symbol}) ${message}`);
      continue;
    }
    await record(e, o.status as OrderStatus, e.res.message);
    switch (o.status) {
      case "filled":
        emit({ type: "order.filled", ...base(e), filled_quantity: o.filled_quantity, avg_price: e.res.avg_price ?? o.avg_fill_price ?? 0, commission: e.res.commission });
        break;
      case "cancelled":
        emit({
          type: "order.cancelled",
          ...base(e),
          filled_quantity: o.filled_quantity,
          message: o.filled_quantity > 0 ? `${o.filled_quantity} of ${o.quantity} filled; the rest cancelled` : "not filled; cancelled",
        });
        break;
      case "expired":
        emit({ type: "order.expired", ...base(e), filled_quantity: o.filled_quantity });
        break;
      case "rejected":
        emit({ type: "order.rejected", ...base(e), message: o.reject_reason ?? "rejected by the broker" });
        break;
    }
  }

  return { results: entries.map((e) => e.res), problems, journal_errors: journalErrors };
}

export type { ExecutorJournal };
