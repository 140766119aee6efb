/**
 * The headless front end: plain, line-oriented progress a person can read in a cron mail (no
 * cursor codes; colour only on a terminal without NO_COLOR), or `--json`: one JSON object per
 * event. It consumes the run's event stream and holds no trading logic.
 */
import { displayEvent, sanitizeLine, sanitizeText, terminalSafeJson } from "../util/sanitize.js";
import type { RunEvent } from "../core/events.js";
import {
  count,
  decisionText,
  fundedBuyText,
  joinClauses,
  money,
  pct,
  price,
  quantity,
  standingFiredText,
  usd,
  verdictLine,
  withoutCodePrefix,
} from "./format.js";

export interface HeadlessOptions {
  json: boolean;
  color: boolean;
  write: (s: string) => void;
}

const paint = (on: boolean, code: number) => (s: string) => (on ? `\u001b[${code}m${s}\u001b[0m` : s);

export function createHeadlessPrinter(opts: HeadlessOptions): { onEvent: (e: RunEvent) => void; flush: () => void } {
  const red = paint(opts.color, 31);
  const green = paint(opts.color, 32);
  const yellow = paint(opts.color, 33);
  const dim = paint(opts.color, 2);
  let textBuf = "";
  let currency = "";

  const line = (s: string) => opts.write(`${s}\n`);
  const flushText = () => {
    if (textBuf.trim().length > 0) for (const l of sanitizeText(textBuf).split("\n")) if (l.trim()) line(`  model: ${l}`);
    textBuf = "";
  };

  function onEvent(e: RunEvent): void {
    if (opts.json) {
      opts.write(`${terminalSafeJson(e)}\n`);
      return;
    }
    if (e.type === "model.text") {
      textBuf += e.delta;
      const nl = textBuf.lastIndexOf("\n");
      if (nl >= 0) {
        const done = textBuf.slice(0, nl);
        textBuf = textBuf.slice(nl + 1);
        for (const l of sanitizeText(done).split("\n")) if (l.trim()) line(`  model: ${l}`);
      }
      return;
    }
    flushText();
    if (e.type === "run.started") currency = e.base_currency;
    // Every string of the event sanitised here, at the boundary, so no field of any line skips it.
    const text = describe(displayEvent(e), { red, green, yellow, dim }, currency);
    if (text !== null) line(text);
  }

  return { onEvent, flush: flushText };
}

type Paint = (s: string) => string;
type Colours = { red: Paint; green: Paint; yellow: Paint; dim: Paint };
/** The run's base currency, named beside every amount ("" before the run says it). */
type Currency = string;
type EventOf<T extends RunEvent["type"]> = Extract<RunEvent, { type: T }>;
type ModelEvent = EventOf<
  | "model.turn_started"
  | "model.text"
  | "model.response"
  | "model.retry"
  | "tool.called"
  | "tool.rejected"
  | "tool.result"
  | "tool.pending"
  | "research.search"
  | "mask.enabled"
  | "mask.leak"
  | "gate.dry_run"
  | "submit.bounced"
  | "agent.finished"
>;
type DecisionEvent = EventOf<"proposal" | "approval.requested" | "approval.decided" | "gate.final">;
type OrderEvent = EventOf<
  "order.placed" | "order.partially_filled" | "order.filled" | "order.cancelled" | "order.expired" | "order.rejected" | "order.uncertain"
>;
type RunStepEvent = Exclude<RunEvent, ModelEvent | DecisionEvent | OrderEvent>;

/** One event in plain words; amounts named in the run's base `currency` when known. */
export function describe(e: RunEvent, c: Colours, currency: Currency = ""): string | null {
  switch (e.type) {
    case "model.turn_started":
    case "model.text":
    case "model.response":
    case "model.retry":
    case "tool.called":
    case "tool.rejected":
    case "tool.result":
    case "tool.pending":
    case "research.search":
    case "mask.enabled":
    case "mask.leak":
    case "gate.dry_run":
    case "submit.bounced":
    case "agent.finished":
      return describeModel(e, c, currency);
    case "proposal":
    case "approval.requested":
    case "approval.decided":
    case "gate.final":
      return describeDecision(e, c, currency);
    case "order.placed":
    case "order.partially_filled":
    case "order.filled":
    case "order.cancelled":
    case "order.expired":
    case "order.rejected":
    case "order.uncertain":
      return describeOrder(e, c, currency);
    default:
      return describeRunStep(e, c, currency);
  }
}

