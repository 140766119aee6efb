/**
 * The simulated broker's book checked whole on open, through the real CLI (issue #23): edits that
 * keep the file's schema but not its sense — a bit-flipped broker order id, a reused client order
 * id, a day that is not on the calendar, played days out of order or emptied, a fill that does not
 * add up to its order — are refused naming `sim-broker.json` and the place, with exit 4 (as every
 * state refusal of the book), and nothing in the home is written.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupHomes, expectExit, freshHome, text, twIn, homeSnapshot } from "./helpers.js";

afterAll(cleanupHomes);

interface Book {
  account_id: string;
  current_day: string | null;
  played_days: string[];
  orders: { broker_order_id: string; client_order_id: string; filled_quantity: number }[];
  fills: { broker_order_id: string; quantity: number }[];
}

let base = "";
beforeAll(async () => {
  base = freshHome();
  // Two runs: two days played, orders of both days in the book.
  expectExit(await twIn(base, ["run", "--yes"]), 0);
  expectExit(await twIn(base, ["run", "--yes"]), 0);
}, 120_000);

/** A copy of the base home with its book edited. */
function editedHome(edit: (book: Book) => void): string {
  const home = freshHome();
  cpSync(base, home, { recursive: true });
  const path = join(home, "sim-broker.json");
  const book = JSON.parse(readFileSync(path, "utf8")) as Book;
  edit(book);
  writeFileSync(path, JSON.stringify(book));
  return home;
}

/** One bit of one character flipped (kept printable and inside the JSON string). */
function flipBit(s: string, at: number, bit: number): string | null {
  const c = s.charCodeAt(at) ^ (1 << bit);
  if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return null;
  return s.slice(0, at) + String.fromCharCode(c) + s.slice(at + 1);
}

async function expectRefused(home: string, place: RegExp): Promise<void> {
  const before = homeSnapshot(home);
  const run = await twIn(home, ["run", "--yes"]);
  expect(run.exitCode, text(run)).toBe(4);
  expect(String(run.stderr)).toMatch(/sim-broker\.json is not valid \(/);
  expect(String(run.stderr)).toMatch(place);
  expect(homeSnapshot(home)).toEqual(before);
}

describe("sim-broker.json is checked whole on open (issue #23)", () => {
  it("the base book opens: a third run trades on it", async () => {
    const home = freshHome();
    cpSync(base, home, { recursive: true });
    const book = JSON.parse(readFileSync(join(home, "sim-broker.json"), "utf8")) as Book;
    expect(book.played_days).toHaveLength(2);
    expect(book.orders.length).toBeGreaterThanOrEqual(2);
    expectExit(await twIn(home, ["sim", "status"]), 0);
  }, 60_000);

  it("a broker order id with one bit flipped is refused naming the order (every bit: tests/broker/simulated-book.test.ts)", async () => {
    const home = editedHome((b) => {
      const o = b.orders[1] as { broker_order_id: string };
      o.broker_order_id = flipBit(o.broker_order_id, o.broker_order_id.length - 1, 0) ?? ""; // …-O2 → …-O3
    });
    await expectRefused(home, /orders\[1\]\.broker_order_id: /);
  }, 60_000);

  it("a client order id used by two orders is refused naming the second", async () => {
    const home = editedHome((b) => {
      (b.orders[1] as { client_order_id: string }).client_order_id = b.orders[0]?.client_order_id ?? "";
    });
    await expectRefused(home, /orders\[1\]\.client_order_id: must be unique/);
  }, 60_000);

  it("current_day 2007-02-30 is refused as not a calendar day", async () => {
    const home = editedHome((b) => {
      b.current_day = "2007-02-30";
    });
    await expectRefused(home, /current_day: must be a date/);
  }, 60_000);

  it("played_days out of order, or emptied, is refused naming the key", async () => {
    const unsorted = editedHome((b) => {
      b.played_days.reverse();
    });
    const emptied = editedHome((b) => {
      b.played_days = [];
    });
    await Promise.all([expectRefused(unsorted, /played_days\[\d\]: must/), expectRefused(emptied, /played_days: |current_day: /)]);
  }, 60_000);

  it("a fill that does not add up to its order, or names no order of the book, is refused", async () => {
    const quantity = editedHome((b) => {
      (b.fills[0] as { quantity: number }).quantity += 1;
    });
    const orphan = editedHome((b) => {
      (b.fills[0] as { broker_order_id: string }).broker_order_id = `${b.account_id}-O999`;
    });
    await Promise.all([
      expectRefused(quantity, /orders\[0\]\.filled_quantity: must be \d+ \(the quantity of its fills\)/),
      expectRefused(orphan, /fills\[0\]\.broker_order_id: must name an order of the book/),
    ]);
  }, 60_000);
});
