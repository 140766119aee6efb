/**
 * The simulated broker's book checked whole when it is read (issue #23), through the real store
 * (readSimState) over a book the real broker wrote: every one-bit flip of a broker order id or a
 * fill id, and edits of the write-ahead log (a line's order changed, lines out of order, a line of
 * a later generation) are refused naming the file and the place; the files stay as they were.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { SimBroker } from "../../src/broker/simulated.js";
import { logPath, readSimState } from "../../src/broker/simulated-store.js";
import { MarketData } from "../../src/market/data.js";

let market: MarketData;
beforeAll(() => {
  market = MarketData.load();
});

/** A book with orders and fills over two days; the second day's orders are in the log. */
async function writtenBook(): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), "tw-book-")), "sim-broker.json");
  const sim = SimBroker.open({ market, path, start: "2010-01-04", cash: 100_000 });
  sim.beginDay();
  await sim.placeLimitDayOrder({ client_order_id: "c1", symbol: "ALFA", side: "BUY", quantity: 10, limit_price: 1000 });
  await sim.placeLimitDayOrder({ client_order_id: "c2", symbol: "BRVO", side: "BUY", quantity: 5, limit_price: 1000 });
  sim.beginDay();
  await sim.placeLimitDayOrder({ client_order_id: "c3", symbol: "ALFA", side: "BUY", quantity: 3, limit_price: 1000 });
  await sim.placeLimitDayOrder({ client_order_id: "c4", symbol: "CHRL", side: "BUY", quantity: 4, limit_price: 1000 });
  return path;
}

function refusal(path: string): string {
  const before = [readFileSync(path, "utf8"), readFileSync(logPath(path), "utf8")];
  let message = "";
  try {
    readSimState(path);
  } catch (e) {
    message = (e as Error).message;
  }
  expect([readFileSync(path, "utf8"), readFileSync(logPath(path), "utf8")]).toEqual(before);
  return message;
}

function flips(s: string, at: number): string[] {
  const out: string[] = [];
  for (let bit = 0; bit < 7; bit++) {
    const c = s.charCodeAt(at) ^ (1 << bit);
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) out.push(s.slice(0, at) + String.fromCharCode(c) + s.slice(at + 1));
  }
  return out;
}

describe("the simulated broker's book is checked whole on read", () => {
  it("the book the broker wrote reads back (snapshot and log)", async () => {
    const path = await writtenBook();
    const state = readSimState(path);
    expect(state?.orders.map((o) => o.client_order_id)).toEqual(["c1", "c2", "c3", "c4"]);
    expect(state?.played_days).toHaveLength(1);
    expect(readFileSync(logPath(path), "utf8").trim().split("\n")).toHaveLength(2);
  });

  it("every one-bit flip of every character of an order id and of a fill id in the snapshot is refused naming it", async () => {
    const path = await writtenBook();
    const text = readFileSync(path, "utf8");
    const doc = JSON.parse(text) as { orders: { broker_order_id: string }[]; fills: { fill_id: string }[] };
    let cases = 0;
    for (const [list, key] of [
      [doc.orders, "broker_order_id"],
      [doc.fills, "fill_id"],
    ] as const) {
      for (let i = 0; i < list.length; i++) {
        const id = (list[i] as Record<string, string>)[key] as string;
        for (let at = 0; at < id.length; at++) {
          for (const flipped of flips(id, at)) {
            const edited = structuredClone(doc);
            ((key === "fill_id" ? edited.fills : edited.orders)[i] as Record<string, string>)[key] = flipped;
            writeFileSync(path, JSON.stringify(edited));
            const message = refusal(path);
            const what = key === "fill_id" ? "fills" : "orders";
            expect(message, `${id} → ${flipped}`).toContain(path);
            expect(message, `${id} → ${flipped}`).toMatch(new RegExp(`${what}\\[${i}\\]\\.${key}: |fills\\[\\d+\\]\\.broker_order_id: `));
            cases++;
          }
        }
      }
    }
    expect(cases).toBeGreaterThan(200);
  });

  it("a log line whose order reuses a client order id is refused naming the log and the line", async () => {
    const path = await writtenBook();
    const lines = readFileSync(logPath(path), "utf8").split("\n");
    lines[1] = (lines[1] as string).replace('"client_order_id":"c4"', '"client_order_id":"c3"');
    writeFileSync(logPath(path), lines.join("\n"));
    const message = refusal(path);
    expect(message).toContain(`${logPath(path)} is not valid (line 2: the book after it: orders[3].client_order_id: must be unique`);
  });

  it("log lines swapped, or of a generation after the snapshot's, are refused naming the line", async () => {
    const path = await writtenBook();
    const original = readFileSync(logPath(path), "utf8");
    const [a, b] = original.trim().split("\n") as [string, string];
    writeFileSync(logPath(path), `${b}\n${a}\n`);
    expect(refusal(path)).toMatch(/sim-broker\.json\.log is not valid \(line 1: the book after it: orders\[\d\]\.broker_order_id: /);

    const gen = (JSON.parse(readFileSync(path, "utf8")) as { gen: number }).gen;
    writeFileSync(logPath(path), `${a}\n${b.replace(`"gen":${gen}`, `"gen":${gen + 1}`)}\n`);
    expect(refusal(path)).toContain(`line 2: gen ${gen + 1} is after the snapshot's generation ${gen}`);

    writeFileSync(logPath(path), `${a}\n${a.replace(`"gen":${gen}`, `"gen":${gen - 1}`)}\n`);
    expect(refusal(path)).toContain(`line 2: gen ${gen - 1} comes after a line of generation ${gen}: lines are out of order`);
  });
});
