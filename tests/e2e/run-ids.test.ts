/**
 * Run ids as a person types them, through the real CLI: `latest` and a unique prefix name a run in
 * `audit`, `replay`, `export` and `journal --run`; an ambiguous prefix is a usage error (exit 2)
 * listing the candidates; a prefix that matches nothing says so.
 */
import { cpSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { cleanupHomes, expectExit, freshHome, runIds, twIn } from "./helpers.js";

afterAll(cleanupHomes);

test("latest and unique prefixes resolve; ambiguous and unknown ones are clear usage errors", async () => {
  const home = freshHome();
  expectExit(await twIn(home, ["run", "--yes"]), 0);
  const id = runIds(home)[0] as string;
  // an older run folder sharing the first two characters of every id
  const older = "20000101T000000Z-000000";
  cpSync(join(home, "runs", id), join(home, "runs", older), { recursive: true });
  const prefix = id.slice(0, 8);

  const [audit, exported, replay, journal] = await Promise.all([
    twIn(home, ["audit", "latest"]),
    twIn(home, ["export", prefix]),
    twIn(home, ["replay", "latest", "--json"]),
    twIn(home, ["journal", "--json", "--run", "latest"]),
  ]);
  expectExit(audit, 0);
  expect(String(audit.stdout)).toContain(`audit ok: ${join(home, "runs", id)}`);
  expectExit(exported, 0);
  expect(JSON.parse(String(exported.stdout))).toMatchObject({ run_id: id });
  expectExit(replay, 0);
  expect(JSON.parse(String(replay.stdout))).toMatchObject({ ok: true, runId: id });
  expectExit(journal, 0);
  expect(JSON.parse(String(journal.stdout)).runs.map((r: { run_id: string }) => r.run_id)).toEqual([id]);

  const [ambiguous, unknown, journalUnknown] = await Promise.all([
    twIn(home, ["audit", "20"]),
    twIn(home, ["export", "1999"]),
    twIn(home, ["journal", "--json", "--run", "1999"]),
  ]);
  expectExit(ambiguous, 2);
  expect(String(ambiguous.stderr)).toContain(`tradewarden audit: "20" matches 2 runs: ${older}, ${id}`);
  expectExit(unknown, 2);
  expect(String(unknown.stderr)).toMatch(/tradewarden export: no run "1999" in .*runs \(give a run id, a unique prefix of one, or `latest`\)/);
  expectExit(journalUnknown, 2);
  expect(String(journalUnknown.stderr)).toContain('no run "1999" in the journal');
}, 90_000);
