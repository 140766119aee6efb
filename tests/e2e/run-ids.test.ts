/**
 * Run ids as a person types them, through the real CLI: `latest` and a unique prefix name a run in
 * `audit`, `replay`, `export` and `journal --run`; an ambiguous prefix is a usage error (exit 2)
 * listing the candidates; a prefix that matches nothing says so.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

test("`latest` is the journal's last run: a folder that is no run is never picked, and a run whose folder is gone is a finding (exit 1)", async () => {
  const home = freshHome();
  for (let i = 0; i < 2; i++) expectExit(await twIn(home, ["run", "--yes"]), 0);
  const [first, last] = runIds(home) as [string, string];
  mkdirSync(join(home, "runs", "backup"));
  const [audit, exported] = await Promise.all([twIn(home, ["audit", "latest"]), twIn(home, ["export", "latest"])]);
  expectExit(audit, 0);
  expect(String(audit.stdout)).toContain(`audit ok: ${join(home, "runs", last)}`);
  expectExit(exported, 0);
  expect(JSON.parse(String(exported.stdout))).toMatchObject({ run_id: last });

  rmSync(join(home, "runs", last), { recursive: true });
  const [gone, goneJson, replay, exportGone, older] = await Promise.all([
    twIn(home, ["audit", "latest"]),
    twIn(home, ["audit", last.slice(0, 20), "--json"]),
    twIn(home, ["replay", "latest"]),
    twIn(home, ["export", "latest"]),
    twIn(home, ["audit", first]),
  ]);
  expectExit(gone, 1);
  expect(String(gone.stdout)).toContain(`[files] run ${last} is in the journal, but its folder ${join(home, "runs", last)} is gone`);
  expectExit(goneJson, 1);
  expect(JSON.parse(String(goneJson.stdout))).toMatchObject({ ok: false, findings: [{ check: "files" }] });
  expectExit(replay, 1);
  expect(String(replay.stderr)).toContain(`tradewarden replay: run ${last} is in the journal, but its folder`);
  expectExit(exportGone, 1);
  expect(String(exportGone.stderr)).toContain(`tradewarden export: run ${last} is in the journal, but its folder`);
  expectExit(older, 0);
}, 90_000);

test("`journal` without --json keeps the runs --run, --from and --to name; an unknown --run is a usage error", async () => {
  const home = freshHome();
  for (let i = 0; i < 3; i++) expectExit(await twIn(home, ["run", "--yes"]), 0);
  const ids = runIds(home);
  const days = (JSON.parse(String((await twIn(home, ["journal", "--json"])).stdout)) as { runs: { run_id: string; trading_day: string }[] }).runs;
  const dayOf = (id: string) => days.find((r) => r.run_id === id)?.trading_day as string;
  const listed = (out: unknown) => ids.filter((id) => String(out).includes(id));
  const [latest, from, both, unknown] = await Promise.all([
    twIn(home, ["journal", "--run", "latest"]),
    twIn(home, ["journal", "--from", dayOf(ids[1] as string)]),
    twIn(home, ["journal", "--from", dayOf(ids[0] as string), "--to", dayOf(ids[0] as string)]),
    twIn(home, ["journal", "--run", "1999"]),
  ]);
  expectExit(latest, 0);
  expect(listed(latest.stdout)).toEqual([ids[2]]);
  expectExit(from, 0);
  expect(listed(from.stdout)).toEqual([ids[1], ids[2]]);
  expectExit(both, 0);
  expect(listed(both.stdout)).toEqual([ids[0]]);
  expectExit(unknown, 2);
  expect(String(unknown.stderr)).toContain('no run "1999" in the journal');
}, 90_000);

test("`journal` shows a journal whose hash chain is broken under a warning naming where (as `journal verify` reads it)", async () => {
  const home = freshHome();
  for (let i = 0; i < 2; i++) expectExit(await twIn(home, ["run", "--yes"]), 0);
  const log = join(home, "journal.log.jsonl");
  const lines = readFileSync(log, "utf8").split("\n");
  const at = lines.findIndex((l) => l.includes('"run_start"'));
  // One character, the line's length kept (the head's commit mark still fits): a start time a year later.
  const edited = (lines[at] as string).replace(/"started_at":"(\d{4})/, (_m, y: string) => `"started_at":"${Number(y) + 1}`);
  expect(edited).not.toBe(lines[at]);
  expect(edited.length).toBe((lines[at] as string).length);
  lines[at] = edited;
  writeFileSync(log, lines.join("\n"));
  for (const args of [["journal"], ["journal", "--json"]]) {
    const r = await twIn(home, args);
    expectExit(r, 0);
    expect(String(r.stderr), args.join(" ")).toMatch(
      /tradewarden journal: warning: the journal's hash chain is broken \(event log line \d+ .*`tradewarden journal verify` says more/,
    );
  }
}, 90_000);
