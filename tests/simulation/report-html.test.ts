/**
 * report.html's pieces (issue #25, "Report"): the trip said once, liquidation orders marked apart
 * from the monthly quota, the fills table aligned through the one formatter, gains and losses
 * coloured, and the orders-per-month chart's first and last bars drawn whole (the page's own script
 * run against a recording stand-in for uPlot).
 */
import { describe, expect, it } from "vitest";
import type { DayRecord } from "../../src/simulation/day-record.js";
import { renderHtml } from "../../src/simulation/html.js";
import { REPORT_SCRIPT } from "../../src/simulation/html-script.js";
import { buildReport } from "../../src/simulation/report.js";
import type { SimulationMeta } from "../../src/simulation/store.js";

const meta: SimulationMeta = {
  format: "tradewarden-simulation/1",
  name: "june",
  from: "2008-01-02",
  to: "2008-06-30",
  days_total: 4,
  days_done: 4,
  status: "completed",
  created_at: "2026-12-02T00:00:00.000Z",
  finished_at: "2026-12-02T00:01:00.000Z",
  elapsed_ms: 60_000,
  model: { provider: "scripted", id: "scripted:momentum" },
  config: { file: null, model: "scripted:momentum", sets: [] },
  reset_after: 20,
  max_drawdown_pct: 10,
  capital: 100_000,
  base_currency: "USD",
  index_symbol: "SPX",
  start_index: 1400,
  failure: null,
};

const REASON = "drawdown 10.99% from peak 112,000.00 USD exceeds the limit of 10%";

function day(d: string, over: Partial<DayRecord>): DayRecord {
  return {
    day: d,
    run_id: `run-${d}`,
    outcome: "executed",
    exit_code: 0,
    value: 100_000,
    cash: 50_000,
    index: 1400,
    peak: 100_000,
    gate_drawdown: 0,
    trading_state: "ACTIVE",
    orders: 0,
    fills: [],
    blocked: {},
    cost_usd: 0,
    message: "",
    ...over,
  };
}

const days: DayRecord[] = [
  day("2008-01-02", {
    orders: 2,
    value: 101_000,
    fills: [
      { symbol: "AAPL", side: "BUY", quantity: 1250, price: 30.41, commission: 1 },
      { symbol: "MSFT", side: "BUY", quantity: 7, price: 1425.4321, commission: 12.5 },
    ],
  }),
  day("2008-06-02", { orders: 10, value: 110_000 }),
  // The trip: the run halts and sells everything (3 liquidation orders).
  day("2008-06-20", { orders: 3, value: 99_000, trading_state: "HALTED", trip: { drawdown: 0.1099, reason: REASON } }),
  day("2008-06-30", { orders: 0, value: 99_500, trading_state: "HALTED" }),
];

const html = renderHtml(buildReport(meta, days, { quota: 10 }), { js: "", css: "" });
const text = (h: string) =>
  h
    .replace(/<[^>]+>/g, " ")
    .replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)))
    .replace(/\s+/g, " ");

describe("report.html", () => {
  it("says the kill switch's trip once, not `drawdown 10.99% — drawdown 10.99% from …`", () => {
    const banner = /<div class="alert" id="kill-switch">[\s\S]*?<\/div>/.exec(html)?.[0] ?? "";
    expect(text(banner)).toContain(`2008-06-20 : ${REASON}`);
    expect(text(banner).match(/10\.99%/g)).toHaveLength(1);
  });

  it("marks the kill switch's liquidation orders apart from the monthly quota", () => {
    const page = text(html);
    expect(page).toContain("13 order(s) (3 kill-switch liquidation, outside the quota; 10 against the quota of 10)");
    expect(page).toContain("2 order(s) against the quota of 10");
    // The month's row: orders, liquidation, against the quota (not flagged over it).
    expect(html).toMatch(/<td>2008-06<\/td><td class="n">13<\/td><td class="n">3<\/td><td class="n">10<\/td>/);
    const report = buildReport(meta, days, { quota: 10 });
    expect(report.liquidation_by_month).toEqual({ "2008-06": 3 });
    expect(report.liquidation_orders).toBe(3);
  });

  it("flags a month whose own orders go over the quota", () => {
    const over = renderHtml(buildReport(meta, [day("2008-03-03", { orders: 12 })], { quota: 10 }), { js: "", css: "" });
    expect(over).toMatch(/<td class="n loss">12<\/td>/);
  });

  it("aligns the fills table: numbers right-aligned, with thousands separators, through the one formatter", () => {
    const fills = html.slice(html.indexOf("<th>day</th><th>side</th>"));
    expect(fills).toMatch(/<th class="n">quantity<\/th><th class="n">price<\/th><th class="n">commission<\/th>/);
    expect(fills).toContain('<td>AAPL</td><td class="n">1,250</td><td class="n">30.41</td><td class="n">1.00</td>');
    expect(fills).toContain('<td>MSFT</td><td class="n">7</td><td class="n">1,425.43</td><td class="n">12.50</td>');
  });

  it("colours gains and losses", () => {
    expect(html).toMatch(/<td class="n loss" data-key="total_return">-0\.50%<\/td>/);
    const gain = renderHtml(buildReport(meta, [day("2008-01-02", { value: 105_000 })]), { js: "", css: "" });
    expect(gain).toMatch(/<td class="n gain" data-key="total_return">5\.00%<\/td>/);
    expect(html).toMatch(/\.gain\{color:#2e7d32\}\.loss\{color:#c62828\}/);
  });
});

interface Recorded {
  title: string;
  scales: { x: { range?: (u: unknown, min: number, max: number) => [number, number] } };
}

/** The page's script run against stand-ins for the DOM and uPlot; the options of each chart it draws. */
function chartsOf(reportData: unknown): Recorded[] {
  const drawn: Recorded[] = [];
  function uPlot(this: unknown, opts: Recorded) {
    drawn.push(opts);
    return { height: 200 };
  }
  uPlot.paths = { bars: () => () => null };
  const el = { clientWidth: 900, textContent: JSON.stringify(reportData), setAttribute() {} };
  const document = { getElementById: () => el, body: el };
  const window = { addEventListener() {} };
  new Function("uPlot", "document", "window", "devicePixelRatio", REPORT_SCRIPT)(uPlot, document, window, 1);
  return drawn;
}

describe("report.html's charts", () => {
  it("draws the first and last month's bars whole: the orders chart's x range has half a month each side", () => {
    const orders = chartsOf(buildReport(meta, days)).find((c) => c.title === "Orders sent per month");
    const jan = Date.parse("2008-01-01T00:00:00Z") / 1000;
    const jun = Date.parse("2008-06-01T00:00:00Z") / 1000;
    const range = orders?.scales.x.range;
    expect(range, "the x scale is padded").toBeTypeOf("function");
    const [lo, hi] = range?.(null, jan, jun) ?? [jan, jun];
    // A bar is 80% of a month's slot wide: its half (~12 days) must fit inside the range.
    expect(jan - lo).toBeGreaterThanOrEqual(14 * 86400);
    expect(hi - jun).toBeGreaterThanOrEqual(14 * 86400);
  });
});
