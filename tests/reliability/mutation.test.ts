import { describe, expect, it } from "vitest";
import { recordedCount } from "./record.js";
import { acceptedMustRefuse, CLASSES, classReport, openEditedSimBook, runMutations, TARGETS } from "./mutation.js";

describe("mutated examples and state files (the record's mutation row)", () => {
  it("every must-refuse mutation is refused naming the file and the place; may-be-harmless ones load or are refused the same way; nothing is written", async () => {
    const total = recordedCount("mutation", "test");
    const results = await runMutations(Math.ceil(total / TARGETS.length));
    expect(results.length).toBeGreaterThanOrEqual(total);
    console.log(`mutation classes, ${results.length} mutations:\n${classReport(results).join("\n")}`);
    expect(acceptedMustRefuse(results), "must-refuse mutations that loaded").toEqual([]);
    // the run covers both kinds: must-refuse mutations were tried (and refused), and harmless ones too
    expect(results.filter((r) => CLASSES[r.cls] === "must-refuse").length).toBeGreaterThan(results.length / 4);
    expect(results.some((r) => CLASSES[r.cls] === "may-be-harmless")).toBe(true);
  }, 120_000);

  it("the simulated broker's book: a negative starting cash and a fill's commission currency of the wrong type are refused, naming the file and the place", async () => {
    const negative = await openEditedSimBook((doc) => {
      doc.starting_cash = -1;
    });
    expect(negative).toMatch(/sim-broker\.json/);
    expect(negative).toMatch(/starting_cash/);
    const currency = await openEditedSimBook((doc) => {
      (doc.fills as Record<string, unknown>[])[0]!.commission_currency = [[]];
    });
    expect(currency).toMatch(/sim-broker\.json/);
    expect(currency).toMatch(/fills\/0\/commission_currency|fills\[0\]\.commission_currency|commission_currency/);
    // the book as written still loads
    expect(await openEditedSimBook(() => {})).toBeUndefined();
  });

  it("a must-refuse mutation that loads is a failure; a may-be-harmless one is not", () => {
    expect(acceptedMustRefuse([{ target: "sim-broker", mutation: "starting_cash set to -1", cls: "negative", outcome: "loaded" }])).toEqual([
      "sim-broker: negative: starting_cash set to -1",
    ]);
    expect(acceptedMustRefuse([{ target: "config", mutation: "line 3: duplicate", cls: "blank-line-duplicated", outcome: "loaded" }])).toEqual([]);
    expect(acceptedMustRefuse([{ target: "config", mutation: "line 9 value set to nan", cls: "non-finite", outcome: "refused" }])).toEqual([]);
  });
});
