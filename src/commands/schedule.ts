/**
 * `tradewarden schedule install|status|remove`. install writes a systemd user timer (or, where
 * systemd does not run for this user, a crontab entry) that runs `tradewarden tick` every 15
 * minutes, and records what it did in the home; remove undoes exactly that; status shows the
 * schedule, its heartbeat and its last attempts (`--json` too).
 */
import { join } from "node:path";
import { requireConfig } from "../config/require.js";
import { TwError } from "../core/errors.js";
import { EXIT } from "../core/exit-codes.js";
import { quantity } from "../core/format.js";
import { openJournal } from "../journal/journal.js";
import { noticeTo } from "../journal/load.js";
import { MarketData } from "../market/data.js";
import { simTradingDay } from "../run/market-open.js";
import { foreignUnit, installCron, installSystemd, systemdAvailable, uninstall } from "../schedule/install.js";
import { type ScheduleStatus, scheduleStatus, windowIn } from "../schedule/status.js";
import { readInstall, type ScheduleLogRecord, writeInstall } from "../schedule/store.js";
import { packageRoot } from "../util/paths.js";
import { schedulerNow } from "../util/test-clock.js";
import type { CommandIO } from "./io.js";

/** This exact command: the node running now, this package's bin, the home. */
function tickCommand(home: string): string[] {
  return [process.execPath, join(packageRoot(), "bin", "tradewarden.js"), "tick", "--home", home];
}

export function cmdScheduleInstall(opts: { home: string }, io: CommandIO): number {
  const { config } = requireConfig(opts.home);
  const command = tickCommand(opts.home);
  const previous = readInstall(opts.home);
  const systemd = systemdAvailable(io.env);
  if (previous && previous.kind !== (systemd.yes ? "systemd" : "cron")) uninstall(previous, io.env);
  let rec: ReturnType<typeof installCron>;
  if (systemd.yes) {
    const foreign = foreignUnit(opts.home, io.env);
    if (foreign)
      throw new TwError(
        "schedule_taken",
        `${foreign} runs the tick of another home; remove it there first (\`tradewarden --home OTHER schedule remove\`)`,
        EXIT.USAGE_OR_CONFIG,
      );
    rec = installSystemd(opts.home, command, config.schedule.timezone, io.env);
    io.stdout(
      `${systemd.why}: installed a systemd user timer\n${rec.files.map((f) => `  wrote ${f}\n`).join("")}  enabled and started tradewarden-tick.timer\n`,
    );
  } else {
    rec = installCron(opts.home, command, io.env, previous?.kind === "cron" ? previous.cron_lines : []);
    io.stdout(`${systemd.why}: added a crontab entry instead\n${rec.cron_lines.map((l) => `  ${l}\n`).join("")}`);
  }
  writeInstall(opts.home, rec);
  io.stdout(
    `every 15 minutes it runs: ${command.join(" ")}\n\`tradewarden schedule status\` shows what it does; \`tradewarden schedule remove\` undoes this\n`,
  );
  return EXIT.OK;
}

export function cmdScheduleRemove(opts: { home: string }, io: CommandIO): number {
  const rec = readInstall(opts.home);
  if (!rec) {
    io.stdout(`the schedule is not installed for ${opts.home}: nothing to remove\n`);
    return EXIT.OK;
  }
  for (const line of uninstall(rec, io.env)) io.stdout(`${line}\n`);
  writeInstall(opts.home, null);
  io.stdout("the schedule is removed (its attempts and heartbeat stay in the home's schedule/ folder)\n");
  return EXIT.OK;
}

export async function loadScheduleStatus(home: string, now: Date, notice?: (message: string) => void): Promise<ScheduleStatus> {
  const { config } = requireConfig(home);
  const journal = await openJournal(home, { timezone: config.account.timezone, readOnly: true, ...(notice ? { notice } : {}) });
  let isTradingDay: ((day: string) => boolean) | undefined;
  if (config.broker.kind === "sim") {
    const market = MarketData.load({ home });
    isTradingDay = (day) => simTradingDay(market, day);
  }
  return scheduleStatus({
    home,
    schedule: config.schedule,
    accountTimezone: config.account.timezone,
    now,
    runs: journal.runs(),
    ...(isTradingDay ? { isTradingDay } : {}),
  });
}

export async function cmdScheduleStatus(opts: { home: string; json: boolean }, io: CommandIO): Promise<number> {
  const s = await loadScheduleStatus(opts.home, schedulerNow(), noticeTo(io.stderr));
  io.stdout(opts.json ? `${JSON.stringify(s)}\n` : formatStatus(s));
  return EXIT.OK;
}

function recordLine(r: ScheduleLogRecord): string {
  if (r.kind === "skip") return `  ${r.day} ${r.slot.padEnd(10)} skipped (${r.reason}): ${r.message.split(";")[0]}`;
  return `  ${r.day} ${r.slot.padEnd(10)} attempt ${quantity(r.attempt)}: exit ${r.exit_code}  run ${r.run_id ?? "(none)"}  ${r.started_at.slice(0, 16).replace("T", " ")} UTC`;
}

export function formatStatus(s: ScheduleStatus): string {
  const inst = s.installed
    ? `installed (${s.installed.kind === "systemd" ? "systemd user timer" : "crontab entry"}, since ${s.installed.installed_at.slice(0, 16).replace("T", " ")} UTC)`
    : "not installed (`tradewarden schedule install`)";
  const now = new Date(s.now);
  const lines = [
    `schedule: ${inst}`,
    `mode ${s.mode === "yes" ? "yes (approves what the final gate approves)" : "supervised (proposes; you decide with `tradewarden approve`)"}, ${quantity(s.attempts_per_slot)} attempts per slot`,
    `slots (${s.timezone}, trading days):`,
    ...s.slots.map(
      (x) =>
        `  ${x.name.padEnd(10)} ${x.start}–${x.end}  (account time ${windowIn([x.start, x.end], s.timezone, s.account_timezone, now)} ${s.account_timezone})`,
    ),
    s.next_slot
      ? `next slot: ${s.next_slot.slot} ${s.next_slot.market_time} (market) · ${s.next_slot.account_time} (account)`
      : "next slot: none in the next three weeks",
    s.heartbeat ? `heartbeat: ${quantity(s.heartbeat.age_minutes)} min ago (${s.heartbeat.at}): ${s.heartbeat.did}` : "heartbeat: none yet (no tick has run)",
  ];
  if (s.silent)
    lines.push(`SILENT: no tick for ${quantity(s.silent.minutes)} min while slot ${s.silent.slot} of ${s.silent.day} was due: is the timer running?`);
  lines.push(s.last.length > 0 ? "last attempts:" : "last attempts: none yet", ...s.last.map(recordLine));
  lines.push(`runs: ${quantity(s.runs.scheduled)} scheduled, ${quantity(s.runs.manual)} manual`);
  for (const r of s.runs.recent.slice().reverse())
    lines.push(
      `  ${r.run_id.padEnd(30)} ${r.trading_day}  ${r.trigger.padEnd(9)} ${r.outcome ?? "running"}${r.exit_code === null ? "" : ` (exit ${r.exit_code})`}`,
    );
  return `${lines.join("\n")}\n`;
}
