import { describe, expect, it } from "vitest";
import { fromMinor, minorDigits, productToMinor, toMinor } from "../../src/core/money.js";

describe("money", () => {
  it("knows minor digits", () => {
    expect(minorDigits("USD")).toBe(2);
    expect(minorDigits("jpy")).toBe(0);
    expect(minorDigits("KRW")).toBe(0);
    expect(minorDigits("KWD")).toBe(3);
    expect(() => minorDigits("US")).toThrow(/ISO 4217/);
  });
  it("converts exactly, half-even", () => {
    expect(toMinor(0.1 + 0.2, "USD")).toBe(30);
    expect(toMinor("1.005", "USD")).toBe(100);
    expect(toMinor("1.015", "USD")).toBe(102);
    expect(toMinor(1234.5, "JPY")).toBe(1234);
    expect(toMinor(1235.5, "JPY")).toBe(1236);
    expect(fromMinor(12345, "USD")).toBe(123.45);
    expect(fromMinor(12345, "JPY")).toBe(12345);
    expect(() => toMinor(Number.NaN, "USD")).toThrow(/finite/);
  });
  it("computes products exactly before rounding", () => {
    // 3 × 33.335 = 100.005 → half-even → 100.00 (floats would give 100.00499999…)
    expect(productToMinor(3, 33.335, 1, "USD")).toBe(10000);
    expect(productToMinor(7, 0.1, 1, "USD")).toBe(70);
    expect(productToMinor(10, 150.25, 0.92, "EUR")).toBe(138230);
    expect(productToMinor(100, 1523.5, 1, "JPY")).toBe(152350);
  });
});