/** The run's own steps: start, preflight, reconcile, valuation, kill switch, notes, standing orders and the end. */
function describeRunStep(e: RunStepEvent, c: Colours, currency: Currency): string | null {
  switch (e.type) {
    case "run.started":
      return `run ${e.run_id} started: mode ${e.mode}, trading day ${e.trading_day}, model ${e.model.provider}/${e.model.id}, broker ${e.broker.kind} (${e.broker.account_id})`;
    case "preflight.failed":
      return c.red(`preflight failed (${e.code}): ${sanitizeLine(e.message)}`);
    case "reconcile.ok":
      return `reconciled: journal and broker agree (${count(e.positions)} positions)`;
    case "reconcile.failed":
      return [
        c.red(`reconciliation failed: ${e.differences.length} difference(s); nothing will be placed`),
        ...e.differences.map((d) => `  - ${d.kind} ${d.symbol}: ${sanitizeLine(d.message)}${d.proves ? ` (${sanitizeLine(d.proves)})` : ""}`),
        "  `tradewarden reconcile` shows each difference and resolves what can be resolved",
      ].join("\n");
    case "order.recovered":
      return (e.settled ? c.yellow : c.red)(
        `order recovered (run ${e.from_run}): ${e.side} ${e.quantity} ${e.symbol} ${e.client_order_id}: ${e.status_before} → ${e.status}, ${e.filled_quantity} filled, ${e.fills_booked} fill(s) booked: ${sanitizeLine(e.message)}`,
      );
    case "valuation":
      return `value ${money(e.value, currency)} (cash ${money(e.cash, currency)}), peak ${money(e.peak, currency)}, drawdown ${pct(e.drawdown_pct)} of max ${pct(e.max_drawdown_pct, 0)}, state ${e.trading_state}, orders left this month ${e.orders_left}${e.first_of_run ? "" : " (after trading)"}`;
    case "killswitch.tripped":
      return c.red(
        `KILL SWITCH${e.by === "operator" ? " (tripped by the operator)" : ""}: ${joinClauses(sanitizeLine(e.reason), `${e.liquidation.length} liquidation order(s)`)}`,
      );
    case "run.note":
      return e.level === "warn" ? c.yellow(`note: ${sanitizeLine(e.message)}`) : `note: ${sanitizeLine(e.message)}`;
    case "order.funded_buy":
      return (e.outcome === "placed" ? c.green : c.yellow)(fundedBuyText(e));
    case "standing.fired": {
      const paint = e.result === "placed" ? c.green : e.result === "blocked" ? c.red : c.yellow;
      return paint(standingFiredText(e));
    }
    case "run.finished":
      return `run finished: ${e.outcome} (exit ${e.exit_code}): ${joinClauses(sanitizeLine(e.message), `LLM cost ${usd(e.cost_usd)}`)}`;
  }
}

