/** The Money type and the one rounding helper (core/money.ts). */
import { Value } from "@sinclair/typebox/value";
import { describe, expect, it } from "vitest";
import { addMoney, compareMoney, majorOf, money, MoneySchema, moneyOf, roundMajor, roundMinor, subMoney } from "../../src/core/money.js";

describe("Money", () => {
  it("rounds half-even to each currency's minor unit (USD 2, JPY 0, KWD 3)", () => {
    expect(roundMinor("0.125", "USD").toNumber()).toBe(12);
    expect(roundMinor("0.135", "USD").toNumber()).toBe(14);
    expect(roundMinor("12.5", "JPY").toNumber()).toBe(12);
    expect(roundMinor("13.5", "JPY").toNumber()).toBe(14);
    expect(roundMinor("1.0005", "KWD").toNumber()).toBe(1000);
    expect(roundMajor(0.0015, "KWD")).toBe(0.002);
  });

  it("adds, subtracts and compares in whole minor units, and refuses to mix currencies", () => {
    const a = moneyOf(0.1, "USD");
    const b = moneyOf(0.2, "USD");
    expect(addMoney(a, b)).toEqual({ minor: 30, currency: "USD" });
    expect(majorOf(addMoney(a, b))).toBe(0.3);
    expect(subMoney(a, b).minor).toBe(-10);
    expect(compareMoney(a, b)).toBe(-1);
    expect(Value.Check(MoneySchema, money(5, "jpy"))).toBe(true);
    expect(() => addMoney(a, money(1, "JPY"))).toThrow(/USD with JPY/);
    expect(() => money(0.5, "USD")).toThrow(/whole number/);
  });
});
