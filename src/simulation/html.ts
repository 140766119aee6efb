/**
 * `report.html`: one self-contained page (no network: uPlot's script and stylesheet are inlined,
 * and the page's Content-Security-Policy allows no fetch at all) with the summary, the figures and
 * their definitions, the charts (value vs the index, drawdown with the kill-switch line, exposure,
 * orders per month; trips and resets marked) and the tables (blocks by gate rule, trips, resets,
 * fills, cost). Rendering is pure given uPlot's text; `uplotAssets` reads it from the package.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { money, pct as percent, quantity, usd } from "../core/format.js";
import { REPORT_SCRIPT } from "./html-script.js";
import type { SimulationReport } from "./report.js";

export interface UplotAssets {
  js: string;
  css: string;
}

let cached: UplotAssets | undefined;

function uplotAssets(): UplotAssets {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  cached = {
    js: readFileSync(require.resolve("uplot/dist/uPlot.iife.min.js"), "utf8"),
    css: readFileSync(require.resolve("uplot/dist/uPlot.min.css"), "utf8"),
  };
  return cached;
}

const esc = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
// Amounts and quantities through the one formatter (core/format.ts); fractions as percentages.
const pct = (x: number, d = 2) => percent(x * 100, d);
const num = (x: number) => money(x);
/** A gain green, a loss red (the class of a signed figure's cell). */
const signClass = (x: number) => (x > 0 ? "gain" : x < 0 ? "loss" : "");
/** Inline script text must not close its element. */
const scriptSafe = (s: string) => s.replace(/<\/(script)/gi, "<\\/$1");

function summaryLine(r: SimulationReport): string {
  const parts = [`${r.days} of ${r.days_total} trading day(s), ${esc(r.from)} → ${esc(r.to)}`, `status <b>${esc(r.status)}</b>`, `model ${esc(r.model.id)}`];
  return parts.join(" · ");
}

function killSwitchBanner(r: SimulationReport): string {
  if (r.trips.length === 0)
    return `<p class="ok" id="kill-switch">Kill switch: not tripped (limit ${pct(r.kill_switch.limit, 1)} drawdown from the confirmed peak).</p>`;
  // The trip's reason already states the drawdown ("drawdown 10.99% from peak …"): said once.
  const items = r.trips.map((t) => `<li><b>${esc(t.day)}</b>: ${esc(t.reason || `drawdown ${pct(t.drawdown)}`)}</li>`).join("");
  return `<div class="alert" id="kill-switch"><b>Kill switch tripped ${r.trips.length} time(s)</b> (limit ${pct(r.kill_switch.limit, 1)}):<ul>${items}</ul>${r.resets.length ? `<p>${r.resets.length} reset(s): ${r.resets.map((x) => esc(x.day)).join(", ")}</p>` : "<p>Not reset: trading stayed halted for the rest of the simulation.</p>"}</div>`;
}

function figures(r: SimulationReport): string {
  const rows: [string, string, string, number?][] = [
    ["total_return", "Total return", pct(r.total_return), r.total_return],
    ["annualised_return", "Annualised return", pct(r.annualised_return), r.annualised_return],
    ["index_return", `${r.index_symbol} bought and held`, `${pct(r.index_return)} (annualised ${pct(r.index_annualised_return)})`, r.index_return],
    ["excess_return", "Excess over the index", pct(r.excess_return), r.excess_return],
    ["volatility", "Volatility (annualised)", pct(r.volatility)],
    ["sharpe", `Sharpe (risk-free ${pct(r.risk_free)})`, num(r.sharpe)],
    ["sortino", "Sortino", num(r.sortino)],
    ["max_drawdown", "Max drawdown", `${pct(r.max_drawdown)} (index: ${pct(r.index_max_drawdown)})`],
    ["max_drawdown_days", "Longest time underwater", `${r.max_drawdown_days} trading days`],
    ["turnover", "Turnover (per year)", num(r.turnover)],
    ["hit_rate", "Hit rate", `${pct(r.hit_rate, 1)} of ${r.closed_trades} closed trade(s)`],
    ["exposure", "Exposure (average)", pct(r.exposure, 1)],
    ["orders", "Orders sent", ordersText(r.orders, r.liquidation_orders)],
    ["blocked_by_rule", "Orders blocked by the gate", String(r.blocked)],
    ["cost_usd", "Model cost", usd(r.cost_usd)],
  ];
  const body = rows
    .map(
      ([k, label, v, sign]) =>
        `<tr><th>${esc(label)}</th><td class="${`n ${sign === undefined ? "" : signClass(sign)}`.trim()}" data-key="${k}">${esc(v)}</td><td class="def">${esc(r.definitions[k] ?? "")}</td></tr>`,
    )
    .join("");
  return `<table class="figures"><thead><tr><th>Figure</th><th>Value</th><th>Definition</th></tr></thead><tbody>${body}</tbody></table>`;
}

/** A cell: its text, and a class ("n" right-aligns a number; "gain"/"loss" colour it). */
type Cell = string | { text: string; cls: string };

