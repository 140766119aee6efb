/**
 * A simulated day writes its artifacts once (issue #26): one packed bundle holding its events,
 * transcript, cassette and the facts its envelopes are built from, but neither envelope. `export`
 * (json and tradecat) derives them, `audit` derives and checks them, and an edit of the kept facts
 * is found. A daily run still writes its envelopes, and export reads them as written.
 */
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditRunDir } from "../../src/records/audit.js";
import { PACKED_FILE, readArtifact } from "../../src/run/artifacts.js";
import { cleanupHomes, expectExit, freshHome, twIn } from "../e2e/helpers.js";

afterAll(cleanupHomes);

let sim = "";
let runId = "";
let runDir = "";
beforeAll(async () => {
  const home = freshHome();
  expectExit(await twIn(home, ["simulate", "--from", "2010-01-04", "--to", "2010-01-06", "--name", "s"]), 0);
  sim = join(home, "simulations", "s");
  runId = readdirSync(join(sim, "runs")).sort()[1] as string;
  runDir = join(sim, "runs", runId);
}, 120_000);

describe("a simulated day's envelopes, derived", () => {
  it("the day's folder holds one packed file, without envelopes but with the facts they come from", () => {
    expect(readdirSync(runDir)).toEqual([PACKED_FILE]);
    expect(readArtifact(runDir, "researchCycle")).toBeNull();
    expect(readArtifact(runDir, "tradecat")).toBeNull();
    const facts = JSON.parse(readArtifact(runDir, "envelopeFacts") ?? "null") as { runId: string; tradingDay: string };
    expect(facts.runId).toBe(runId);
    expect(facts.tradingDay).toBe("2010-01-05");
  });

  it("export derives the research-cycle envelope and the TradeCat record", async () => {
    const json = await twIn(sim, ["export", runId]);
    expectExit(json, 0);
    const cycle = JSON.parse(String(json.stdout)) as { run_id: string; trading_day: string; tool_calls: unknown[]; safety: { broker_endpoint_kind: string } };
    expect(cycle.run_id).toBe(runId);
    expect(cycle.trading_day).toBe("2010-01-05");
    expect(cycle.tool_calls.length).toBeGreaterThan(0);
    expect(cycle.safety.broker_endpoint_kind).toBe("simulated");
    const tc = await twIn(sim, ["export", runId, "--format", "tradecat"]);
    expectExit(tc, 0);
    expect((JSON.parse(String(tc.stdout)) as { schema: string }).schema).toBe("tradecat_auto.agent_research_cycle.v1");
  });

  it("audit derives and checks them: clean as written, and a changed fact is found", () => {
    expect(auditRunDir(runDir, {})).toEqual([]);
    const facts = readArtifact(runDir, "envelopeFacts") ?? "";
    // A plain file beside the bundle is read in its place (as an unpacked run's would be).
    const path = join(runDir, "envelope-facts.json");
    writeFileSync(path, facts.replace('"tradingDay":"2010-01-05"', '"tradingDay":"2010-01-06"'));
    try {
      const found = auditRunDir(runDir, {}).map((f) => `[${f.check}] ${f.message}`);
      expect(found.some((f) => f.startsWith("[digests]") && f.includes("envelope-facts.json was changed"))).toBe(true);
    } finally {
      rmSync(path);
    }
    expect(auditRunDir(runDir, {})).toEqual([]);
  });
});
