import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig, limitsOf, loadConfig } from "../../src/config/load.js";
import type { ConfigIssue } from "../../src/config/types.js";

const EXAMPLE = join(import.meta.dirname, "..", "..", "data", "tradewarden.example.toml");
const SIM_CSV = "symbol,currency,exchange,name,sector,tick,note,extra\naaa,usd,smart,Alpha,Tech,0.01,,x\nBBB,USD,,Beta,,,,\n";

/** A temp home with a universe file and, optionally, a config file. */
function home(toml?: string, files: Record<string, string> = { "universe/sim.csv": SIM_CSV }): string {
  const dir = mkdtempSync(join(tmpdir(), "tw-config-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  if (toml !== undefined) writeFileSync(join(dir, "tradewarden.toml"), toml);
  return dir;
}
const emptyData = mkdtempSync(join(tmpdir(), "tw-data-"));

function errors(toml: string | undefined, files?: Record<string, string>): ConfigIssue[] {
  const r = loadConfig(home(toml, files), emptyData);
  if (r.ok) throw new Error("expected the config to be refused");
  return r.errors;
}
const messages = (toml: string | undefined, files?: Record<string, string>) => errors(toml, files).map((e) => e.message);

describe("loadConfig", () => {
  it("runs on the built-in defaults when there is no file", () => {
    const r = loadConfig(home(), emptyData);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config.source).toBeNull();
    expect(r.config).toEqual(defaultConfig());
    expect(r.config.limits).toMatchObject({
      base_currency: "USD",
      max_position_pct: 25,
      max_orders_per_month: 10,
      max_drawdown_pct: 25,
      max_price_deviation_pct: 2,
      max_commission_pct: 10,
      allow_fractional: false,
      max_order_notional: null,
      max_price_age_days: 5,
      reducing_runs_after_reset: 3,
      liquidation_discount_pct: 1,
    });
    expect(r.config.account).toEqual({ base_currency: "USD", capital: 100000, timezone: "America/New_York" });
    expect(r.config.model).toMatchObject({ provider: "auto", id: "claude-sonnet-5", run_budget_usd: 0.5, base_url: null });
    expect(r.config.broker.sim).toEqual({
      participation_pct: 10,
      commission_per_share: 0.005,
      commission_min: 1,
      commission_max_pct: 1,
      start_date: null,
    });
    expect(r.config.executor).toEqual({ wait_s: 120, settle_s: 15, poll_ms: 250 });
    expect(r.universe).toEqual([
      { symbol: "AAA", currency: "USD", exchange: "SMART", name: "Alpha", sector: "Tech", tick: 0.01 },
      { symbol: "BBB", currency: "USD", name: "Beta" },
    ]);
    expect(limitsOf(r.config)).toEqual({
      base_currency: "USD",
      max_position_pct: 25,
      max_orders_per_month: 10,
      max_drawdown_pct: 25,
      max_price_deviation_pct: 2,
      max_commission_pct: 10,
      allow_fractional: false,
      max_order_notional: null,
      max_price_age_days: 5,
    });
  });

  it("the shipped example loads and equals the defaults", () => {
    const h = home();
    copyFileSync(EXAMPLE, join(h, "tradewarden.toml"));
    const r = loadConfig(h, emptyData);
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
    expect(r.config.source).toBe(join(h, "tradewarden.toml"));
    expect({ ...r.config, source: null }).toEqual(defaultConfig());
  });

  it("sections are optional and keys default; values given are used; TOML dates become strings", () => {
    const r = loadConfig(
      home('[limits]\nmax_position_pct = 10\nmax_order_notional = 5000\n[account]\nbase_currency = "EUR"\n[broker.sim]\nstart_date = 2024-01-02\n'),
      emptyData,
    );
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
    expect(r.config.limits.max_position_pct).toBe(10);
    expect(r.config.limits.max_orders_per_month).toBe(10);
    expect(r.config.limits.max_order_notional).toBe(5000);
    expect(r.config.limits.base_currency).toBe("EUR");
    expect(r.config.broker.sim.start_date).toBe("2024-01-02");
  });

  it("resolves relative universe files against the home, then the bundled data folder", () => {
    const data = mkdtempSync(join(tmpdir(), "tw-bundled-"));
    mkdirSync(join(data, "universe"));
    writeFileSync(join(data, "universe", "extra.csv"), "symbol,currency\nzzz,cad\n");
    const r = loadConfig(home('[universe]\nfiles = ["universe/sim.csv", "universe/extra.csv"]\n'), data);
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
    expect(r.universe.map((i) => i.symbol)).toEqual(["AAA", "BBB", "ZZZ"]);
  });
});

describe("loadConfig fails closed", () => {
  it("unknown keys, at the top and nested", () => {
    expect(messages("colour = 1\n[limits]\nmax_positon_pct = 20\n[broker.sim]\nfoo = 1\n")).toEqual(
      expect.arrayContaining([
        "tradewarden.toml: colour: unknown key",
        "tradewarden.toml: limits.max_positon_pct: unknown key",
        "tradewarden.toml: broker.sim.foo: unknown key",
      ]),
    );
  });
  it("a missing required key", () => {
    expect(messages("[universe]\n")).toEqual(["tradewarden.toml: universe.files: missing required key"]);
  });
  it("percentages outside (0, 100]", () => {
    expect(messages("[limits]\nmax_position_pct = 150\n")).toEqual(["tradewarden.toml: limits.max_position_pct: must be in (0, 100], got 150"]);
    expect(messages("[limits]\nmax_drawdown_pct = 0\n")).toEqual(["tradewarden.toml: limits.max_drawdown_pct: must be in (0, 100], got 0"]);
    expect(messages("[limits]\nmax_commission_pct = -1\n")[0]).toContain("limits.max_commission_pct: must be in (0, 100]");
    expect(loadConfig(home("[limits]\nmax_position_pct = 100\n"), emptyData).ok).toBe(true);
  });
  it("a band outside (0, 20]", () => {
    expect(messages("[limits]\nmax_price_deviation_pct = 20.5\n")).toEqual(["tradewarden.toml: limits.max_price_deviation_pct: must be in (0, 20], got 20.5"]);
    expect(messages("[limits]\nmax_price_deviation_pct = 0\n")).toHaveLength(1);
    expect(loadConfig(home("[limits]\nmax_price_deviation_pct = 20\n"), emptyData).ok).toBe(true);
  });
  it("a negative or non-integer quota (0 is allowed)", () => {
    expect(messages("[limits]\nmax_orders_per_month = -1\n")).toEqual([
      "tradewarden.toml: limits.max_orders_per_month: must be an integer in [0, 1000000], got -1",
    ]);
    expect(messages("[limits]\nmax_orders_per_month = 2.5\n")).toEqual([
      "tradewarden.toml: limits.max_orders_per_month: must be an integer in [0, 1000000], got 2.5",
    ]);
    expect(loadConfig(home("[limits]\nmax_orders_per_month = 0\n"), emptyData).ok).toBe(true);
  });
  it("a bad time zone, a bad currency, a bad capital, a wrong type", () => {
    const m = messages('[account]\ntimezone = "Mars/Olympus"\nbase_currency = "usd"\ncapital = 0\n[model]\nmax_turns = "many"\n');
    expect(m).toEqual(
      expect.arrayContaining([
        'tradewarden.toml: account.timezone: must be an IANA time zone (e.g. America/New_York), got "Mars/Olympus"',
        'tradewarden.toml: account.base_currency: must be a 3-letter upper-case ISO 4217 currency code (e.g. USD), got "usd"',
        "tradewarden.toml: account.capital: must be in [1, 1000000000000], got 0",
        'tradewarden.toml: model.max_turns: must be an integer in [1, 1000], got "many"',
      ]),
    );
    expect(messages('[model]\nprovider = "gemini"\n')[0]).toBe(
      'tradewarden.toml: model.provider: must be one of "auto", "anthropic", "openai", "scripted", got "gemini"',
    );
    expect(messages('[model]\napi_key_env = "my key"\n')[0]).toBe(
      'tradewarden.toml: model.api_key_env: must be an upper-case environment variable name (e.g. OPENAI_API_KEY), got "my key"',
    );
    expect(messages("[model.price]\ninput_per_mtok = -1\n")).toEqual(
      expect.arrayContaining([
        "tradewarden.toml: model.price.input_per_mtok: must be a number >= 0, got -1",
        "tradewarden.toml: model.price.output_per_mtok: missing required key",
      ]),
    );
  });
  it("a TOML syntax error, with its line", () => {
    const e = errors("[limits]\nmax_position_pct = 20\nmax_drawdown_pct = = 3\n");
    expect(e).toHaveLength(1);
    expect(e[0]?.path).toMatch(/^line 3, column \d+$/);
    expect(e[0]?.message).toMatch(/^tradewarden\.toml: line 3, column \d+: TOML syntax error/);
  });
  it("a missing universe file", () => {
    expect(messages('[universe]\nfiles = ["nowhere.csv"]\n')[0]).toMatch(/^tradewarden\.toml: universe\.files\[0\]: file not found: nowhere\.csv/);
  });
  it("universe rows without symbol or currency, a bad currency, a missing column", () => {
    const m = messages(undefined, { "universe/sim.csv": "symbol,currency,exchange\n,USD,X\nAAA,,X\nBBB,US,X\n" });
    expect(m).toEqual([
      "universe/sim.csv: row 2.symbol: missing (every row needs a symbol)",
      "universe/sim.csv: row 3.currency: missing (every row needs a currency)",
      'universe/sim.csv: row 4.currency: must be a 3-letter ISO 4217 currency code, got "US"',
    ]);
    expect(messages(undefined, { "universe/sim.csv": "ticker,currency\nAAA,USD\n" })).toEqual([
      "universe/sim.csv: header: missing column(s) symbol (header must include symbol,currency)",
    ]);
  });
  it("one symbol on two exchanges, across files too", () => {
    const files = {
      "universe/sim.csv": "symbol,currency,exchange\nAAA,USD,NYSE\n",
      "universe/b.csv": "symbol,currency,exchange\naaa,USD,arca\n",
    };
    expect(messages('[universe]\nfiles = ["universe/sim.csv", "universe/b.csv"]\n', files)).toEqual([
      "universe/b.csv: row 2.exchange: symbol AAA is on two exchanges: NYSE (universe/sim.csv row 2) and ARCA",
    ]);
  });
});
