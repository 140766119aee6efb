/**
 * Damaged state files through the real CLI (issue #13): the simulated broker's book and the
 * journal are validated in full when they are opened, before anything trades on them or writes;
 * the refusal names the file and the place, and every file is left byte-for-byte as it was.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupHomes, expectExit, freshHome, text, twIn, homeSnapshot } from "./helpers.js";

afterAll(cleanupHomes);

let base = "";
beforeAll(async () => {
  base = freshHome();
  expectExit(await twIn(base, ["run", "--yes"]), 0);
}, 120_000);

/** A copy of the home after one real run. */
function copyOfBase(): string {
  const home = freshHome();
  cpSync(base, home, { recursive: true });
  return home;
}

function editJson(path: string, edit: (doc: Record<string, unknown>) => void): void {
  const doc = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  edit(doc);
  writeFileSync(path, JSON.stringify(doc));
}

const LOG = "journal.log.jsonl";
function editLogLine(home: string, pick: (ev: Record<string, unknown>) => boolean, edit: (ev: Record<string, unknown>) => void): number {
  const path = join(home, LOG);
  const lines = readFileSync(path, "utf8").split("\n");
  const i = lines.findIndex((l) => l.length > 0 && pick(JSON.parse(l) as Record<string, unknown>));
  const ev = JSON.parse(lines[i] as string) as Record<string, unknown>;
  edit(ev);
  // keep the committed byte count: pad or trim the line's JSON with spaces
  const original = (lines[i] as string).length;
  let s = JSON.stringify(ev);
  if (s.length < original) s = s.replace(/}$/, `${" ".repeat(original - s.length)}}`);
  expect(s.length).toBe(original);
  lines[i] = s;
  writeFileSync(path, lines.join("\n"));
  return i + 1;
}

