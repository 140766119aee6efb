/**
 * Which instruments a text names, and the matcher kept per universe: the one a universe got before
 * answers as a fresh one does, and a universe changed in place gets a matcher for what it now holds.
 */
import { describe, expect, it } from "vitest";
import { mentionsOf } from "../../src/research/mentions.js";

const texts = [
  "AAPL beats estimates",
  "Apple Inc. shares fell",
  "MSFT and Microsoft",
  "aapl in lower case",
  "nothing here",
  "SPYDER, not SPY",
  "the S&P 500 index",
];

describe("mentionsOf", () => {
  it("names instruments by symbol (whole upper-case word) or by the name's core (any case)", () => {
    const match = mentionsOf([
      { symbol: "AAPL", name: "Apple Inc. (NASDAQ)" },
      { symbol: "MSFT", name: "Microsoft" },
      { symbol: "SPY", name: "S&P 500 index" },
    ]);
    expect(texts.map(match)).toEqual([["AAPL"], ["AAPL"], ["MSFT"], [], [], ["SPY"], ["SPY"]]);
  });

  it("answers for a universe it has seen as a fresh matcher does", () => {
    const universe = [
      { symbol: "AAPL", name: "Apple Inc." },
      { symbol: "MSFT", name: "Microsoft" },
    ];
    const first = mentionsOf(universe);
    const again = mentionsOf(universe);
    const fresh = mentionsOf(universe.map((i) => ({ ...i })));
    expect(texts.map(again)).toEqual(texts.map(fresh));
    expect(texts.map(first)).toEqual(texts.map(fresh));
  });

  it("follows a universe changed in place", () => {
    const universe = [{ symbol: "AAPL", name: "Apple Inc." }];
    expect(mentionsOf(universe)("MSFT up")).toEqual([]);
    universe.push({ symbol: "MSFT", name: "Microsoft" });
    expect(mentionsOf(universe)("MSFT up")).toEqual(["MSFT"]);
    (universe[0] as { name: string }).name = "Alphabet";
    expect(mentionsOf(universe)("Alphabet and Apple")).toEqual(["AAPL"]);
    expect(mentionsOf(universe)("Apple alone")).toEqual([]);
  });
});
