/**
 * The public `gate check --scenario` contract: the scenario JSON (validated with ajv, every problem
 * reported with its path), its evaluation, and the two renderings (JSON, readable table). Pure:
 * the command reads the file.
 */
import { describeErrors, generatedValidator } from "../config/ajv.js";
import * as generated from "../config/validators.generated.js";
import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { DATE_PATTERN, LIMITS_PROPERTIES } from "../config/schema.js";
import { pickLimits } from "./limits.js";
import { type Instrument, InstrumentSchema, TRADING_STATES, type TradingState } from "../core/domain.js";
import { LimitsSchema } from "../core/limits.js";
import { evaluate } from "./evaluate.js";
import { fmtNum, fmtPct, fmtQty, fundedBySellsText } from "./format.js";
import { fromMinor } from "../core/money.js";
import type { FundedBySells, GateMarket, GateOrder, GateResult, GateState, Limits } from "../core/gate-types.js";

const SIDE_PATTERN = "^[Bb][Uu][Yy]$|^[Ss][Ee][Ll][Ll]$";
const Day = () => Type.String({ pattern: DATE_PATTERN, format: "date" });
/** An object keyed by symbol: `additionalProperties` (as the contract always was), typed as a record. */
const BySymbol = <T extends TSchema>(value: T, options: { default?: object } = {}) =>
  Type.Unsafe<Record<string, Static<T>>>({ type: "object", ...options, additionalProperties: value });
const closed = { additionalProperties: false } as const;

/** A scenario's limits: the gate's (core/limits.ts) and the config's kill-switch keys, each with its default. */
const ScenarioLimitsSchema = Type.Object(
  {
    base_currency: LimitsSchema.properties.base_currency,
    ...LIMITS_PROPERTIES,
    // The scenario contract predates the config's fail-closed default: here null (or left
    // out) still means "no price-age check", so existing scenarios evaluate as they did.
    max_price_age_days: LimitsSchema.properties.max_price_age_days,
  },
  { ...closed, default: {} },
);

const ScenarioInstrumentSchema = Type.Object(
  {
    ...InstrumentSchema.properties,
    symbol: Type.String({ minLength: 1 }),
    currency: Type.String({ pattern: "^[A-Za-z]{3}$" }),
    tick: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  },
  closed,
);

const ScenarioQuoteSchema = Type.Object(
  {
    price: Type.Number(),
    fx_to_base: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    commission: Type.Optional(Type.Number({ minimum: 0 })),
    as_of: Type.Optional(Day()),
  },
  closed,
);

const ScenarioPortfolioSchema = Type.Object(
  {
    cash: Type.Number(),
    holdings: BySymbol(Type.Object({ quantity: Type.Number(), price: Type.Optional(Type.Number({ exclusiveMinimum: 0 })) }, closed), { default: {} }),
    peak: Type.Number({ minimum: 0, default: 0 }),
    orders_this_month: Type.Integer({ minimum: 0, default: 0 }),
    trading_state: Type.Unsafe<TradingState>({ enum: [...TRADING_STATES], default: "ACTIVE" }),
    open_orders: Type.Array(
      Type.Object(
        {
          symbol: Type.String({ minLength: 1 }),
          side: Type.String({ pattern: SIDE_PATTERN }),
          quantity: Type.Number({ exclusiveMinimum: 0 }),
          limit_price: Type.Number({ exclusiveMinimum: 0 }),
        },
        closed,
      ),
      { default: [] },
    ),
    as_of: Type.Optional(Day()),
  },
  closed,
);

/**
 * An order as a scenario states it: loose (the gate blocks what is wrong), and its limit price may
 * be null or left out (a market order, which the gate blocks as `limit_price_required`).
 */
const ScenarioOrderSchema = Type.Object(
  {
    symbol: Type.String(),
    side: Type.String(),
    quantity: Type.Number(),
    limit_price: Type.Optional(Type.Unsafe<number | null>({ type: ["number", "null"] })),
    exchange: Type.Optional(Type.String()),
    reason: Type.Optional(Type.String()),
    evidence_ids: Type.Optional(Type.Array(Type.String())),
  },
  closed,
);
type ScenarioOrder = Static<typeof ScenarioOrderSchema>;

