/**
 * `schedule install` / `status` / `remove` in a temporary user environment: a fake `systemctl` and
 * a fake `crontab` on PATH record their calls (and the crontab keeps its table in a file); HOME
 * and XDG_CONFIG_HOME point into a temporary folder. The unit files and the crontab lines are
 * checked word for word, and remove leaves exactly what was there before. The commands run in this
 * process (src/cli.tsx `main`), the fakes as real child processes of it.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, cleanupHomes, expectExit, freshHome, twIn } from "../e2e/helpers.js";
import { commandReceiver } from "../notify/receivers.js";

const dirs: string[] = [];
afterAll(() => {
  cleanupHomes();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A user environment with fake systemctl and crontab; `systemd` says whether systemd runs for the user. */
function userEnv(systemd: boolean) {
  const root = mkdtempSync(join(tmpdir(), "tw-sched-"));
  dirs.push(root);
  const bin = join(root, "bin");
  mkdirSync(bin);
  const calls = join(root, "calls.log");
  const table = join(root, "crontab.txt");
  writeFileSync(
    join(bin, "systemctl"),
    `#!/bin/sh\necho "systemctl $*" >> "${calls}"\nif [ "$2" = "is-system-running" ]; then\n${systemd ? "  echo running; exit 0" : '  echo "Failed to connect to bus: No medium found" >&2; echo offline; exit 1'}\nfi\nexit 0\n`,
  );
  writeFileSync(
    join(bin, "crontab"),
    `#!/bin/sh\necho "crontab $*" >> "${calls}"\nif [ "$1" = "-l" ]; then\n  if [ -f "${table}" ]; then cat "${table}"; exit 0; fi\n  echo "no crontab for tester" >&2; exit 1\nfi\nif [ "$1" = "-" ]; then cat > "${table}"; exit 0; fi\nexit 2\n`,
  );
  chmodSync(join(bin, "systemctl"), 0o755);
  chmodSync(join(bin, "crontab"), 0o755);
  const env = { PATH: `${bin}:${process.env.PATH ?? ""}`, HOME: join(root, "home"), XDG_CONFIG_HOME: join(root, "xdg") };
  const callsSoFar = () => (existsSync(calls) ? readFileSync(calls, "utf8").trim().split("\n") : []);
  return { env, table, callsSoFar, unitDir: join(root, "xdg", "systemd", "user") };
}

