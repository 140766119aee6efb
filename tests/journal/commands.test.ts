import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cmdDeposit } from "../../src/commands/deposit.js";
import { cmdInit } from "../../src/commands/init.js";
import { cmdJournalJson, cmdJournalVerify } from "../../src/commands/journal.js";
import { openJournal } from "../../src/journal/journal.js";
import { buy, captureIO, startRun, tmpHome } from "./helpers.js";

describe("journal commands", () => {
  it("init once, deposit, json, verify", async () => {
    const home = tmpHome();
    const io = captureIO();
    expect(await cmdInit({ home, capital: 5000, currency: "usd" }, io)).toBe(0);
    expect(io.out.join("")).toMatch(/5000 USD/);
    const io2 = captureIO();
    expect(await cmdInit({ home, capital: 5000, currency: "USD" }, io2)).toBe(2);
    expect(io2.err.join("")).toMatch(/already initialised/);
    expect(await cmdDeposit({ home, amount: "250.75" }, captureIO())).toBe(0);
    expect(await cmdDeposit({ home, amount: -1 }, captureIO())).toBe(2);

    const j = await openJournal(home, { timezone: "UTC" });
    await startRun(j, "r1", "2024-01-02T14:00:00Z");
    await buy(j, "r1", "c1", "AAA", 2, 10, 1);
    await startRun(j, "r2", "2024-02-02T14:00:00Z");

    const io3 = captureIO();
    expect(await cmdJournalJson({ home, from: "2024-01-01", to: "2024-01-31" }, io3)).toBe(0);
    const out = JSON.parse(io3.out.join(""));
    expect(out.runs.map((r: { run_id: string }) => r.run_id)).toEqual(["r1"]);
    expect(out.orders).toHaveLength(1);
    expect(out.fills[0]).toMatchObject({ fill_id: "f-c1", gross: 20, commission: 1 });
    expect(out.state).toMatchObject({ cash: 5229.75, trading_state: "ACTIVE", holdings: { AAA: { quantity: 2 } } });
    expect(await cmdJournalJson({ home, run: "nope" }, captureIO())).toBe(2);

    const io4 = captureIO();
    expect(await cmdJournalVerify({ home }, io4)).toBe(0);
    expect(io4.out.join("")).toMatch(/journal ok/);

    // tamper with the committed checkpoint: verify reports it
    const headPath = join(home, "journal.json");
    const head = JSON.parse(readFileSync(headPath, "utf8"));
    head.checkpoint.cash_minor += 1;
    writeFileSync(headPath, JSON.stringify(head));
    const io5 = captureIO();
    expect(await cmdJournalVerify({ home }, io5)).toBe(1);
    expect(io5.out.join("")).toMatch(/checkpoint_cash_mismatch/);
  });

  it("a corrupt journal: commands fail and leave it alone", async () => {
    const home = tmpHome();
    writeFileSync(join(home, "journal.json"), "{oops");
    const io = captureIO();
    expect(await cmdDeposit({ home, amount: 5 }, io)).toBe(1);
    expect(io.err.join("")).toMatch(/cannot be read/);
    expect(readFileSync(join(home, "journal.json"), "utf8")).toBe("{oops");
  });
});
