/**
 * `schedule install` / `remove`: a systemd user timer where systemd runs for this user, a crontab
 * line otherwise. The unit and crontab texts are pure; the actions run `systemctl --user` and
 * `crontab` found on PATH, and say what they did. What install did is recorded in the home, so
 * remove undoes exactly that: the two unit files it wrote, or the two crontab lines it added.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { TICK_MINUTES } from "../config/schedule.js";
import { writeFileAtomicSync } from "../util/atomic-write.js";
import type { InstallRecord } from "./store.js";

const UNIT = "tradewarden-tick";

/** Where systemd looks for this user's units: $XDG_CONFIG_HOME/systemd/user, else ~/.config/systemd/user. */
function unitDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME ?? "", ".config");
  return join(base, "systemd", "user");
}

/** A word of an ExecStart line: quoted when it holds anything but plain path characters; `%` doubled (systemd specifiers). */
const unitWord = (w: string) => (/^[A-Za-z0-9_./:@+=-]+$/.test(w) ? w : `"${w.replace(/[\\"]/g, "\\$&")}"`).replace(/%/g, "%%");
/** A word of a crontab command (sh): single-quoted when needed; `%` escaped (cron turns it into a newline). */
const shWord = (w: string) => (/^[A-Za-z0-9_./:@+=-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`).replace(/%/g, "\\%");

function serviceText(home: string, command: readonly string[]): string {
  return [
    "[Unit]",
    `Description=tradewarden tick: the daily run in its schedule slots (home ${home})`,
    "",
    "[Service]",
    "Type=oneshot",
    `ExecStart=${command.map(unitWord).join(" ")}`,
    "",
  ].join("\n");
}

/** Every 15 minutes on the market's weekdays, in the market's time zone (the tick decides the rest). */
function timerText(timezone: string): string {
  return [
    "[Unit]",
    `Description=tradewarden tick every ${TICK_MINUTES} minutes on weekdays`,
    "",
    "[Timer]",
    `OnCalendar=Mon..Fri *-*-* *:00/${TICK_MINUTES}:00 ${timezone}`,
    "AccuracySec=1min",
    "",
    "[Install]",
    "WantedBy=timers.target",
    "",
  ].join("\n");
}

/** The marker comment and the entry (every 15 minutes: cron's weekdays are the machine's, so the tick decides the market's). */
function cronLines(home: string, command: readonly string[]): [string, string] {
  return [
    `# tradewarden schedule for ${home} (added by \`tradewarden schedule install\`; \`tradewarden schedule remove\` takes these two lines out)`,
    `*/${TICK_MINUTES} * * * * ${command.map(shWord).join(" ")} >> ${shWord(join(home, "schedule", "tick.log"))} 2>&1`,
  ];
}

interface Ran {
  ok: boolean;
  stdout: string;
  said: string;
}

function run(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv, input?: string): Ran {
  const r = spawnSync(cmd, args, { env, encoding: "utf8", timeout: 30_000, ...(input !== undefined ? { input } : {}) });
  if (r.error) return { ok: false, stdout: "", said: `${cmd}: ${r.error.message}` };
  const said = `${r.stdout ?? ""}${r.stderr ?? ""}`.trim();
  return { ok: r.status === 0, stdout: r.stdout ?? "", said: said || `${cmd} ${args.join(" ")} exited ${r.status}` };
}

/** Whether systemd manages this user's services: `systemctl --user is-system-running` answers running (or degraded: running, some unit failed). */
export function systemdAvailable(env: NodeJS.ProcessEnv): { yes: boolean; why: string } {
  const r = run("systemctl", ["--user", "is-system-running"], env);
  const state = r.stdout.trim();
  if (state === "running" || state === "degraded") return { yes: true, why: `systemd runs for this user (${state})` };
  return { yes: false, why: `systemd does not run for this user (${r.said.split("\n")[0]})` };
}

function fail(what: string, r: Ran): never {
  throw new Error(`${what} failed: ${r.said}`);
}

