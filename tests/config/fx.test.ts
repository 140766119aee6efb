import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { fxToBaseOf } from "../../src/config/fx.js";
import { loadConfig } from "../../src/config/load.js";
import { MarketData } from "../../src/market/data.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function home(toml: string): string {
  const dir = mkdtempSync(join(tmpdir(), "tw-fx-"));
  dirs.push(dir);
  mkdirSync(join(dir, "universe"));
  writeFileSync(join(dir, "universe", "mixed.csv"), "symbol,currency,exchange\nAAA,USD,SIM\nEUX,EUR,XETRA\n");
  writeFileSync(join(dir, "tradewarden.toml"), `[universe]\nfiles = ["universe/mixed.csv"]\n${toml}`);
  return dir;
}

test("[fx] rates load and price a foreign-currency instrument in the base currency; without a rate it has no price", () => {
  const r = loadConfig(home("[fx]\nEUR = 1.1\n"));
  expect(r.ok).toBe(true);
  if (!r.ok) return;
  expect(r.config.fx).toEqual({ EUR: 1.1 });
  const fx = fxToBaseOf(r.config);
  expect(fx("USD")).toBe(1);
  expect(fx("eur")).toBe(1.1);
  expect(fx("GBP")).toBeUndefined();
  const bars = [
    { date: "2024-01-02", open: 10, high: 11, low: 9, close: 10, volume: 100 },
    { date: "2024-01-03", open: 10, high: 11, low: 9, close: 10.5, volume: 100 },
  ];
  const market = MarketData.fromBars({ AAA: bars, EUX: bars });
  const priced = market.asOf("2024-01-04", { universe: r.universe, baseCurrency: "USD", fxToBase: fx });
  expect(priced.referencePrice("EUX")).toMatchObject({ price: 10.5, currency: "EUR", fx_to_base: 1.1 });
  const unpriced = market.asOf("2024-01-04", { universe: r.universe, baseCurrency: "USD", fxToBase: fxToBaseOf({ ...r.config, fx: {} }) });
  expect(unpriced.referencePrice("EUX")).toBeUndefined();
  expect(unpriced.referencePrice("AAA")?.fx_to_base).toBe(1);
});

test("[fx] refuses a key that is not a currency code and a rate that is not positive, naming the key", () => {
  const r = loadConfig(home("[fx]\neuro = 1.1\nGBP = 0\n"));
  expect(r.ok).toBe(false);
  if (r.ok) return;
  const text = r.errors.map((e) => e.message).join("\n");
  expect(text).toMatch(/fx/);
  expect(text).toMatch(/euro/);
  expect(text).toMatch(/GBP/);
});
