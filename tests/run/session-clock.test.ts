import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { twIn } from "../e2e/helpers.js";
import { DateTime } from "luxon";
import { noonIn, simulatedSessionClock, wallClock } from "../../src/run/session-clock.js";

test("the simulated session clock is the trading day's noon in the account's zone, advancing with the wall clock", () => {
  let wall = 1_000_000;
  const clock = simulatedSessionClock("Pacific/Auckland", () => wall)("2020-03-31");
  expect(clock().toISOString()).toBe("2020-03-30T23:00:00.000Z"); // noon NZDT (UTC+13)
  wall += 90_000;
  expect(clock().toISOString()).toBe("2020-03-30T23:01:30.000Z");
  const now = Date.now();
  expect(Math.abs(wallClock("2020-03-31")().getTime() - now)).toBeLessThan(5_000);
});

test("simulating across a month boundary: the monthly quota counts the trading days' months, not the wall clock's", async () => {
  const home = mkdtempSync(join(tmpdir(), "tw-quota-"));
  try {
    writeFileSync(join(home, "tradewarden.toml"), "[limits]\nmax_orders_per_month = 1\n[broker.sim]\nstart_date = 2007-01-26\n");
    // In-process (twIn drops ANTHROPIC_API_KEY and TRADEWARDEN_HOME from the environment, as the spawned child's did).
    const r = await twIn(home, ["simulate", "--from", "2007-01-26", "--to", "2007-02-02", "--json"]);
    expect(r.exitCode).toBe(0);
    const runs = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { trading_day?: string; outcome?: string; orders?: number })
      .filter((x) => x.trading_day !== undefined);
    const byMonth = new Map<string, { orders: number; exhausted: number }>();
    for (const x of runs) {
      const m = String(x.trading_day).slice(0, 7);
      const agg = byMonth.get(m) ?? { orders: 0, exhausted: 0 };
      agg.orders += x.orders ?? 0;
      if (x.outcome === "quota_exhausted") agg.exhausted++;
      byMonth.set(m, agg);
    }
    // Each month: exactly one order sent (the quota), then the model is no longer called that month.
    // Trading days on each side of the boundary (four in January, two in February) prove it (the wall clock's month never changes).
    for (const m of ["2007-01", "2007-02"]) {
      expect(byMonth.get(m)?.orders, m).toBe(1);
      expect(byMonth.get(m)?.exhausted ?? 0, m).toBeGreaterThan(0);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}, 60_000);

test("noon in a zone is luxon's noon there, every day of two years in twelve zones (daylight-saving days included)", () => {
  const zones = [
    "America/New_York",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "America/St_Johns",
    "Europe/London",
    "Europe/Berlin",
    "Asia/Kolkata",
    "Asia/Kathmandu",
    "Asia/Tokyo",
    "Australia/Lord_Howe",
    "Pacific/Auckland",
    "Pacific/Chatham",
  ];
  for (const zone of zones) {
    for (let d = Date.UTC(2019, 0, 1); d < Date.UTC(2021, 0, 1); d += 86_400_000) {
      const day = new Date(d).toISOString().slice(0, 10);
      expect(noonIn(day, zone), `${day} ${zone}`).toBe(DateTime.fromISO(day, { zone }).set({ hour: 12 }).toMillis());
    }
  }
  expect(noonIn("2020-02-30", "Europe/London")).toBeNaN();
  expect(noonIn("2020-02-01", "Not/AZone")).toBeNaN();
  expect(() => simulatedSessionClock("Not/AZone")("2020-02-03")).toThrow("not a trading day");
});

test("noon read from the formatter's plain form is luxon's noon, in every zone, across years and changes of offset (and before year 1000, read from its parts)", () => {
  const luxonNoon = (day: string, zone: string) => DateTime.fromISO(day, { zone }).set({ hour: 12 }).toMillis();
  const zones = ["America/New_York", "Europe/London", "Australia/Lord_Howe", "Pacific/Chatham", "Asia/Kolkata", "America/St_Johns", "UTC", "Pacific/Apia"];
  for (const zone of zones) {
    for (let t = Date.UTC(1890, 0, 1); t < Date.UTC(2040, 0, 1); t += 37 * 86_400_000) {
      const day = new Date(t).toISOString().slice(0, 10);
      expect(noonIn(day, zone), `${day} ${zone}`).toBe(luxonNoon(day, zone));
    }
    for (const day of ["0900-06-15", "0999-12-31"]) expect(noonIn(day, zone), `${day} ${zone}`).toBe(luxonNoon(day, zone));
  }
});
