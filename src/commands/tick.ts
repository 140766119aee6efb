/**
 * `tradewarden tick`: what the installed timer runs every 15 minutes. Cheap when nothing is due: it
 * reads the config and the schedule's log, beats the heartbeat and says so. When a slot's window
 * is open on a market weekday and the slot is neither done nor out of attempts, it takes the home's
 * lock (held: a skip is recorded, the tick ends cleanly), asks the market calendar whether the
 * market trades (closed: recorded once, no model call), and runs the daily run in this process, as
 * `run` does, with the slot's mode; each attempt is recorded with its exit code and run id. The
 * tick itself exits 0 whenever it did its job (the run's exit code is in the record and in status).
 */
import type { NotifyConfig } from "../config/notify-schema.js";
import type { ScheduleConfig } from "../config/schedule.js";
import { requireConfig } from "../config/require.js";
import { TwError } from "../core/errors.js";
import { EXIT, EXIT_TABLE } from "../core/exit-codes.js";
import { acquireLock, type LockHandle } from "../journal/lock.js";
import { existsSync } from "node:fs";
import { marketOpenFor } from "../run/market-open.js";
import { newRunId } from "../run/pipeline.js";
import { homePaths } from "../util/paths.js";
import { schedulerSilent } from "../run/scheduler-silent.js";
import { localTime, type SlotWindow, silentThrough, slotAt, windowsAfter } from "../schedule/slots.js";
import { appendRecord, type Heartbeat, readHeartbeat, readLog, slotState, writeHeartbeat } from "../schedule/store.js";
import { schedulerNow } from "../util/test-clock.js";
import type { CommandIO } from "./io.js";
import { cmdRun } from "./run.js";

const meaning = (code: number) => EXIT_TABLE.find((e) => e.code === code)?.meaning ?? "unknown exit code";

export async function cmdTick(opts: { home: string }, io: CommandIO): Promise<number> {
  const { config } = requireConfig(opts.home);
  const cfg = config.schedule;
  const now = schedulerNow();
  const previous = readHeartbeat(opts.home);
  const beat = (did: string): Heartbeat => ({ at: now.toISOString(), pid: process.pid, did });
  if (previous) {
    const missed = silentThrough(new Date(previous.at), now, cfg);
    if (missed) await announceSilence(opts.home, previous, now, missed, io, config.notify);
  }
  writeHeartbeat(opts.home, beat("ticking"));
  const did = await tickOnce(opts.home, cfg, now, io);
  writeHeartbeat(opts.home, beat(did));
  io.stdout(`tick ${localTime(now, cfg.timezone)}: ${did}\n`);
  return EXIT.OK;
}

async function announceSilence(home: string, previous: Heartbeat, now: Date, missed: SlotWindow, io: CommandIO, notify: NotifyConfig): Promise<void> {
  const minutesSilent = Math.floor((now.getTime() - Date.parse(previous.at)) / 60_000);
  await schedulerSilent({ home, lastHeartbeat: previous.at, minutesSilent, missed: `${missed.slot} of ${missed.day}`, notify }, (line) =>
    io.stderr(`tradewarden tick: ${line}\n`),
  );
}

function nextText(now: Date, cfg: ScheduleConfig): string {
  const [next] = windowsAfter(now, cfg, 1);
  return next ? `next: ${next.slot} ${localTime(next.opens, cfg.timezone)}` : "no slot ahead";
}

async function tickOnce(home: string, cfg: ScheduleConfig, now: Date, io: CommandIO): Promise<string> {
  const w = slotAt(now, cfg);
  if (!w) return `no slot is due (${nextText(now, cfg)})`;
  const settled = slotDecided(home, cfg, w);
  if (settled) return settled;
  let lock: LockHandle;
  try {
    lock = await acquireLock(home, "run", { command: "tradewarden tick" });
  } catch (e) {
    if (!(e instanceof TwError) || e.code !== "locked") throw e;
    appendRecord(home, { kind: "skip", slot: w.slot, day: w.day, at: now.toISOString(), reason: "locked", message: e.message });
    return `slot ${w.slot} of ${w.day} is due but another tradewarden process holds the home: skipped (the next tick tries again)`;
  }
  try {
    return await attemptLocked(home, cfg, now, w, lock, io);
  } finally {
    await lock.release();
  }
}

/** Why the slot needs no attempt now (done, out of attempts), or null. */
function slotDecided(home: string, cfg: ScheduleConfig, w: SlotWindow): string | null {
  const st = slotState(readLog(home).records, w, cfg.attempts);
  if (st.done) return `slot ${w.slot} of ${w.day} is done (attempt ${st.done.attempt}: exit ${st.done.exit_code}, ${meaning(st.done.exit_code)})`;
  if (st.exhausted)
    return `slot ${w.slot} of ${w.day} used all ${cfg.attempts} attempts (last exit ${st.attempts.at(-1)?.exit_code}); the next slot tries again`;
  return null;
}

async function attemptLocked(home: string, cfg: ScheduleConfig, now: Date, w: SlotWindow, lock: LockHandle, io: CommandIO): Promise<string> {
  // Under the lock, read again: another tick may have run this slot since.
  const settled = slotDecided(home, cfg, w);
  if (settled) return settled;
  const { records } = readLog(home);
  const market = await marketOpenFor(home, w.day, io.env);
  if (!market.open) {
    if (!records.some((r) => r.kind === "skip" && r.reason === "closed" && r.day === w.day && r.slot === w.slot))
      appendRecord(home, { kind: "skip", slot: w.slot, day: w.day, at: now.toISOString(), reason: "closed", message: market.reason });
    return `slot ${w.slot} of ${w.day}: the market is closed (${market.reason}); no run, no model call`;
  }
  const attempt = slotState(records, w, cfg.attempts).attempts.length + 1;
  io.stdout(`tick: slot ${w.slot} of ${w.day}, attempt ${attempt} of ${cfg.attempts}: starting the daily run (${cfg.mode})\n`);
  const t0 = Date.now();
  const runId = newRunId(new Date());
  let exitCode: number;
  let message: string | undefined;
  try {
    exitCode = await cmdRun({ home, yes: cfg.mode === "yes", json: false, mode: "paper", scheduled: { lock, runId } }, io, {
      interactive: false,
      colour: false,
    });
  } catch (e) {
    exitCode = e instanceof TwError ? e.exitCode : EXIT.INTERNAL_ERROR;
    message = (e as Error).message;
    io.stderr(`tradewarden tick: the run failed: ${message}\n`);
  }
  const ended = new Date(now.getTime() + (Date.now() - t0));
  // The run's id is recorded once the run exists (its folder): a run refused before it started has none.
  const started = existsSync(homePaths(home).runDir(runId));
  const record = { kind: "attempt" as const, slot: w.slot, day: w.day, attempt, mode: cfg.mode, exit_code: exitCode, run_id: started ? runId : null };
  appendRecord(home, { ...record, started_at: now.toISOString(), ended_at: ended.toISOString(), ...(message ? { message } : {}) });
  return `slot ${w.slot} of ${w.day}: attempt ${attempt} of ${cfg.attempts}: run ${started ? runId : "(none started)"} exit ${exitCode} (${meaning(exitCode)})`;
}
