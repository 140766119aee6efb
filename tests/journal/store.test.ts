import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openJournal } from "../../src/journal/journal.js";
import { buy, finish, freshJournal, startRun, tmpHome } from "./helpers.js";

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
  runs: [
    {
      run_id: "old-1",
      mode: "paper",
      trading_day: "2023-06-02",
      started_at: "2023-06-02T14:00:00.000Z",
      finished_at: "2023-06-02T14:40:00.000Z",
      status: "completed",
      outcome: "executed",
      exit_code: 0,
      first_value: 10000,
    },
  ],
  orders: [
    {
      client_order_id: "old-1-0",
      run_id: "old-1",
      symbol: "AAA",
      side: "BUY",
      quantity: 10,
      limit_price: 100.01,
      status: "filled",
      broker_order_id: "b1",
      created_at: "2023-06-02T14:30:00.000Z",
      filled_quantity: 10,
    },
  ],
  fills: [
    { fill_id: "f1", client_order_id: "old-1-0", symbol: "AAA", side: "BUY", quantity: 10, price: 100.01, commission: 1, at: "2023-06-02T14:30:00.000Z" },
  ],
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

  it("imports a schema-1 journal's trips and resets as they are; malformed ones are refused before anything is written", async () => {
    const trip = { run_id: "old-1", at: "2023-06-02T14:40:00.000Z", value: 9000, peak: 10000, drawdown_pct: 10, reason: "drawdown" };
    const reset = { at: "2023-06-03T00:00:00.000Z", who: "me", reason: "reviewed", value: 9000, new_peak: 9000, reducing_runs: 2 };
    const good = tmpHome();
    writeFileSync(join(good, "journal.json"), JSON.stringify({ ...V1, trips: [trip], resets: [reset] }));
    await openJournal(good, { timezone: "UTC" });
    const log = readFileSync(join(good, "journal.log.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(log.find((e) => e.t === "import_state")).toMatchObject({ trips: [trip], resets: [reset] });
    await openJournal(good, { timezone: "UTC" }); // the migrated log opens again
    const bad = tmpHome();
    const text = JSON.stringify({ ...V1, trips: [{ ...trip, value: "9000" }] });
    writeFileSync(join(bad, "journal.json"), text);
    await expect(openJournal(bad, { timezone: "UTC" })).rejects.toMatchObject({
      code: "journal_corrupt",
      message: expect.stringContaining('schema 1 trips are not valid: [0].value: must be in [-1000000000000000, 1000000000000000], got "9000"'),
    });
    expect(readFileSync(join(bad, "journal.json"), "utf8")).toBe(text);
    expect(existsSync(join(bad, "journal.log.jsonl"))).toBe(false);
  });

  it("checks every field a run record carries: a run's pid that is not an integer is refused naming the line and the key", async () => {
    const j = await freshJournal();
    await startRun(j, "r1");
    const logPath = join(j.home, "journal.log.jsonl");
    // the same number of bytes (the commit mark still falls on a line end): 12345 → "xxx"
    writeFileSync(
      logPath,
      readFileSync(logPath, "utf8").replace(/"pid":(\d+)/, (_m, d: string) => `"pid":"${"x".repeat(d.length - 2)}"`),
    );
    await expect(openJournal(j.home, { timezone: "UTC", readOnly: true })).rejects.toMatchObject({
      code: "journal_corrupt",
      message: expect.stringMatching(/event log line \d+ \(run_start\): run\.pid: must be an integer, got "x*"/),
    });
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
    await expect(openJournal(home, { timezone: "UTC" })).rejects.toMatchObject({
      code: "journal_too_new",
      exitCode: 2,
      message: expect.stringMatching(/schema version 99.*Upgrade/),
    });
    expect(readFileSync(join(home, "journal.json"), "utf8")).toBe(text);
  });

  it("ignores an uncommitted (torn) tail and cuts it off on the next write", async () => {
    const j = await freshJournal();
    await j.deposit({ amount: 1, at: new Date() });
    const logPath = join(j.home, "journal.log.jsonl");
    appendFileSync(logPath, '{"seq":3,"t":"deposit","amount_minor":99999,"at":"2024-');
    const said: string[] = [];
    const j2 = await openJournal(j.home, { timezone: "UTC", fsync: false, notice: (m) => said.push(m) });
    expect(j2.cash()).toBe(10_001);
    expect(said).toEqual([expect.stringMatching(/holds \d+ bytes past the last commit .*cut off with the next write/)]);
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

describe("the log is the record: the head heals from it, and the hash chain finds edits", () => {
  const logOf = (home: string) => join(home, "journal.log.jsonl");
  const headOf = (home: string) => join(home, "journal.json");
  const lines = (home: string) => readFileSync(logOf(home), "utf8").split("\n").filter(Boolean);
  async function traded(): Promise<string> {
    const j = await freshJournal();
    await startRun(j, "r1");
    await buy(j, "r1", "c1", "AAA", 10, 123.45, 1);
    await j.recordUsage("r1", {
      model: "m",
      usage: { input_tokens: 1234, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      cost_usd: 0.01,
      at: "2024-01-02T14:10:00Z",
    });
    await j.recordApproval("r1", { decision: "approved", by: "alice", orders_hash: "h".repeat(64), at: "2024-01-02T14:20:00Z" });
    await j.remember({ kind: "lesson", text: "be patient", run_id: "r1", at: "2024-01-02T14:40:00Z" });
    await finish(j, "r1");
    await j.deposit({ amount: 1, at: "2024-01-03T00:00:00Z" });
    return j.home;
  }
  /** Replaces `from` by `to` (same length) in the first log line containing `pick`. */
  function editLine(home: string, pick: string, from: string, to: string): number {
    expect(to.length).toBe(from.length);
    const all = lines(home);
    const i = all.findIndex((l) => l.includes(pick));
    all[i] = (all[i] as string).replace(from, to);
    writeFileSync(logOf(home), `${all.join("\n")}\n`);
    return i + 1;
  }

  it("a head missing while the log holds events is rebuilt from the log, a torn last line dropped, and both said", async () => {
    const home = await traded();
    const cash = (await openJournal(home, { timezone: "UTC", readOnly: true })).cashMinor();
    rmSync(headOf(home));
    appendFileSync(logOf(home), '{"t":"deposit","amount_minor":99999,"at":"2024-'); // a write cut short
    const said: string[] = [];
    const ro = await openJournal(home, { timezone: "UTC", readOnly: true, notice: (m) => said.push(m) });
    expect(ro.cashMinor()).toBe(cash);
    expect(existsSync(headOf(home))).toBe(false); // a read-only open writes nothing
    const j = await openJournal(home, { timezone: "UTC", notice: (m) => said.push(m) });
    expect(said.at(-1)).toMatch(/journal\.json was missing .*: rebuilt from .*journal\.log\.jsonl \(\d+ events\); a torn last line \(line \d+, \d+ bytes/);
    expect(existsSync(headOf(home))).toBe(true);
    expect(j.cashMinor()).toBe(cash);
    expect(j.runs().map((r) => r.run_id)).toEqual(["r1"]);
    await j.deposit({ amount: 1, at: new Date() });
    const again = await openJournal(home, { timezone: "UTC" });
    expect(again.cashMinor()).toBe(cash + 100);
    expect(lines(home).every((l) => !l.includes("99999"))).toBe(true);
    expect(again.verify().filter((f) => f.code !== "unsettled_order")).toEqual([]);
  });

  it("a fill's price edited by one digit: a writable open refuses naming the file and the line; verify reports it", async () => {
    const home = await traded();
    const head = readFileSync(headOf(home));
    const line = editLine(home, '"t":"fill"', "123.45", "123.46");
    await expect(openJournal(home, { timezone: "UTC" })).rejects.toMatchObject({
      code: "journal_corrupt",
      message: expect.stringMatching(new RegExp(`journal\\.log\\.jsonl.*line ${line + 1}`)),
    });
    expect(readFileSync(headOf(home)).equals(head)).toBe(true);
    const ro = await openJournal(home, { timezone: "UTC", readOnly: true });
    expect(ro.verify().map((f) => f.code)).toContain("chain_broken");
  });

  it.each([
    ["a note's text", '"t":"note"', "be patient", "be pAtient"],
    ["a fill's quantity", '"t":"fill"', '"quantity":10,', '"quantity":19,'],
    ["an approval's by", '"t":"approval"', '"by":"alice"', '"by":"alicf"'],
    ["a usage token count", '"t":"usage"', '"input_tokens":1234', '"input_tokens":1235'],
    ["a run's outcome", '"t":"run_finish"', '"outcome":"executed"', '"outcome":"executeD"'],
    ["the last line (checked against the head's last_hash)", '"t":"deposit"', '"amount_minor":100,', '"amount_minor":900,'],
  ])("a same-length edit of %s is reported by verify and refused by a writable open", async (_what, pick, from, to) => {
    const home = await traded();
    editLine(home, pick, from, to);
    await expect(openJournal(home, { timezone: "UTC" })).rejects.toMatchObject({ code: "journal_corrupt" });
    const ro = await openJournal(home, { timezone: "UTC", readOnly: true });
    expect(ro.verify().map((f) => f.code)).toContain("chain_broken");
  });

  it("two swapped log events (their seq swapped too) are refused", async () => {
    const home = await traded();
    const all = lines(home).map((l) => JSON.parse(l) as Record<string, unknown>);
    const [a, b] = [all[2] as Record<string, unknown>, all[3] as Record<string, unknown>];
    [a.seq, b.seq] = [b.seq, a.seq];
    const text = [all[0], all[1], b, a, ...all.slice(4)].map((e) => JSON.stringify(e)).join("\n");
    writeFileSync(logOf(home), `${text}\n`);
    await expect(openJournal(home, { timezone: "UTC" })).rejects.toMatchObject({
      code: "journal_corrupt",
      message: expect.stringMatching(/line 3 does not follow/),
    });
  });

  it("an older log without the chain still opens and verifies; new events chain onto it, covering the older lines too", async () => {
    const home = await traded();
    const unchained = lines(home).map((l) => {
      const { prev: _prev, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return JSON.stringify(rest);
    });
    const logText = `${unchained.join("\n")}\n`;
    writeFileSync(logOf(home), logText);
    const head = JSON.parse(readFileSync(headOf(home), "utf8")) as { log: Record<string, unknown> };
    delete head.log.last_hash;
    head.log.committed_bytes = Buffer.byteLength(logText);
    writeFileSync(headOf(home), JSON.stringify(head));
    const j = await openJournal(home, { timezone: "UTC" });
    expect(j.verify().filter((f) => f.code !== "unsettled_order")).toEqual([]);
    await j.deposit({ amount: 1, at: new Date() });
    expect(JSON.parse(lines(home).at(-1) as string).prev).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(readFileSync(headOf(home), "utf8")).log.last_hash).toMatch(/^[0-9a-f]{64}$/);
    // an edit of an older (unchained) line is now caught by the first chained line after it
    editLine(home, '"t":"fill"', "123.45", "123.46");
    await expect(openJournal(home, { timezone: "UTC" })).rejects.toMatchObject({ code: "journal_corrupt", message: expect.stringMatching(/does not follow/) });
  });

  it("an older (unchained) log whose order_intent symbol was edited: a writable open refuses what verify reports", async () => {
    const home = await traded();
    const unchained = lines(home).map((l) => {
      const { prev: _prev, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return JSON.stringify(rest).replace('"symbol":"AAA","side":"BUY","quantity":10,"limit_price"', '"symbol":"AAB","side":"BUY","quantity":10,"limit_price"');
    });
    const logText = `${unchained.join("\n")}\n`;
    writeFileSync(logOf(home), logText);
    const head = JSON.parse(readFileSync(headOf(home), "utf8")) as { log: Record<string, unknown> };
    delete head.log.last_hash;
    head.log.committed_bytes = Buffer.byteLength(logText);
    writeFileSync(headOf(home), JSON.stringify(head));
    const ro = await openJournal(home, { timezone: "UTC", readOnly: true });
    expect(ro.verify().map((f) => f.code)).toContain("fill_order_mismatch");
    await expect(openJournal(home, { timezone: "UTC" })).rejects.toMatchObject({
      code: "journal_corrupt",
      message: expect.stringMatching(/journal\.log\.jsonl.*its order is BUY AAB/),
    });
  });
});