/** The model's turns, its tool calls and their results, the research log, masking and the dry runs. */
function describeModel(e: ModelEvent, c: Colours, currency: Currency): string | null {
  switch (e.type) {
    case "model.turn_started":
      return c.dim(`turn ${e.turn}/${e.max_turns} (time left ${Math.round(e.time_left_ms / 1000)} s, cost ${usd(e.cost_usd)} of ${usd(e.budget_usd)})`);
    case "model.text":
      return null;
    case "model.response":
      return c.dim(`  model stopped: ${e.stop_reason} (${count(e.usage.input_tokens)} in / ${count(e.usage.output_tokens)} out tokens, ${usd(e.cost_usd)})`);
    case "model.retry":
      return c.yellow(`  model call retry ${e.attempt}: ${sanitizeLine(e.message)}`);
    case "tool.called":
      return `  tool ${e.tool} ${sanitizeLine(JSON.stringify(e.arguments)).slice(0, 200)}`;
    case "tool.rejected":
      return c.yellow(
        `  tool ${e.tool} rejected (${e.error_code}${e.retryable ? ", retryable" : ""}): ${sanitizeLine(withoutCodePrefix(e.error, e.error_code))}`,
      );
    case "tool.result":
      return e.success
        ? `  tool ${e.tool} ok: ${sanitizeLine(e.summary)}${e.truncated ? " (compacted)" : ""}`
        : c.yellow(`  tool ${e.tool} failed (${e.error_code}): ${sanitizeLine(withoutCodePrefix(e.summary, e.error_code))}`);
    case "tool.pending":
      return e.pending.length
        ? c.yellow(`  pending corrections: ${e.pending.map((p) => `${p.tool} (${p.error_code})`).join(", ")}`)
        : c.dim("  pending corrections cleared");
    case "research.search":
      return c.dim(
        `  news search (${e.provider}) ${e.status}: ${e.returned} returned of ${e.retrieved}; removed cutoff ${e.removed.cutoff}, undated ${e.removed.undated}, policy ${e.removed.policy}, duplicates ${e.removed.duplicates}${e.message ? ` (${sanitizeLine(e.message)})` : ""}`,
      );
    case "mask.enabled":
      return c.dim(`masking on: ${e.instruments.length} instrument aliases, dates shifted ${e.date_offset_days} days (data set ${e.data_set})`);
    case "mask.leak":
      return c.red(`MASK LEAK in the model's ${e.where} (turn ${e.turn}): a real ${e.kind} "${sanitizeLine(e.found)}"`);
    case "gate.dry_run":
      return [`  gate dry run:`, ...e.decisions.map((d) => `    ${d.approved ? c.green(verdictLine(d, currency)) : c.red(verdictLine(d, currency))}`)].join(
        "\n",
      );
    case "submit.bounced":
      return [
        c.yellow(`  submit bounced (one revision allowed):`),
        ...e.decisions.filter((d) => !d.approved).map((d) => `    ${c.red(verdictLine(d, currency))}`),
      ].join("\n");
    case "agent.finished":
      return `agent finished: ${e.outcome} (${sanitizeLine(e.reason)}) after ${e.turns} turn(s), cost ${usd(e.cost_usd)}`;
  }
}

/** The proposal, the operator's decision and the final gate. */
function describeDecision(e: DecisionEvent, c: Colours, currency: Currency): string | null {
  switch (e.type) {
    case "proposal":
      return [
        `proposal: ${e.orders.length === 0 ? "hold" : `${e.orders.length} order(s)`}: ${sanitizeLine(e.summary)}`,
        ...e.decisions.map((d) => `  ${d.approved ? c.green(verdictLine(d, currency)) : c.red(verdictLine(d, currency))}`),
        ...(e.abandoned.length ? [c.yellow(`  abandoned corrections: ${e.abandoned.join(", ")}`)] : []),
      ].join("\n");
    case "approval.requested":
      return `approval requested: ${e.approvable} approvable, ${e.blocked} blocked (orders ${e.orders_hash.slice(0, 12)})`;
    case "approval.decided":
      return `decision: ${decisionText(e.decision, e.by)}${e.orders.length ? ` (${e.orders.length} order(s))` : ""}${e.reason ? `: ${sanitizeLine(e.reason)}` : ""}`;
    case "gate.final":
      return [`final gate:`, ...e.decisions.map((d) => `  ${d.approved ? c.green(verdictLine(d, currency)) : c.red(verdictLine(d, currency))}`)].join("\n");
  }
}

/** An order's life at the broker. */
function describeOrder(e: OrderEvent, c: Colours, currency: Currency): string | null {
  switch (e.type) {
    case "order.placed":
      return `order placed: ${e.side} ${quantity(e.quantity)} ${e.symbol} @ ${price(e.limit_price)} (${e.client_order_id})`;
    case "order.partially_filled":
      return `order partially filled: ${e.side} ${e.symbol} ${quantity(e.filled_quantity)}/${quantity(e.quantity)} @ ${price(e.avg_price)}`;
    case "order.filled":
      return c.green(
        `order filled: ${e.side} ${quantity(e.filled_quantity)} ${e.symbol} @ ${price(e.avg_price)} (commission ${money(e.commission, currency)})`,
      );
    case "order.cancelled":
      return c.yellow(`order cancelled: ${e.side} ${e.symbol}, ${e.filled_quantity}/${e.quantity} filled: ${sanitizeLine(e.message)}`);
    case "order.expired":
      return c.yellow(`order expired: ${e.side} ${e.symbol}, ${e.filled_quantity}/${e.quantity} filled`);
    case "order.rejected":
      return c.red(`order rejected: ${e.side} ${quantity(e.quantity)} ${e.symbol}: ${sanitizeLine(e.message)}`);
    case "order.uncertain":
      return c.red(`order uncertain: ${e.side} ${quantity(e.quantity)} ${e.symbol}: ${sanitizeLine(e.message)}`);
  }
}
