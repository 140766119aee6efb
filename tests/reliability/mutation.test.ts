import { describe, expect, it } from "vitest";
import { recordedCount } from "./record.js";
import { CLASSES, type MutationClass, type MutationResult, openEditedSimBook, runMutations, TARGETS } from "./mutation.js";

/** Refused / loaded counts per mutation class. */
function countByClass(results: MutationResult[]): Map<MutationClass, { refused: number; loaded: number }> {
  const by = new Map<MutationClass, { refused: number; loaded: number }>();
  for (const r of results) {
    const c = by.get(r.cls) ?? { refused: 0, loaded: 0 };
    c[r.outcome]++;
    by.set(r.cls, c);
  }
  return by;
}

describe("mutated examples and state files (the record's mutation row)", () => {
  it("every must-refuse mutation is refused naming the file and the place; may-be-harmless ones load or are refused the same way; nothing is written", async () => {
    const total = recordedCount("mutation", "test");
    const results = await runMutations(Math.ceil(total / TARGETS.length));
    expect(results.length).toBeGreaterThanOrEqual(total);
    const by = countByClass(results);
    const report = [...by]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([cls, c]) => `${cls} (${CLASSES[cls]}): ${c.refused} refused, ${c.loaded} harmless`)
      .join("\n");
    console.log(`mutation classes, ${results.length} mutations:\n${report}`);
    const accepted = results.filter((r) => CLASSES[r.cls] === "must-refuse" && r.outcome === "loaded").map((r) => `${r.target}: ${r.cls}: ${r.mutation}`);
    expect(accepted, "must-refuse mutations that loaded").toEqual([]);
    // the run covers both kinds: must-refuse classes were tried (and refused), and some harmless ones loaded
    expect([...by].filter(([cls]) => CLASSES[cls] === "must-refuse").reduce((n, [, c]) => n + c.refused, 0)).toBeGreaterThan(0);
    expect([...by].filter(([cls]) => CLASSES[cls] === "may-be-harmless").length).toBeGreaterThan(0);
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
});