/** A table; the columns named in `numeric` are right-aligned numbers (headers too). */
function table(head: string[], rows: Cell[][], empty: string, numeric: readonly number[] = []): string {
  if (rows.length === 0) return `<p class="muted">${esc(empty)}</p>`;
  const cls = (i: number, extra = "") => {
    const c = `${numeric.includes(i) ? "n" : ""} ${extra}`.trim();
    return c ? ` class="${c}"` : "";
  };
  const td = (c: Cell, i: number) => (typeof c === "string" ? `<td${cls(i)}>${esc(c)}</td>` : `<td${cls(i, c.cls)}>${esc(c.text)}</td>`);
  return `<table><thead><tr>${head.map((h, i) => `<th${cls(i)}>${esc(h)}</th>`).join("")}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map(td).join("")}</tr>`).join("")}</tbody></table>`;
}

/** "13 orders (3 liquidation, 10 against the quota of 10)": kill-switch sells apart from the quota. */
function ordersText(orders: number, liquidation: number, quota: number | null = null): string {
  const against = orders - liquidation;
  const of = quota === null ? "" : ` of ${quantity(quota)}`;
  if (liquidation === 0) return `${quantity(orders)} order(s)${quota === null ? "" : ` against the quota${of}`}`;
  return `${quantity(orders)} order(s) (${quantity(liquidation)} kill-switch liquidation, outside the quota; ${quantity(against)} against the quota${of})`;
}

/** Orders per month: liquidations marked apart from the monthly quota; a month over its quota flagged. */
function ordersByMonth(r: SimulationReport): string {
  const rows = Object.keys(r.orders_by_month)
    .sort()
    .map((m): Cell[] => {
      const n = r.orders_by_month[m] ?? 0;
      const liq = r.liquidation_by_month?.[m] ?? 0;
      const over = r.order_quota !== null && n - liq > r.order_quota;
      return [m, quantity(n), quantity(liq), { text: quantity(n - liq), cls: over ? "loss" : "" }, ordersText(n, liq, r.order_quota ?? null)];
    });
  return table(["month", "orders", "liquidation", "against the quota", ""], rows, "No order.", [1, 2, 3]);
}

function blocks(r: SimulationReport): string {
  const entries = Object.entries(r.blocked_by_rule).sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) return `<p class="muted">The gate blocked no order.</p>`;
  const max = Math.max(...entries.map(([, n]) => n));
  return `<table class="bars">${entries.map(([code, n]) => `<tr><th>${esc(code)}</th><td><span class="bar" style="width:${Math.max(2, (n / max) * 100).toFixed(1)}%"></span></td><td class="n">${n}</td></tr>`).join("")}</table>`;
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#222}
h1{font-size:22px;margin-bottom:4px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ddd;padding-bottom:4px}
table{border-collapse:collapse;width:100%;margin:8px 0}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eee;vertical-align:top}
td.n,th.n{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}td.def{color:#555;font-size:12.5px}
.alert{background:#fdecea;border:1px solid #c62828;padding:8px 12px;border-radius:4px}.ok{background:#edf7ed;padding:8px 12px;border-radius:4px}
.gain{color:#2e7d32}.loss{color:#c62828}.muted{color:#777}.bar{display:inline-block;height:12px;background:#c62828;border-radius:2px}.bars th{width:40%}
.chart{margin:12px 0}.scroll{max-height:420px;overflow:auto}`;

export function renderHtml(r: SimulationReport, assets: UplotAssets = uplotAssets()): string {
  const data = JSON.stringify(r).replace(/</g, "\\u003c");
  const fills = r.fill_list.map((f): Cell[] => [f.day, f.side, f.symbol, quantity(f.quantity), num(f.price), num(f.commission), f.run_id]);
  const failure = r.failure
    ? `<p class="alert">Stopped: ${esc(r.failure.message)}${r.failure.day ? ` (day ${esc(r.failure.day)}, run ${esc(r.failure.run_id)})` : ""}</p>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Simulation ${esc(r.name)} — tradewarden</title>
<style>${assets.css}</style><style>${STYLE}</style></head>
<body>
<h1>Simulation ${esc(r.name)}</h1>
<p>${summaryLine(r)}</p>
${killSwitchBanner(r)}
${failure}
<h2>Figures</h2>
${figures(r)}
<p class="muted">Values are the account at each day's closing prices (base currency); the index line is the starting capital put into ${esc(r.index_symbol)} and held over the same days. Fractions are shown as percentages.</p>
<h2>Charts</h2>
<div class="chart" id="chart-value"></div>
<div class="chart" id="chart-drawdown"></div>
<div class="chart" id="chart-exposure"></div>
<div class="chart" id="chart-orders"></div>
<h2>Orders per month</h2>
${ordersByMonth(r)}
<h2>Blocks by gate rule</h2>
${blocks(r)}
<h2>Trips and resets</h2>
${table(
  ["day", "drawdown", "reason"],
  r.trips.map((t) => [t.day, { text: pct(t.drawdown), cls: "loss" }, t.reason]),
  "No trip.",
  [1],
)}
${table(
  ["day", "value", "reason"],
  r.resets.map((t) => [t.day, num(t.value), t.reason]),
  "No reset.",
  [1],
)}
<h2>Fills (${r.fills}) and cost</h2>
<p>Traded notional ${num(r.traded_notional)}; commissions ${num(r.commissions)}; model cost ${usd(r.cost_usd)}. Day outcomes: ${esc(
    Object.entries(r.outcomes)
      .map(([k, n]) => `${k} ${n}`)
      .join(", "),
  )}.</p>
<div class="scroll">${table(["day", "side", "symbol", "quantity", "price", "commission", "run"], fills, "No fill.", [3, 4, 5])}</div>
<p class="muted">Configuration: ${esc(r.config.file ?? "built-in defaults")}; --model ${esc(r.config.model)}${r.config.sets.map((s) => `; --set ${esc(s)}`).join("")}. Generated by tradewarden.</p>
<script type="application/json" id="report-data">${data}</script>
<script>${scriptSafe(assets.js)}</script>
<script>${scriptSafe(REPORT_SCRIPT)}</script>
</body></html>
`;
}