describe("state files are validated on open, before any write", () => {
  it('sim-broker.json with cash "lots": run and sim status refuse naming the file and the key; nothing changes', async () => {
    const home = copyOfBase();
    editJson(join(home, "sim-broker.json"), (d) => {
      d.cash = "lots";
    });
    const before = homeSnapshot(home);
    const run = await twIn(home, ["run", "--yes"]);
    expect(run.exitCode, text(run)).toBe(4);
    expect(String(run.stderr)).toMatch(/sim-broker\.json is not valid \(cash: must be .*got "lots"\)/);
    const status = await twIn(home, ["sim", "status"]);
    expect(status.exitCode, text(status)).toBe(4);
    expect(String(status.stderr)).toMatch(/cash: must be/);
    expect(homeSnapshot(home)).toEqual(before);
  });

  it("an unknown event type in the journal log is refused naming the line, not skipped", async () => {
    const home = copyOfBase();
    const line = editLogLine(
      home,
      (e) => e.t === "valuation",
      (e) => {
        e.t = "valuatoin";
      },
    );
    const before = homeSnapshot(home);
    const run = await twIn(home, ["run", "--yes"]);
    expect(run.exitCode, text(run)).toBe(1);
    expect(String(run.stderr)).toContain(`event log line ${line}: unknown event type "valuatoin"`);
    expect(homeSnapshot(home)).toEqual(before);
  });

  it("a wrong-typed field in the log is refused naming line and key before the run appends or uses a day", async () => {
    const home = copyOfBase();
    const line = editLogLine(
      home,
      (e) => e.t === "init",
      (e) => {
        e.capital_minor = "1e7";
      },
    );
    const before = homeSnapshot(home);
    const run = await twIn(home, ["run", "--yes"]);
    expect(run.exitCode, text(run)).toBe(1);
    expect(String(run.stderr)).toContain(`journal.log.jsonl cannot be read (event log line ${line} (init): capital_minor: must be an integer`);
    expect(homeSnapshot(home)).toEqual(before);
  });

  it("a checkpoint that journal verify reports as mismatched is refused by run and left as it is", async () => {
    const home = copyOfBase();
    editJson(join(home, "journal.json"), (d) => {
      (d.checkpoint as { cash_minor: number }).cash_minor += 100;
    });
    const before = homeSnapshot(home);
    const verify = await twIn(home, ["journal", "verify"]);
    expect(verify.exitCode, text(verify)).toBe(1);
    expect(text(verify)).toMatch(/checkpoint says cash/);
    const run = await twIn(home, ["run", "--yes"]);
    expect(run.exitCode, text(run)).toBe(1);
    expect(String(run.stderr)).toMatch(/journal\.json cannot be read \(the committed checkpoint's cash_minor is \d+, the event log gives \d+/);
    expect(homeSnapshot(home)).toEqual(before);
  });
});

/** Rewrites one log line in place with `edit` on its text (same length: the commit mark still holds). */
function editLogText(home: string, pick: (ev: Record<string, unknown>) => boolean, edit: (line: string) => string): number {
  const path = join(home, LOG);
  const lines = readFileSync(path, "utf8").split("\n");
  const i = lines.findIndex((l) => l.length > 0 && pick(JSON.parse(l) as Record<string, unknown>));
  const edited = edit(lines[i] as string);
  expect(edited).not.toBe(lines[i]);
  expect(edited.length).toBe((lines[i] as string).length);
  lines[i] = edited;
  writeFileSync(path, lines.join("\n"));
  return i + 1;
}

/** One digit of a number changed: the first digit after `key` bumped (9 → 0). */
const bumpDigitAfter = (key: string) => (line: string) =>
  line.replace(new RegExp(`(${key}:\\d*?)(\\d)([.,}])`), (_m, a: string, d: string, b: string) => `${a}${(Number(d) + 1) % 10}${b}`);

describe("tamper evidence: a same-length edit of the log is found by verify and refused by a writable open", () => {
  it("a fill's price edited by one digit: journal verify reports it; run refuses naming the file and line; nothing changes", async () => {
    const home = copyOfBase();
    const line = editLogText(home, (e) => e.t === "fill", bumpDigitAfter('"price"'));
    const before = homeSnapshot(home);
    const verify = await twIn(home, ["journal", "verify"]);
    expect(verify.exitCode, text(verify)).toBe(1);
    expect(text(verify)).toMatch(/chain_broken/);
    expect(text(verify)).toMatch(/fill_broker_mismatch.*price/);
    const run = await twIn(home, ["run", "--yes"]);
    expect(run.exitCode, text(run)).toBe(1);
    expect(String(run.stderr)).toMatch(new RegExp(`journal\\.log\\.jsonl cannot be read \\(event log line (${line}|${line + 1})`));
    expect(homeSnapshot(home)).toEqual(before);
  });

  it("an order_intent's symbol edited: verify reports it and run refuses (it traded on)", async () => {
    const home = copyOfBase();
    editLogText(
      home,
      (e) => e.t === "order_intent",
      (l) => l.replace(/"symbol":"(\w)(\w*)"/, (_m, a: string, rest: string) => `"symbol":"${a === "Z" ? "Y" : "Z"}${rest}"`),
    );
    const before = homeSnapshot(home);
    const verify = await twIn(home, ["journal", "verify"]);
    expect(verify.exitCode, text(verify)).toBe(1);
    expect(text(verify)).toMatch(/chain_broken/);
    const run = await twIn(home, ["run", "--yes"]);
    expect(run.exitCode, text(run)).toBe(1);
    expect(String(run.stderr)).toMatch(/journal\.log\.jsonl cannot be read/);
    expect(homeSnapshot(home)).toEqual(before);
  });

  it("an approval's orders_hash, a usage count, a run's outcome: each edit is reported by journal verify", async () => {
    for (const [pick, edit] of [
      [
        (e: Record<string, unknown>) => e.t === "approval",
        (l: string) => l.replace(/"orders_hash":"(.)/, (_m, c: string) => `"orders_hash":"${c === "a" ? "b" : "a"}`),
      ],
      [(e: Record<string, unknown>) => e.t === "usage", bumpDigitAfter('"input_tokens"')],
      [(e: Record<string, unknown>) => e.t === "run_finish", (l: string) => l.replace('"outcome":"executed"', '"outcome":"executeD"')],
    ] as const) {
      const home = copyOfBase();
      editLogText(home, pick, edit);
      const verify = await twIn(home, ["journal", "verify"]);
      expect(verify.exitCode, text(verify)).toBe(1);
      expect(text(verify)).toMatch(/chain_broken/);
    }
  });
});
