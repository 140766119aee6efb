import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openJournal } from "../../src/journal/journal.js";
import { buy, freshJournal, startRun, tmpHome } from "./helpers.js";

const V1 = {
  schema_version: 1,
  base_currency: "USD",
  created_at: "2023-06-01T00:00:00.000Z",
  ledger: [
    { kind: "deposit", amount: 10000, at: "2023-06-01T00:00:00.000Z" },
    { kind: "buy", amount: -1000.1, at: "2023-06-02T14:30:00.000Z", symbol: "AAA" },
    { kind: "commission", amount: -1, at: "2023-06-02T14:30:00.000Z", symbol: "AAA" },
    { kind: "deposit", amount: 500.25, at: "2023-06-03T00:00:00.000Z", note: "top up" },
  ],
  runs: [{ run_id: "old-1", mode: "paper", trading_day: "2023-06-02", started_at: "2023-06-02T14:00:00.000Z", finished_at: "2023-06-02T14:40:00.000Z", status: "completed", outcome: "executed", exit_code: 0, first_value: 10000 }],
  orders: [{ client_order_id: "old-1-0", run_id: "old-1", symbol: "AAA", side: "BUY", quantity: 10, limit_price: 100.01, status: "filled", broker_order_id: "b1", created_at: "2023-06-02T14:30:00.000Z", filled_quantity: 10 }],
  fills: [{ fill_id: "f1", client_order_id: "old-1-0", symbol: "AAA", side: "BUY", quantity: 10, price: 100.01, commission: 1, at: "2023-06-02T14:30:00.000Z" }],
  peak: 10000,
  last_value: 10000,
  trading_state: "ACTIVE",
  notes: [{ id: "n-1", kind: "lesson", text: "be patient", run_id: "old-1", created_at: "2023-06-02T14:40:00.000Z" }],
};