export function installSystemd(home: string, command: readonly string[], timezone: string, env: NodeJS.ProcessEnv): InstallRecord {
  const dir = unitDir(env);
  mkdirSync(dir, { recursive: true });
  const files = [join(dir, `${UNIT}.service`), join(dir, `${UNIT}.timer`)];
  writeFileAtomicSync(files[0] as string, serviceText(home, command));
  writeFileAtomicSync(files[1] as string, timerText(timezone));
  const reload = run("systemctl", ["--user", "daemon-reload"], env);
  if (!reload.ok) fail("systemctl --user daemon-reload", reload);
  const enable = run("systemctl", ["--user", "enable", "--now", `${UNIT}.timer`], env);
  if (!enable.ok) fail(`systemctl --user enable --now ${UNIT}.timer`, enable);
  return { kind: "systemd", installed_at: new Date().toISOString(), command: [...command], files, cron_lines: [] };
}

function currentCrontab(env: NodeJS.ProcessEnv): string {
  const r = run("crontab", ["-l"], env);
  // `crontab -l` exits 1 with "no crontab for USER" when there is none: an empty table.
  if (!r.ok && !/no crontab/i.test(r.said)) fail("crontab -l", r);
  return r.ok ? r.stdout : "";
}

/** The table without the given lines (each taken out once, where they stand together). */
function withoutLines(table: string, lines: readonly string[]): string {
  const rows = table.split("\n");
  const at = rows.findIndex((_, i) => lines.every((l, k) => rows[i + k] === l));
  if (at >= 0) rows.splice(at, lines.length);
  return rows.join("\n");
}

function writeCrontab(table: string, env: NodeJS.ProcessEnv): void {
  const text = table.replace(/\n*$/, "\n");
  const r = run("crontab", ["-"], env, text === "\n" ? "" : text);
  if (!r.ok) fail("crontab -", r);
}

export function installCron(home: string, command: readonly string[], env: NodeJS.ProcessEnv, previous: readonly string[]): InstallRecord {
  const lines = cronLines(home, command);
  const table = withoutLines(currentCrontab(env), previous.length > 0 ? previous : lines).replace(/\n*$/, "");
  writeCrontab(`${table}${table ? "\n" : ""}${lines.join("\n")}\n`, env);
  return { kind: "cron", installed_at: new Date().toISOString(), command: [...command], files: [], cron_lines: lines };
}

/** Undoes an install: what it says it did, and nothing else. Returns what was done, a line each. */
export function uninstall(rec: InstallRecord, env: NodeJS.ProcessEnv): string[] {
  const done: string[] = [];
  if (rec.kind === "systemd") {
    const timer = rec.files.find((f) => f.endsWith(".timer"));
    if (timer) {
      const r = run("systemctl", ["--user", "disable", "--now", `${UNIT}.timer`], env);
      done.push(r.ok ? `stopped and disabled ${UNIT}.timer` : `systemctl --user disable --now ${UNIT}.timer: ${r.said}`);
    }
    for (const f of rec.files) {
      if (!existsSync(f)) continue;
      rmSync(f, { force: true });
      done.push(`removed ${f}`);
    }
    const reload = run("systemctl", ["--user", "daemon-reload"], env);
    if (!reload.ok) done.push(`systemctl --user daemon-reload: ${reload.said}`);
    return done;
  }
  const table = currentCrontab(env);
  const without = withoutLines(table, rec.cron_lines);
  if (without === table) return ["the crontab no longer holds the schedule's lines: nothing to take out"];
  writeCrontab(without, env);
  return [`took the schedule's ${rec.cron_lines.length} lines out of the crontab`];
}

/** A unit file already there that another install wrote (another home), if any. */
export function foreignUnit(home: string, env: NodeJS.ProcessEnv): string | null {
  const f = join(unitDir(env), `${UNIT}.service`);
  if (!existsSync(f)) return null;
  return readFileSync(f, "utf8").includes(`(home ${home})`) ? null : f;
}
