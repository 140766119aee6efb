/**
 * The journal keeps the order lifecycle (core/order-lifecycle.ts): a writer recording an illegal
 * step is refused with `illegal_order_transition`, and a log holding one (a forged or hand-edited
 * line, chain and checkpoint intact) is refused on open naming the file and the line. The paths the
 * executor, recovery and an operator's adoption take open as before.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CHAIN_ORIGIN, chainEvents } from "../../src/journal/chain.js";
import { openJournal } from "../../src/journal/journal.js";
import type { JournalEvent } from "../../src/journal/types.js";
import { buy, freshJournal, startRun } from "./helpers.js";

const at = "2024-01-02T14:30:00Z";
const logOf = (home: string) => join(home, "journal.log.jsonl");
const headOf = (home: string) => join(home, "journal.json");

/** Rewrites the log through `edit` and re-chains it, fixing the head's commit mark: only the edit differs. */
function forge(home: string, edit: (events: JournalEvent[]) => JournalEvent[]): void {
  const events = readFileSync(logOf(home), "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => {
      const { prev: _prev, ...rest } = JSON.parse(l) as JournalEvent;
      return rest as JournalEvent;
    });
  const chained = chainEvents(
    edit(events).map((e, i) => ({ ...e, seq: i + 1 })),
    CHAIN_ORIGIN,
  );
  writeFileSync(logOf(home), chained.text);
  const head = JSON.parse(readFileSync(headOf(home), "utf8")) as { log: Record<string, unknown> };
  head.log.committed_bytes = Buffer.byteLength(chained.text);
  head.log.last_seq = chained.events.length;
  head.log.last_hash = chained.hash;
  writeFileSync(headOf(home), JSON.stringify(head));
}

describe("order lifecycle in the journal", () => {
  it("a writer recording an illegal step is refused with illegal_order_transition naming the order, from and to; nothing is written", async () => {
    const j = await freshJournal();
    await startRun(j, "r1");
    await buy(j, "r1", "c1", "AAA", 10, 100);
    const before = readFileSync(logOf(j.home), "utf8");
    await expect(j.recordOrderUpdate("c1", { status: "accepted", at })).rejects.toMatchObject({
      code: "illegal_order_transition",
      message: "order c1 cannot go from filled to accepted: filled is terminal (the broker has finished with it)",
    });
    await j.recordOrderIntent({ run_id: "r1", client_order_id: "c2", index: 1, symbol: "AAA", side: "BUY", quantity: 5, limit_price: 100, at });
    await j.recordOrderUpdate("c2", { status: "accepted", at });
    await j.recordOrderUpdate("c2", { status: "partially_filled", filled_quantity: 2, at });
    await expect(j.recordOrderUpdate("c2", { status: "intent", at })).rejects.toMatchObject({
      code: "illegal_order_transition",
      message: expect.stringMatching(/^order c2 cannot go from partially_filled to intent/),
    });
    await expect(j.recordOrderUpdate("c2", { status: "uncertain", at })).rejects.toMatchObject({ code: "illegal_order_transition" });
    expect(j.order("c1")?.status).toBe("filled");
    expect(j.order("c2")?.status).toBe("partially_filled");
    // a restatement of a terminal status (recovery booking a filled order's late fills) is not a step
    await j.recordOrderUpdate("c1", { status: "filled", message: "found at the broker by client order id", at });
    expect(readFileSync(logOf(j.home), "utf8").startsWith(before)).toBe(true);
    expect((await openJournal(j.home, { timezone: "UTC" })).order("c1")?.status).toBe("filled");
  });

  it("a log holding an illegal step is refused on open (writable and read-only), naming the file, the line and the step", async () => {
    const j = await freshJournal();
    await startRun(j, "r1");
    await buy(j, "r1", "c1", "AAA", 10, 100);
    forge(j.home, (events) => [...events, { t: "order_update", client_order_id: "c1", entry: { status: "accepted", at }, seq: 0 } as JournalEvent]);
    const line = readFileSync(logOf(j.home), "utf8").trimEnd().split("\n").length;
    const refusal = {
      code: "journal_corrupt",
      message: expect.stringContaining(
        `${logOf(j.home)} cannot be read (event log line ${line}: illegal_order_transition: order c1 cannot go from filled to accepted`,
      ),
    };
    await expect(openJournal(j.home, { timezone: "UTC" })).rejects.toMatchObject(refusal);
    await expect(openJournal(j.home, { timezone: "UTC", readOnly: true })).rejects.toMatchObject(refusal);
  });

  it("an intent recorded with another status skips the send's steps: refused on open", async () => {
    const j = await freshJournal();
    await startRun(j, "r1");
    await buy(j, "r1", "c1", "AAA", 10, 100);
    forge(j.home, (events) =>
      events
        .filter((e) => e.t !== "order_update")
        .map((e) => (e.t === "order_intent" ? ({ ...e, order: { ...e.order, status: "filled" } } as JournalEvent) : e)),
    );
    await expect(openJournal(j.home, { timezone: "UTC" })).rejects.toMatchObject({
      code: "journal_corrupt",
      message: expect.stringMatching(/event log line \d+: illegal_order_transition: order c1's intent is recorded as filled/),
    });
  });

  it("the recovery paths and an operator's adoption open as before", async () => {
    const j = await freshJournal();
    await startRun(j, "r1");
    const intent = (id: string, index: number) =>
      j.recordOrderIntent({ run_id: "r1", client_order_id: id, index, symbol: "AAA", side: "BUY", quantity: 1, limit_price: 100, at });
    // an uncertain send the broker never received
    await intent("u1", 0);
    await j.recordOrderUpdate("u1", { status: "uncertain", message: "send outcome unknown", at });
    await j.recordOrderUpdate("u1", { status: "uncertain", message: "still in flight", at });
    await j.recordOrderUpdate("u1", { status: "rejected", message: "not received", at });
    // an intent with no broker order found working by recovery, its cancel failing, settled next run
    await intent("w1", 1);
    await j.recordOrderUpdate("w1", { status: "working_after_cancel", broker_order_id: "b-w1", message: "cancel failed", at });
    await j.bookFill("w1", { fill_id: "f-w1", symbol: "AAA", side: "BUY", quantity: 1, price: 100, commission: 0, fx_to_base: 1, at });
    await j.recordOrderUpdate("w1", { status: "filled", filled_quantity: 1, at });
    // a filled order the broker does not know, adopted by an operator (settled as rejected)
    await buy(j, "r1", "a1", "AAA", 1, 100);
    await j.recordAdjustments({
      differences: [{ kind: "unsettled_order", symbol: "AAA", client_order_id: "a1", adoptable: true, message: "the broker has no order a1" }],
      reason: "broker lost it",
      by: "op",
      at,
    });
    const again = await openJournal(j.home, { timezone: "UTC" });
    expect(["u1", "w1", "a1"].map((id) => again.order(id)?.status)).toEqual(["rejected", "filled", "rejected"]);
    // the adoption's step is allowed only as the adoption: the same line without its adjustment is refused
    forge(j.home, (events) => events.filter((e) => e.t !== "adjustment"));
    await expect(openJournal(j.home, { timezone: "UTC", readOnly: true })).rejects.toMatchObject({
      message: expect.stringMatching(/order a1 cannot go from filled to rejected/),
    });
  });
});
