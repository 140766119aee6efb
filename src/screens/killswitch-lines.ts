/** The kill-switch screen's facts as wrapped lines (they scroll when the terminal is short). Pure. */
import { money, pct } from "../printers/format.js";
import { wallClock } from "../core/format.js";
import { sanitizeLine } from "../util/sanitize.js";
import type { Line } from "./components.js";
import type { KillSwitchFacts } from "./KillSwitchScreen.js";
import { fitSegments, wrapText } from "./text.js";

const LIQUIDATION_TEXT: Record<KillSwitchFacts["liquidation"]["status"], string> = {
  none: "nothing to liquidate",
  pending: "liquidation pending: holdings will be sold at the next run that can trade",
  partial: "liquidation partial: some holdings are still held and will be sold at the next run that can trade",
  complete: "liquidation complete: every holding was sold",
};

/** What the account does after a reset, in words. */
function afterResetState(f: KillSwitchFacts): string {
  return f.reducing_runs_after_reset > 0 ? `REDUCING (sells only) for ${f.reducing_runs_after_reset} run(s), then ACTIVE` : "ACTIVE";
}

/** The title: the trading state and the trip day always in view (the lower-priority parts go first). */
export function killSwitchTitle(f: KillSwitchFacts, width: number): string {
  const halted = f.trading_state === "HALTED";
  return fitSegments(
    [
      { text: "Kill switch", priority: 1 },
      { text: `trading state ${f.trading_state}`, priority: 3 },
      { text: halted && f.trading_day ? `trip day ${sanitizeLine(f.trading_day)}` : "", priority: 2 },
    ],
    width,
  );
}

function notHalted(f: KillSwitchFacts, cur: string, canTrip: boolean): Array<[string, Line["tone"]]> {
  const out: Array<[string, Line["tone"]]> = [["Trading is not halted: there is nothing to reset.", "plain"]];
  if (f.trading_state === "REDUCING") {
    const left = f.reducing_runs_left !== undefined && f.reducing_runs_left > 0 ? ` for ${f.reducing_runs_left} more run(s)` : "";
    out.push([`The account is REDUCING: only sells are allowed${left}, until the reducing runs are over.`, "warn"]);
  }
  if (f.peak !== undefined) out.push([`Peak ${money(f.peak, cur)}${f.drawdown_pct !== undefined ? ` · drawdown ${pct(f.drawdown_pct)}` : ""}`, "plain"]);
  if (f.current_value !== undefined) out.push([`Current value ${money(f.current_value, cur)}`, "plain"]);
  if (canTrip) {
    out.push(["", "plain"], ["What a trip does (K)", "accent"]);
    out.push(["· the trading state becomes HALTED: no run trades until the kill switch is reset here", "plain"]);
    out.push(["· the next run that can trade sells every holding (outside the monthly quota)", "plain"]);
    out.push(["· the trip and your reason are recorded in the journal, as an operator's trip", "plain"]);
  }
  return out;
}

function halted(f: KillSwitchFacts, cur: string): Array<[string, Line["tone"]]> {
  const out: Array<[string, Line["tone"]]> = [
    [
      `Halted ${f.trading_day ? `on trading day ${sanitizeLine(f.trading_day)} ` : ""}${f.tripped_at ? `(at ${wallClock(sanitizeLine(f.tripped_at))})` : "(time unknown)"}${f.run_id ? ` in run ${sanitizeLine(f.run_id)}` : ""}`,
      "plain",
    ],
    [`Why: ${f.reason ? sanitizeLine(f.reason) : "drawdown reached the limit"}`, "error"],
    [
      `Value at trip ${f.value_at_trip !== undefined ? money(f.value_at_trip, cur) : "—"} · peak ${f.peak !== undefined ? money(f.peak, cur) : "—"} · drawdown ${f.drawdown_pct !== undefined ? pct(f.drawdown_pct) : "—"}${f.limit_pct !== undefined ? ` (limit ${pct(f.limit_pct, 0)})` : ""}`,
      "plain",
    ],
    [
      `${LIQUIDATION_TEXT[f.liquidation.status]}${f.liquidation.detail ? ` (${sanitizeLine(f.liquidation.detail)})` : ""}`,
      f.liquidation.status === "complete" || f.liquidation.status === "none" ? "plain" : "warn",
    ],
  ];
  for (const o of f.liquidation.orders ?? [])
    out.push([
      `· liquidation order ${sanitizeLine(o.client_order_id)}: SELL ${o.quantity} ${sanitizeLine(o.symbol)}, ${sanitizeLine(o.status)}, ${o.filled_quantity} filled (outside the monthly quota)`,
      "plain",
    ]);
  out.push([`Current value ${f.current_value !== undefined ? money(f.current_value, cur) : "—"}`, "plain"]);
  out.push(["", "plain"], ["What a reset does", "accent"]);
  out.push([
    `· the peak becomes the current value${f.current_value !== undefined ? ` (${money(f.current_value, cur)})` : ""}, so the drawdown starts again from 0%`,
    "plain",
  ]);
  out.push([`· the trading state becomes ${afterResetState(f)}`, "plain"]);
  out.push(["· the reset and your reason are recorded in the journal; holdings are not touched", "plain"]);
  return out;
}

/** Every line of the facts, wrapped to `width`. */
export function killSwitchLines(f: KillSwitchFacts, width: number, canTrip: boolean): Line[] {
  const cur = f.base_currency ?? "";
  const raw = f.trading_state === "HALTED" ? halted(f, cur) : notHalted(f, cur, canTrip);
  return raw.flatMap(([text, tone]) => (text === "" ? [{ text: "", tone }] : wrapText(text, width).map((l) => ({ text: l, tone }))));
}
