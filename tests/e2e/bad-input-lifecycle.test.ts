/**
 * A journal whose log skips a step of the order lifecycle, through the real CLI: every command
 * that opens it (a run, `journal verify`) refuses naming the file, the line and the illegal step
 * (`illegal_order_transition`), and nothing is written.
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
}, 180_000);

describe("the order lifecycle is checked when the journal is opened", () => {
  it("an order_update sending a filled order back to intent: run and journal verify refuse naming the file, the line and the step; nothing changes", async () => {
    const home = freshHome();
    cpSync(base, home, { recursive: true });
    const path = join(home, "journal.log.jsonl");
    const lines = readFileSync(path, "utf8").split("\n");
    const i = lines.findLastIndex((l) => l.includes('"t":"order_update"') && l.includes('"status":"filled"'));
    expect(i).toBeGreaterThan(0);
    const order = (JSON.parse(lines[i] as string) as { client_order_id: string }).client_order_id;
    lines[i] = (lines[i] as string).replace('"status":"filled"', '"status":"intent"'); // same length: the commit mark still fits
    writeFileSync(path, lines.join("\n"));
    const before = homeSnapshot(home);
    const refusal = new RegExp(
      `journal\\.log\\.jsonl cannot be read \\(event log line ${i + 1}: illegal_order_transition: order ${order} cannot go from \\w+ to intent`,
    );
    const run = await twIn(home, ["run", "--yes"]);
    expect(run.exitCode, text(run)).toBe(1);
    expect(String(run.stderr)).toMatch(refusal);
    const verify = await twIn(home, ["journal", "verify"]);
    expect(verify.exitCode, text(verify)).toBe(1);
    expect(text(verify)).toMatch(refusal);
    expect(homeSnapshot(home)).toEqual(before);
  });
});