export const SCENARIO_SCHEMA = Type.Object(
  {
    limits: ScenarioLimitsSchema,
    universe: Type.Array(ScenarioInstrumentSchema),
    market: BySymbol(ScenarioQuoteSchema),
    portfolio: ScenarioPortfolioSchema,
    orders: Type.Array(ScenarioOrderSchema),
  },
  {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://tradewarden.dev/schema/gate-scenario.json",
    title: "gate check scenario",
    ...closed,
  },
);

const scenarioValidator = generatedValidator(SCENARIO_SCHEMA, generated.scenario);

export interface Scenario {
  limits: Limits;
  universe: Instrument[];
  market: GateMarket;
  state: GateState;
  /** As the scenario states them: a limit price may be null or left out. */
  orders: ScenarioOrder[];
}

interface ScenarioIssue {
  /** JSONPath-like, e.g. "$.portfolio.cash". */
  path: string;
  message: string;
}

const jsonPath = (p: string): string => (p === "" ? "$" : p.startsWith("[") ? `$${p}` : `$.${p}`);

/** Validate a parsed scenario document and normalise it (upper-case symbols, defaults applied). */
export function parseScenario(doc: unknown): { ok: true; scenario: Scenario } | { ok: false; issues: ScenarioIssue[] } {
  const data: unknown = structuredClone(doc);
  const validateScenario = scenarioValidator();
  if (!validateScenario(data)) {
    return {
      ok: false,
      issues: describeErrors(validateScenario.errors).map((i) => ({ path: jsonPath(i.path), message: i.rule })),
    };
  }
  const d = data;
  const issues: ScenarioIssue[] = [];

  const universe: Instrument[] = [];
  const exchangeOf = new Map<string, { exchange: string | undefined; index: number }>();
  d.universe.forEach((u, i) => {
    const symbol = u.symbol.trim().toUpperCase();
    const exchange = u.exchange?.trim().toUpperCase() || undefined;
    const prev = exchangeOf.get(symbol);
    if (prev !== undefined) {
      issues.push({
        path: `$.universe[${i}].symbol`,
        message:
          prev.exchange !== exchange
            ? `symbol ${symbol} is on two exchanges: ${prev.exchange ?? "(none)"} (universe[${prev.index}]) and ${exchange ?? "(none)"}`
            : `symbol ${symbol} is listed twice (universe[${prev.index}])`,
      });
      return;
    }
    exchangeOf.set(symbol, { exchange, index: i });
    const inst: Instrument = { ...u, symbol, currency: u.currency.toUpperCase() };
    if (exchange !== undefined) inst.exchange = exchange;
    else delete inst.exchange;
    universe.push(inst);
  });

  const market: GateMarket = {};
  for (const [k, q] of Object.entries(d.market)) {
    const s = k.trim().toUpperCase();
    if (Object.hasOwn(market, s)) {
      issues.push({ path: `$.market.${k}`, message: `symbol ${s} appears twice (keys differ only in case)` });
      continue;
    }
    market[s] = { ...q };
  }
  const holdings: GateState["holdings"] = {};
  for (const [k, h] of Object.entries(d.portfolio.holdings)) {
    const s = k.trim().toUpperCase();
    if (Object.hasOwn(holdings, s)) {
      issues.push({ path: `$.portfolio.holdings.${k}`, message: `symbol ${s} appears twice (keys differ only in case)` });
      continue;
    }
    if (h.price === undefined && h.quantity !== 0 && !Object.hasOwn(market, s)) {
      issues.push({
        path: `$.portfolio.holdings.${k}`,
        message: `holding ${s} has no price: give portfolio.holdings.${k}.price or market.${s}.price`,
      });
    }
    holdings[s] = { ...h };
  }
  if (issues.length > 0) return { ok: false, issues };

  const { holdings: _h, ...rest } = d.portfolio;
  const state: GateState = { ...rest, holdings };
  const limits: Limits = pickLimits(d.limits);
  return { ok: true, scenario: { limits, universe, market, state, orders: d.orders } };
}

export function runScenario(s: Scenario): GateResult {
  // The one narrowing left on this path: `GateOrder` types the limit price as a number, while the
  // gate checks it at run time and blocks a null or missing one (limit_price_required). It goes
  // once GateOrder's limit price is `number | null` optional (its readers are outside the gate).
  return evaluate(s.orders as GateOrder[], s.state, s.market, s.limits, s.universe);
}

