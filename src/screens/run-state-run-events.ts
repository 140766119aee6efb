/** The run reducer's handlers for the run's own events: start, preflight, reconciliation, valuation, kill switch, notes, finish. */
import { fundedBuyText, joinClauses, money, pct, standingFiredText, usd } from "../printers/format.js";
import { describe } from "../printers/headless.js";
import { sanitizeLine } from "../util/sanitize.js";
import { append, type EventHandler, type EventOf, note, type RunEventHandlers } from "./run-state-items.js";
import type { RunFinal, RunHeader, RunState } from "./run-state-types.js";

const runStarted: EventHandler<"run.started"> = (s, e) => {
  const header: RunHeader = {
    ...s.header,
    run_id: sanitizeLine(e.run_id),
    mode: e.mode,
    trading_day: sanitizeLine(e.trading_day),
    model: sanitizeLine(`${e.model.provider}/${e.model.id}`),
    broker: sanitizeLine(e.broker.kind),
    account: sanitizeLine(e.broker.account_id),
    base_currency: sanitizeLine(e.base_currency),
  };
  return append(
    { ...s, header, status: { ...s.status, phase: "preflight" } },
    e.seq,
    note(
      "accent",
      `run ${header.run_id} started: ${header.mode} mode, trading day ${header.trading_day}, model ${header.model}, broker ${header.broker} (${header.account})`,
    ),
  );
};

const orderRecovered: EventHandler<"order.recovered"> = (s, e) =>
  append(
    s,
    e.seq,
    note(
      e.settled ? "warn" : "error",
      `order recovered (run ${sanitizeLine(e.from_run)}): ${e.side} ${e.quantity} ${sanitizeLine(e.symbol)}: ${e.status_before} → ${e.status}, ${e.fills_booked} fill(s) booked: ${sanitizeLine(e.message)}`,
    ),
  );

const reconcileFailed: EventHandler<"reconcile.failed"> = (s, e) =>
  append(
    { ...s, status: { ...s.status, phase: "finished" } },
    e.seq,
    note(
      "error",
      `reconciliation failed: ${e.differences.length} difference(s); nothing will be placed`,
      e.differences.map((d) => `${d.kind} ${sanitizeLine(d.symbol)}: ${sanitizeLine(d.message)}`),
    ),
  );

const valuation: EventHandler<"valuation"> = (s, e) => {
  const header: RunHeader = {
    ...s.header,
    value: e.value,
    cash: e.cash,
    peak: e.peak,
    drawdown_pct: e.drawdown_pct,
    max_drawdown_pct: e.max_drawdown_pct,
    trading_state: e.trading_state,
    orders_left: e.orders_left,
    orders_used: e.orders_used,
    portfolio: e.portfolio ?? s.header.portfolio,
  };
  const cur = s.header.base_currency;
  return append(
    { ...s, header, status: { ...s.status, phase: e.first_of_run ? "valuation" : s.status.phase } },
    e.seq,
    note(
      e.trading_state === "ACTIVE" ? "dim" : "warn",
      `${e.first_of_run ? "value" : "value after trading"} ${money(e.value, cur)} (cash ${money(e.cash, cur)}), peak ${money(e.peak)}, drawdown ${pct(e.drawdown_pct)} of max ${pct(e.max_drawdown_pct, 0)}, ${e.trading_state}, ${e.orders_left} order(s) left this month`,
    ),
  );
};

const killswitchTripped: EventHandler<"killswitch.tripped"> = (s, e) =>
  append(
    { ...s, header: { ...s.header, trading_state: "HALTED", value: e.value, peak: e.peak, drawdown_pct: e.drawdown_pct } },
    e.seq,
    note(
      "error",
      e.by === "operator"
        ? `KILL SWITCH TRIPPED by the operator: ${sanitizeLine(e.reason)} (drawdown ${pct(e.drawdown_pct)}, limit ${pct(e.limit_pct, 0)})`
        : `KILL SWITCH TRIPPED: ${sanitizeLine(e.reason)} (drawdown ${pct(e.drawdown_pct)} ≥ limit ${pct(e.limit_pct, 0)})`,
      e.liquidation.length
        ? e.liquidation.map((o) => `liquidate: ${o.side} ${o.quantity} ${sanitizeLine(o.symbol)} @ ${o.limit_price}`)
        : ["nothing to liquidate"],
    ),
  );

const runFinished: EventHandler<"run.finished"> = (s, e) => {
  const final: RunFinal = {
    outcome: e.outcome,
    exit_code: e.exit_code,
    message: sanitizeLine(e.message),
    cost_usd: e.cost_usd,
    ...(e.value_after !== undefined ? { value_after: e.value_after } : {}),
  };
  const good = e.exit_code === 0;
  return append(
    { ...s, final, pendingTools: [], status: { ...s.status, phase: "finished", thinking: false, cost_usd: Math.max(s.status.cost_usd, e.cost_usd) } },
    e.seq,
    note(
      good ? "ok" : "error",
      `run finished: ${e.outcome} (exit ${e.exit_code}): ${joinClauses(final.message, `LLM cost ${usd(e.cost_usd)}`, e.value_after !== undefined && `value ${money(e.value_after, s.header.base_currency)}`)}`,
    ),
  );
};

/** Research and masking events: the headless printer's line, uncoloured. */
function described(s: RunState, e: EventOf<"research.search" | "mask.enabled" | "mask.leak">): RunState {
  const plain = (x: string) => x;
  const line = describe(e, { red: plain, green: plain, yellow: plain, dim: plain }, s.header.base_currency) ?? e.type;
  return append(s, e.seq, note(e.type === "mask.leak" ? "error" : e.type === "research.search" && e.status === "error" ? "warn" : "dim", line.trim()));
}

export const RUN_LIFECYCLE_HANDLERS = {
  "run.started": runStarted,
  "preflight.failed": (s, e) =>
    append(
      { ...s, status: { ...s.status, phase: "finished" } },
      e.seq,
      note("error", `preflight failed (${sanitizeLine(e.code)}): ${sanitizeLine(e.message)}`),
    ),
  "reconcile.ok": (s, e) =>
    append({ ...s, status: { ...s.status, phase: "valuation" } }, e.seq, note("dim", `reconciled: journal and broker agree (${e.positions} positions)`)),
  "order.recovered": orderRecovered,
  "reconcile.failed": reconcileFailed,
  valuation,
  "killswitch.tripped": killswitchTripped,
  "run.note": (s, e) => append(s, e.seq, note(e.level === "warn" ? "warn" : "dim", `note: ${sanitizeLine(e.message)}`)),
  "order.funded_buy": (s, e) => append(s, e.seq, note(e.outcome === "placed" ? "ok" : "warn", fundedBuyText(e))),
  "standing.fired": (s, e) => append(s, e.seq, note(e.result === "placed" ? "ok" : e.result === "blocked" ? "warn" : "dim", standingFiredText(e))),
  "run.finished": runFinished,
  "research.search": described,
  "mask.enabled": described,
  "mask.leak": described,
} satisfies Partial<RunEventHandlers>;
