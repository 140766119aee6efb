/**
 * The CLI (src/cli.tsx main, in-process): `run --mode watch` (research and watchlist only, nothing placed; a
 * later run is shown the watchlist with what changed) and `tools call` (one tool as a run on a day
 * would call it; state-changing tools on a throwaway copy).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/load.js";
import { replayRun } from "../../src/records/replay.js";
import { readArtifact } from "../../src/run/artifacts.js";
import { cleanupHomes, expectExit, freshHome, journalJson, ofType, recordedEvents, runIds, twIn } from "./helpers.js";

afterAll(cleanupHomes);

const journalLog = (home: string) =>
  readFileSync(join(home, "journal.log.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { t: string; record?: { kind: string; item?: { symbol: string } } });

describe("run --mode watch", () => {
  it("manages the watchlist, places nothing, and the next run is shown the watchlist with what changed", async () => {
    const home = freshHome();
    const first = await twIn(home, ["run", "--mode", "watch"]);
    expectExit(first, 0);
    const [runId] = runIds(home);
    const events = recordedEvents(home, String(runId));
    const added = ofType(events, "tool.result").filter((e) => e.tool === "add_watchlist" && e.success);
    expect(added.length).toBeGreaterThan(0);
    expect(added[0]?.summary).toMatch(/watching \S+ for 10 trading days/);
    expect(ofType(events, "order.placed")).toHaveLength(0);
    expect(ofType(events, "run.finished")[0]).toMatchObject({ outcome: "observed", exit_code: 0 });
    expect(journalLog(home).filter((e) => e.t === "watch" && e.record?.kind === "add")).toHaveLength(added.length);
    const journal = await journalJson(home);
    expect(journal.orders).toHaveLength(0);
    expect(journal.runs[0]).toMatchObject({ mode: "watch", outcome: "observed" });
    // It offered only what a watch run can use (no standing order, no dry run), recorded so a replay offers the same.
    const runDir = join(home, "runs", String(runId));
    const cassette = String(readArtifact(runDir, "cassette")).split("\n");
    const meta = JSON.parse(cassette[0] as string);
    expect(meta.tools).toContain("submit_orders");
    expect(meta.tools).not.toContain("place_standing_order");
    expect(meta.tools).not.toContain("check_orders");
    const offered = cassette.filter((l) => l.startsWith('{"type":"tools"')).map((l) => JSON.parse(l).tools.map((t: { name: string }) => t.name));
    expect(offered).toEqual([meta.tools]);
    expect(await replayRun(runDir, defaultConfig())).toMatchObject({ outcome: "hold", recordedOutcome: "hold" });

    const second = await twIn(home, ["run", "--mode", "watch"]);
    expectExit(second, 0);
    const runs = runIds(home);
    const transcript = JSON.parse(readFileSync(join(home, "runs", String(runs[runs.length - 1]), "transcript.json"), "utf8"));
    const task = String(transcript.messages[0].content[0].text);
    expect(task).toMatch(/^Watch mode:/m);
    expect(task).toMatch(/Your watchlist \(from earlier runs/);
    expect(task).toMatch(/- \S+ \(w-1, added \d{4}-\d\d-\d\d at [\d.]+, now [\d.]+, [+-][\d.]+% since; \d+ trading day\(s\) left/);
  }, 90_000);
});

describe("tradewarden tools call", () => {
  it("answers a read tool as the model would see it on the given day", async () => {
    const home = freshHome();
    const r = await twIn(home, ["tools", "call", "screen_universe", '{"limit": 2, "sort_by": "rsi_14"}', "--as-of", "2012-05-01", "--json"]);
    expectExit(r, 0);
    const out = JSON.parse(String(r.stdout));
    expect(out).toMatchObject({
      tool: "screen_universe",
      trading_day: "2012-05-01",
      contract_version: "tw-tools/3",
      state: "read_only",
      stage: "ok",
      success: true,
    });
    expect(out.result.returned).toBe(2);
    for (const row of out.result.results) expect(row.as_of < "2012-05-01").toBe(true);
  }, 60_000);

  it("validates exactly as a run does: the envelope, with every issue", async () => {
    const home = freshHome();
    const r = await twIn(home, ["tools", "call", "get_price_history", '{"ticker": "ALFA"}', "--json"]);
    expectExit(r, 0);
    const out = JSON.parse(String(r.stdout));
    expect(out).toMatchObject({ stage: "validation", success: false, result: { success: false, error_code: "invalid_tool_arguments", retryable: true } });
    expect(out.result.correction.issues).toEqual(
      expect.arrayContaining([
        { path: "$.symbol", message: "is required" },
        { path: "$.ticker", message: "is not an allowed field" },
      ]),
    );
  }, 60_000);

  it("runs a state-changing tool on a throwaway copy and says so; the home keeps nothing", async () => {
    const home = freshHome();
    expectExit(await twIn(home, ["run", "--mode", "observe"]), 0);
    const before = readFileSync(join(home, "journal.log.jsonl"), "utf8");
    const r = await twIn(home, ["tools", "call", "add_watchlist", '{"symbol": "ALFA", "reason": "test"}']);
    expectExit(r, 0);
    expect(String(r.stderr)).toMatch(/state-changing tool: it ran against a throwaway copy of the state; nothing was kept/);
    expect(JSON.parse(String(r.stdout))).toMatchObject({ success: true, item: { symbol: "ALFA", id: "w-1" } });
    expect(readFileSync(join(home, "journal.log.jsonl"), "utf8")).toBe(before);
  }, 90_000);

  it("exits 2 on an unknown tool or a bad day", async () => {
    const home = freshHome();
    const r = await twIn(home, ["tools", "call", "place_order", "{}"]);
    expectExit(r, 2);
    expect(String(r.stdout)).toMatch(/"error_code": "unknown_tool"/);
    const bad = await twIn(home, ["tools", "call", "get_portfolio", "{}", "--as-of", "tomorrow"]);
    expectExit(bad, 2);
    expect(String(bad.stderr)).toMatch(/--as-of must be a day/);
  }, 60_000);
});