/** A funded buy's amount in the scenario JSON: major units as every amount there, and exactly in minor units. */
function fundedOutput(f: FundedBySells): { amount: number; amount_minor: number; currency: string } {
  return { amount: fromMinor(f.amount_minor, f.currency), amount_minor: f.amount_minor, currency: f.currency };
}

/** Round away float noise (0.1 + 0.2) for output; null for non-finite numbers (JSON has none). */
const clean = (n: number): number | null => (Number.isFinite(n) ? Number(n.toFixed(9)) : null);

/**
 * The public JSON output (the contract of `gate check --json`): decisions in evaluated order (sells
 * first), each with `index`, the position in the scenario's `orders` of the order it answers.
 */
export function scenarioOutput(r: GateResult): Record<string, unknown> {
  return {
    decisions: r.decisions.map((d) => ({
      index: d.index,
      order: d.order,
      approved: d.approved,
      reasons: d.reasons.map((x) => ({ code: x.code, message: x.message })),
      notional: clean(d.notional),
      commission: clean(d.commission),
      // Only on a buy the cash held does not cover but this batch's sells do (placed after they fill).
      ...(d.funded_by_sells ? { funded_by_sells: fundedOutput(d.funded_by_sells) } : {}),
    })),
    portfolio_after: {
      cash: clean(r.portfolio_after.cash),
      holdings: Object.fromEntries(
        Object.entries(r.portfolio_after.holdings).map(([k, h]) => [
          k,
          h.price === undefined ? { quantity: clean(h.quantity) } : { quantity: clean(h.quantity), price: h.price },
        ]),
      ),
      orders_this_month: r.portfolio_after.orders_this_month,
    },
    drawdown_pct: clean(r.drawdown_pct),
    kill_switch: r.kill_switch,
  };
}

function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 0, c.length);
    });
  }
  return rows
    .map((row) =>
      row
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** The readable rendering: one row per decision, its reasons under it, then the portfolio after. */
export function scenarioTable(r: GateResult, limits: Limits): string {
  const base = limits.base_currency;
  const rows: string[][] = [["#", "side", "symbol", "qty", "limit", `notional ${base}`, `commission ${base}`, "verdict"]];
  r.decisions.forEach((d, i) => {
    const o = d.order;
    rows.push([
      String(i + 1),
      String(o.side),
      String(o.symbol),
      typeof o.quantity === "number" ? fmtQty(o.quantity) : String(o.quantity),
      typeof o.limit_price === "number" ? fmtNum(o.limit_price) : String(o.limit_price),
      fmtNum(d.notional),
      Number.isFinite(d.commission) ? fmtNum(d.commission) : "unknown",
      d.approved ? (d.funded_by_sells ? "APPROVED, FUNDED BY SELLS" : "APPROVED") : "BLOCKED",
    ]);
  });
  const lines = [table(rows)];
  const blocked = r.decisions.filter((d) => !d.approved);
  if (blocked.length > 0) {
    lines.push("", "Reasons:");
    r.decisions.forEach((d, i) => {
      for (const reason of d.reasons) lines.push(`  #${i + 1} ${String(d.order.symbol)} ${reason.code}: ${reason.message}`);
    });
  }
  const funded = r.decisions.filter((d) => d.funded_by_sells);
  if (funded.length > 0) {
    lines.push("", "Funded by this batch's sells (placed only after the sells fill, re-gated on the cash received):");
    r.decisions.forEach((d, i) => {
      if (d.funded_by_sells) lines.push(`  #${i + 1} ${String(d.order.symbol)}: ${fundedBySellsText(d.funded_by_sells)}`);
    });
  }
  const approved = r.decisions.length - blocked.length;
  const pa = r.portfolio_after;
  const holdings = Object.entries(pa.holdings)
    .map(([k, h]) => `${k} ${fmtQty(h.quantity)}`)
    .join(", ");
  lines.push(
    "",
    `${approved} approved, ${blocked.length} blocked of ${r.decisions.length} order(s).`,
    `Portfolio after: cash ${fmtNum(pa.cash)} ${base}; holdings ${holdings === "" ? "none" : holdings}; orders this month ${pa.orders_this_month}.`,
    `Drawdown ${fmtPct(r.drawdown_pct)}; kill switch ${r.kill_switch ? "TRIPPED" : "not tripped"} (limit ${limits.max_drawdown_pct}%).`,
  );
  return lines.join("\n") + "\n";
}
