import { describe, expect, it } from "vitest";
import { evidenceAges, evidenceDay, tradingDaysBetween } from "../../src/core/evidence-age.js";
import { TradingCalendar } from "../../src/market/calendar.js";

// Two weeks of 2007 sessions, with the market closed on Monday 2007-01-15 (Martin Luther King Jr. Day).
const cal = new TradingCalendar(["2007-01-08", "2007-01-09", "2007-01-10", "2007-01-11", "2007-01-12", "2007-01-16", "2007-01-17", "2007-01-18", "2007-01-19"]);

describe("tradingDaysBetween: sessions after the evidence day up to and including the run's day", () => {
  it("is 0 on the day itself and 1 for the previous session", () => {
    expect(tradingDaysBetween(cal, "2007-01-10", "2007-01-10")).toBe(0);
    expect(tradingDaysBetween(cal, "2007-01-09", "2007-01-10")).toBe(1);
  });
  it("skips a weekend and a holiday: Friday's news on Tuesday after a closed Monday is 1 day old", () => {
    expect(tradingDaysBetween(cal, "2007-01-12", "2007-01-16")).toBe(1);
    expect(tradingDaysBetween(cal, "2007-01-13", "2007-01-16")).toBe(1); // a Saturday
    expect(tradingDaysBetween(cal, "2007-01-15", "2007-01-16")).toBe(1); // the holiday
    expect(tradingDaysBetween(cal, "2007-01-08", "2007-01-19")).toBe(8);
  });
  it("counts weekdays outside the calendar's range (news older than the data, a day past the last bar)", () => {
    // Mon 2007-01-01 .. Fri 2007-01-05 are weekdays before the data, then 5 + 4 sessions to the 19th.
    expect(tradingDaysBetween(cal, "2006-12-29", "2007-01-19")).toBe(5 + 9);
    // Mon 22 and Tue 23 after the last bar.
    expect(tradingDaysBetween(cal, "2007-01-18", "2007-01-23")).toBe(1 + 2);
    expect(tradingDaysBetween(cal, "2000-05-29", "2007-01-19")).toBeGreaterThan(1700);
  });
  it("is 0 for a date on or after the run's day", () => {
    expect(tradingDaysBetween(cal, "2007-01-19", "2007-01-17")).toBe(0);
  });
});

describe("evidenceAges", () => {
  const items = {
    "news:old": { evidence_id: "news:old", published: "2006-11-01", title: "t" },
    "news:new": { evidence_id: "news:new", published: "2007-01-12" },
    "portfolio:r1": { evidence_id: "portfolio:r1", as_of: "2007-01-17T00:00:00Z" },
    "code:x": { evidence_id: "code:x" },
  };
  it("dates news by published and prices by as_of, marks those older than the limit stale, skips undated and unknown ids", () => {
    // news:old: weekdays Nov 2–30 (21), December (21), Jan 1–5 (5), then 8 sessions to the 18th.
    const ages = evidenceAges(["news:old", "news:new", "portfolio:r1", "code:x", "missing", "news:old"], items, cal, "2007-01-18", 5);
    expect(ages).toEqual([
      { evidence_id: "news:old", day: "2006-11-01", age_trading_days: 21 + 21 + 5 + 8, stale: true },
      { evidence_id: "news:new", day: "2007-01-12", age_trading_days: 3, stale: false },
      { evidence_id: "portfolio:r1", day: "2007-01-17", age_trading_days: 1, stale: false },
    ]);
    expect(evidenceDay({ published: null, as_of: "2007-01-02" })).toBe("2007-01-02");
  });
});
