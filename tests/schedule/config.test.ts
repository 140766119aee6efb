/**
 * `[schedule]` is validated like every key: the defaults a user would choose (one morning slot in
 * New York, 3 attempts, supervised), each key's own rule, and the rules over several keys (a window
 * that ends after it starts and is long enough for a tick, no overlap, a name used once).
 */
import { describe, expect, it } from "vitest";
import { defaultConfig, parseConfigText, validateConfigDocument } from "../../src/config/load.js";
import { slotAt, windowsAfter } from "../../src/schedule/slots.js";

function messages(toml: string): string[] {
  const parsed = parseConfigText(toml, "tradewarden.toml");
  if (!parsed.ok) return parsed.errors.map((e) => e.message);
  const r = validateConfigDocument(parsed.doc, "tradewarden.toml", "x");
  return r.ok ? [] : r.errors.map((e) => e.message);
}
const slot = (name: string, start: string, end: string) => `[[schedule.slots]]\nname = "${name}"\nstart = "${start}"\nend = "${end}"\n`;

describe("[schedule]", () => {
  it("defaults: one morning slot in New York, 3 attempts, supervised", () => {
    expect(defaultConfig().schedule).toEqual({
      timezone: "America/New_York",
      slots: [{ name: "morning", start: "10:30", end: "11:30" }],
      attempts: 3,
      mode: "supervised",
    });
  });

  it("refuses each bad key with the key path and the rule", () => {
    expect(messages('[schedule]\nmode = "auto"\n')).toEqual([expect.stringContaining("tradewarden.toml: schedule.mode:")]);
    expect(messages("[schedule]\nattempts = 0\n")).toEqual([expect.stringContaining("schedule.attempts:")]);
    expect(messages('[schedule]\ntimezone = "Mars/Olympus"\n')).toEqual([expect.stringContaining("schedule.timezone:")]);
    expect(messages(`[schedule]\n${slot("morning", "25:00", "26:00")}`).join("\n")).toContain("schedule.slots[0].start");
    expect(messages(`[schedule]\n${slot("morning", "10:30", "11:30")}when = "x"\n`).join("\n")).toContain("schedule.slots[0]");
  });

  it("refuses windows that end before they start, are shorter than a tick, overlap, or share a name", () => {
    expect(messages(slot("a", "11:30", "10:30"))).toEqual(["tradewarden.toml: schedule.slots[0].end: must be after start (11:30), got 10:30"]);
    expect(messages(slot("a", "10:30", "10:40"))).toEqual([
      "tradewarden.toml: schedule.slots[0].end: the window 10:30–10:40 is shorter than the tick interval (15 min): a tick could miss it",
    ]);
    expect(messages(slot("a", "10:30", "11:30") + slot("b", "11:00", "12:00"))).toEqual([
      "tradewarden.toml: schedule.slots[1]: 11:00–12:00 overlaps slots[0] (10:30–11:30)",
    ]);
    expect(messages(slot("a", "10:30", "11:30") + slot("a", "15:00", "15:40"))).toEqual([
      'tradewarden.toml: schedule.slots[1].name: "a" is already the name of slots[0]',
    ]);
  });

  it("a slot is due inside its window on a market weekday, in the market's time zone", () => {
    const cfg = defaultConfig().schedule;
    expect(slotAt(new Date("2026-12-02T15:30:00Z"), cfg)?.key).toBe("2026-12-02 morning"); // 10:30 EST, Wednesday
    expect(slotAt(new Date("2026-12-02T16:30:00Z"), cfg)).toBeNull(); // 11:30: the end is exclusive
    expect(slotAt(new Date("2026-12-05T15:30:00Z"), cfg)).toBeNull(); // Saturday
    expect(slotAt(new Date("2026-07-01T14:45:00Z"), cfg)?.day).toBe("2026-07-01"); // 10:45 EDT
    const [next] = windowsAfter(new Date("2026-12-04T17:00:00Z"), cfg, 1); // Friday afternoon: Monday
    expect(next?.key).toBe("2026-12-07 morning");
  });
});
