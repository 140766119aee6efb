/** Which days a simulation trades: exactly --from, or a clear error naming a day that works. */
import { describe, expect, it } from "vitest";
import { TradingCalendar } from "../../src/market/calendar.js";
import { MarketData } from "../../src/market/data.js";
import { MIN_HISTORY_DAYS, planDays } from "../../src/simulation/plan.js";

const calendar = MarketData.load({}).calendar;

describe("simulation days", () => {
  it("start exactly at --from (2003-01-02, years before the simulated broker's old default start) and end on the last trading day ≤ --to", () => {
    const days = planDays(calendar, "2003-01-02", "2003-01-12");
    expect(days).toEqual(["2003-01-02", "2003-01-03", "2003-01-06", "2003-01-07", "2003-01-08", "2003-01-09", "2003-01-10"]);
  });

  it("refuses a day that is not a trading day, one without enough history, and a range outside the data", () => {
    expect(() => planDays(calendar, "2003-01-04")).toThrow(/--from 2003-01-04 is not a trading day in the market data \(the next trading day is 2003-01-06\)/);
    expect(() => planDays(calendar, "2000-01-04")).toThrow(
      new RegExp(`has 1 trading day\\(s\\) of history before it; a simulation needs ${MIN_HISTORY_DAYS} \\(the first such day is 2000-02-01\\)`),
    );
    expect(() => planDays(calendar, "1999-06-01")).toThrow(/the data starts on 2000-01-03/);
    expect(() => planDays(calendar, "2007-01-03", "2006-12-01")).toThrow(/before --from/);
    expect(() => planDays(calendar, "2007-01-03", "2030-01-01")).toThrow(/after the market data's last day 2020-04-17/);
    expect(() => planDays(calendar, "2007-1-3")).toThrow(/not a date/);
    expect(() => planDays(new TradingCalendar([]), "2007-01-03")).toThrow(/no market data/);
  });

  it("without --to, runs to the data's last day", () => {
    expect(planDays(calendar, "2020-04-01").at(-1)).toBe("2020-04-17");
  });
});
