/** `tradewarden export` through the real CLI: both formats of a recorded run; usage errors exit 2. */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { tradecatProblems } from "../../src/run/tradecat-rules.js";
import { cleanupHomes, expectExit, freshHome, runIds, twIn } from "./helpers.js";

afterAll(cleanupHomes);

test("export prints the run's envelope (json) or its TradeCat record (tradecat), derived again when the file is gone", async () => {
  const home = freshHome();
  expectExit(await twIn(home, ["run", "--yes"]), 0);
  const id = runIds(home)[0] as string;
  const [json, tradecat] = await Promise.all([twIn(home, ["export", id]), twIn(home, ["export", id, "--format", "tradecat"])]);
  expectExit(json, 0);
  expect(JSON.parse(String(json.stdout))).toMatchObject({ schema: "tradewarden.research_cycle.v1", run_id: id });
  expectExit(tradecat, 0);
  const doc = JSON.parse(String(tradecat.stdout));
  expect(doc).toMatchObject({ schema: "tradecat_auto.agent_research_cycle.v1", run_id: id, mode: "paper" });
  expect(tradecatProblems(doc)).toEqual([]);
  // a run recorded before the export existed: derived from its artifacts, the same record
  rmSync(join(home, "runs", id, "tradecat-research-cycle.json"));
  const again = await twIn(home, ["export", id, "--format", "tradecat"]);
  expectExit(again, 0);
  expect(JSON.parse(String(again.stdout))).toEqual(doc);
  const [bad, missing] = await Promise.all([twIn(home, ["export", id, "--format", "xml"]), twIn(home, ["export", "no-such-run"])]);
  expectExit(bad, 2);
  expectExit(missing, 2);
  expect(String(missing.stderr)).toContain('no run "no-such-run"');
}, 60_000);