describe("schedule install / status / remove", () => {
  it("with systemd: a user timer and service calling this exact tick; remove takes both out", { timeout: 120_000 }, async () => {
    const u = userEnv(true);
    const home = freshHome();
    const r = await twIn(home, ["schedule", "install"], { env: u.env });
    expectExit(r, 0);
    expect(String(r.stdout)).toContain("systemd runs for this user (running): installed a systemd user timer");
    const service = readFileSync(join(u.unitDir, "tradewarden-tick.service"), "utf8");
    const timer = readFileSync(join(u.unitDir, "tradewarden-tick.timer"), "utf8");
    expect(service).toBe(
      [
        "[Unit]",
        `Description=tradewarden tick: the daily run in its schedule slots (home ${home})`,
        "",
        "[Service]",
        "Type=oneshot",
        `ExecStart=${process.execPath} ${BIN} tick --home ${home}`,
        "",
      ].join("\n"),
    );
    expect(timer).toContain("OnCalendar=Mon..Fri *-*-* *:00/15:00 America/New_York\n");
    expect(timer).toContain("[Install]\nWantedBy=timers.target\n");
    expect(u.callsSoFar()).toEqual([
      "systemctl --user is-system-running",
      "systemctl --user daemon-reload",
      "systemctl --user enable --now tradewarden-tick.timer",
    ]);

    const st = JSON.parse(String((await twIn(home, ["schedule", "status", "--json"], { env: u.env })).stdout)) as {
      installed: { kind: string; files: string[] };
    };
    expect(st.installed.kind).toBe("systemd");
    expect(String((await twIn(home, ["schedule", "status"], { env: u.env })).stdout)).toContain("schedule: installed (systemd user timer");

    const rm = await twIn(home, ["schedule", "remove"], { env: u.env });
    expectExit(rm, 0);
    expect(existsSync(join(u.unitDir, "tradewarden-tick.service"))).toBe(false);
    expect(existsSync(join(u.unitDir, "tradewarden-tick.timer"))).toBe(false);
    expect(existsSync(join(home, "schedule", "install.json"))).toBe(false);
    expect(u.callsSoFar().slice(3)).toEqual(["systemctl --user disable --now tradewarden-tick.timer", "systemctl --user daemon-reload"]);
    expect(String((await twIn(home, ["schedule", "status"], { env: u.env })).stdout)).toContain("schedule: not installed");
  });

  it("without systemd: a marked crontab entry beside the user's own lines; remove leaves the table as it was", { timeout: 120_000 }, async () => {
    const u = userEnv(false);
    const mine = "# my own jobs\n0 5 * * * echo mine\n";
    writeFileSync(u.table, mine);
    const home = freshHome();
    const r = await twIn(home, ["schedule", "install"], { env: u.env });
    expectExit(r, 0);
    expect(String(r.stdout)).toContain("systemd does not run for this user");
    expect(String(r.stdout)).toContain("added a crontab entry instead");
    const entry = `*/15 * * * * ${process.execPath} ${BIN} tick --home ${home} >> ${join(home, "schedule", "tick.log")} 2>&1`;
    expect(readFileSync(u.table, "utf8")).toBe(
      `${mine}# tradewarden schedule for ${home} (added by \`tradewarden schedule install\`; \`tradewarden schedule remove\` takes these two lines out)\n${entry}\n`,
    );
    // Installing again replaces its own lines, never adds a second entry.
    expectExit(await twIn(home, ["schedule", "install"], { env: u.env }), 0);
    expect(
      readFileSync(u.table, "utf8")
        .split("\n")
        .filter((l) => l.includes("tick --home")),
    ).toHaveLength(1);
    expect(existsSync(u.unitDir)).toBe(false);

    const st = JSON.parse(String((await twIn(home, ["schedule", "status", "--json"], { env: u.env })).stdout)) as { installed: { kind: string } };
    expect(st.installed.kind).toBe("cron");

    expectExit(await twIn(home, ["schedule", "remove"], { env: u.env }), 0);
    expect(readFileSync(u.table, "utf8")).toBe(mine);
    expect(existsSync(join(home, "schedule", "install.json"))).toBe(false);
    const again = await twIn(home, ["schedule", "remove"], { env: u.env });
    expect(String(again.stdout)).toContain("not installed");
  });

  it("doctor: installed and ticking is fine; silent while a slot was due fails with the fix, and the [notify] channels hear it", {
    timeout: 120_000,
  }, async () => {
    const u = userEnv(false);
    const cmd = commandReceiver();
    const home = freshHome(["[notify]", "[[notify.channels]]", 'kind = "command"', `command = ${JSON.stringify(cmd.argv)}`, ""].join("\n"));
    expectExit(await twIn(home, ["schedule", "install"], { env: u.env }), 0);
    // A tick on Tuesday 16 January 2007 at 09:00 New York (no slot due), then nothing until 11:00.
    expectExit(await twIn(home, ["tick"], { env: u.env, now: "2007-01-16T14:00:00Z" }), 0);
    type Check = { id: string; ok: boolean; summary: string; fix?: string };
    const doctor = async (now: string) =>
      (JSON.parse(String((await twIn(home, ["doctor", "--json"], { env: u.env, now })).stdout)) as { checks: Check[] }).checks.filter((c) =>
        c.id.startsWith("schedule."),
      );
    expect(await doctor("2007-01-16T14:20:00Z")).toEqual([expect.objectContaining({ id: "schedule.heartbeat", ok: true })]);
    const [silent] = await doctor("2007-01-16T16:00:00Z");
    expect(silent).toMatchObject({ id: "schedule.heartbeat", ok: false });
    expect(silent?.summary).toContain("silent: no tick for 120 min while slot morning of 2007-01-16 was due");
    expect(silent?.fix).toContain("crontab -l");
    // The tick that comes back says the scheduler was silent.
    const back = await twIn(home, ["tick"], { env: u.env, now: "2007-01-16T16:00:00Z", faults: "run.services=enospc" });
    expect(String(back.stderr)).toContain("the scheduler was silent for 120 min");
    // Doctor only reports; the tick that comes back sends the one notice of the silence.
    const notices = cmd.messages().filter((m) => m.event === "scheduler_silent");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ minutes_silent: 120 });
  });
});