describe("storage", () => {
  it("persists across reopen: the head is small, history is in the log", async () => {
    const j = await freshJournal();
    await startRun(j, "r1");
    await buy(j, "r1", "c1", "AAA", 2, 50.5, 1);
    const again = await openJournal(j.home, { timezone: "UTC" });
    expect(again.cash()).toBe(j.cash());
    expect(again.holdings()).toEqual(j.holdings());
    expect(again.run("r1")).toEqual(j.run("r1"));
    const head = JSON.parse(readFileSync(join(j.home, "journal.json"), "utf8"));
    expect(head).toMatchObject({ format: "tradewarden-journal", schema_version: 2, checkpoint: { cash_minor: 1_000_000 - 10_100 - 100 } });
    expect(again.verify()).toEqual([]);
  });

  it("migrates a schema-1 journal on open, keeping a backup", async () => {
    const home = tmpHome();
    const text = JSON.stringify(V1, null, 2);
    writeFileSync(join(home, "journal.json"), text);
    const ro = await openJournal(home, { timezone: "UTC", readOnly: true });
    expect(ro.cash()).toBe(9499.15);
    expect(readFileSync(join(home, "journal.json"), "utf8")).toBe(text); // read-only: nothing written
    const j = await openJournal(home, { timezone: "UTC" });
    expect(readFileSync(join(home, "journal.json.v1.bak"), "utf8")).toBe(text);
    expect(j.cash()).toBe(9499.15);
    expect(j.holdings().AAA).toMatchObject({ quantity: 10, avg_cost: 100.11 });
    expect(j.peak()).toBe(10_000);
    expect(j.run("old-1")).toMatchObject({ status: "completed", first_value_minor: 1_000_000 });
    expect(j.order("old-1-0")).toMatchObject({ status: "filled", counted_at: "2023-06-02T14:30:00.000Z" });
    expect(j.recall().notes[0]).toMatchObject({ id: "n-1", text: "be patient" });
    expect(j.verify()).toEqual([]);
    // it is now a schema-2 journal and keeps working
    await startRun(j, "new-1");
    expect((await j.remember({ kind: "plan", text: "x", run_id: "new-1", at: new Date() })).id).toBe("n-2");
    const again = await openJournal(home, { timezone: "UTC" });
    expect(JSON.parse(readFileSync(join(home, "journal.json"), "utf8")).schema_version).toBe(2);
    expect(again.runs().map((r) => r.run_id)).toEqual(["old-1", "new-1"]);
  });

  it("refuses a journal that does not parse and leaves it byte-identical", async () => {
    const home = tmpHome();
    const bytes = Buffer.from('{"format":"tradewarden-journal","schema_version":2,"log":{"file":"journal.log.jsonl","committed_by', "utf8");
    writeFileSync(join(home, "journal.json"), bytes);
    await expect(openJournal(home, { timezone: "UTC" })).rejects.toMatchObject({ code: "journal_corrupt", message: expect.stringMatching(/left untouched/) });
    expect(readFileSync(join(home, "journal.json")).equals(bytes)).toBe(true);
    expect(existsSync(join(home, "journal.log.jsonl"))).toBe(false);
  });

  it("refuses a corrupt committed log line, and a head without its log", async () => {
    const j = await freshJournal();
    await j.deposit({ amount: 1, at: new Date() });
    const logPath = join(j.home, "journal.log.jsonl");
    const log = readFileSync(logPath, "utf8");
    writeFileSync(logPath, log.replace('"deposit"', '"dep0sit"').replace("{", "{{"));
    const headBefore = readFileSync(join(j.home, "journal.json"));
    await expect(openJournal(j.home, { timezone: "UTC" })).rejects.toMatchObject({ code: "journal_corrupt" });
    expect(readFileSync(join(j.home, "journal.json")).equals(headBefore)).toBe(true);
    writeFileSync(logPath, "");
    await expect(openJournal(j.home, { timezone: "UTC" })).rejects.toMatchObject({ code: "journal_corrupt" });
  });

  it("refuses a newer schema version with a clear message", async () => {
    const home = tmpHome();
    const text = JSON.stringify({ format: "tradewarden-journal", schema_version: 99 });
    writeFileSync(join(home, "journal.json"), text);
    await expect(openJournal(home, { timezone: "UTC" })).rejects.toMatchObject({ code: "journal_too_new", exitCode: 2, message: expect.stringMatching(/schema version 99.*Upgrade/) });
    expect(readFileSync(join(home, "journal.json"), "utf8")).toBe(text);
  });

  it("ignores an uncommitted (torn) tail and cuts it off on the next write", async () => {
    const j = await freshJournal();
    await j.deposit({ amount: 1, at: new Date() });
    const logPath = join(j.home, "journal.log.jsonl");
    appendFileSync(logPath, '{"seq":3,"t":"deposit","amount_minor":99999,"at":"2024-');
    const j2 = await openJournal(j.home, { timezone: "UTC", fsync: false });
    expect(j2.cash()).toBe(10_001);
    await j2.deposit({ amount: 2, at: new Date() });
    const j3 = await openJournal(j.home, { timezone: "UTC" });
    expect(j3.cash()).toBe(10_003);
    expect(readFileSync(logPath, "utf8").split("\n").filter(Boolean)).toHaveLength(3);
    expect(j3.verify()).toEqual([]);
  });

  it("a simulation's journal (head on flush) keeps its log open between commits: a torn tail is still cut, every commit is on disk, and it reopens after close()", async () => {
    const home = tmpHome();
    const j = await openJournal(home, { timezone: "UTC", fsync: false, headOnFlush: true });
    await j.init({ capital: 10_000, currency: "USD", at: "2024-01-02T00:00:00Z" });
    await j.deposit({ amount: 1, at: "2024-01-03T00:00:00Z" });
    const logPath = join(home, "journal.log.jsonl");
    const lines = () => readFileSync(logPath, "utf8").split("\n").filter(Boolean);
    expect(lines()).toHaveLength(2); // on disk at once, before any flush
    appendFileSync(logPath, '{"seq":3,"t":"deposit","amount_minor":99999,"at":"2024-'); // a torn write behind the open descriptor
    await j.deposit({ amount: 2, at: "2024-01-04T00:00:00Z" });
    expect(lines()).toHaveLength(3);
    expect(lines()[2]).toContain('"seq":3');
    await j.close();
    await j.deposit({ amount: 4, at: "2024-01-05T00:00:00Z" }); // after close: reopened
    await j.flush();
    await j.close();
    const again = await openJournal(home, { timezone: "UTC" });
    expect(again.cash()).toBe(10_007);
    expect(again.verify()).toEqual([]);
  });

  it("refuses an invalid time zone", async () => {
    await expect(openJournal(tmpHome(), { timezone: "Mars/Olympus" })).rejects.toMatchObject({ code: "invalid_timezone" });
  });
});
