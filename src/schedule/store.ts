/**
 * What the scheduler keeps in the home, under `<home>/schedule/`: `attempts.jsonl` (one line per
 * attempt of a slot, and per skip: the lock held, the market closed), `heartbeat.json` (the last
 * tick: when and what it did) and `install.json` (what `schedule install` did, so `remove` undoes
 * exactly that). Shapes are TypeBox schemas; a line or file that does not match is ignored and
 * counted, never trusted.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { appendLineDurableSync, writeFileAtomicSync } from "../util/atomic-write.js";

const Str = Type.String();
const Int = Type.Integer();

export const AttemptRecord = Type.Object({
  kind: Type.Literal("attempt"),
  slot: Str,
  day: Str,
  attempt: Type.Integer({ minimum: 1 }),
  mode: Type.Union([Type.Literal("supervised"), Type.Literal("yes")]),
  exit_code: Int,
  run_id: Type.Union([Str, Type.Null()]),
  started_at: Str,
  ended_at: Str,
  message: Type.Optional(Str),
});
export type AttemptRecord = Static<typeof AttemptRecord>;

const SkipRecord = Type.Object({
  kind: Type.Literal("skip"),
  slot: Str,
  day: Str,
  at: Str,
  reason: Type.Union([Type.Literal("locked"), Type.Literal("closed")]),
  message: Str,
});
type SkipRecord = Static<typeof SkipRecord>;
const LogRecord = Type.Union([AttemptRecord, SkipRecord]);
export type ScheduleLogRecord = Static<typeof LogRecord>;

const Heartbeat = Type.Object({ at: Str, pid: Int, did: Str });
export type Heartbeat = Static<typeof Heartbeat>;

const InstallRecord = Type.Object({
  kind: Type.Union([Type.Literal("systemd"), Type.Literal("cron")]),
  installed_at: Str,
  /** The command the timer runs, as argv. */
  command: Type.Array(Str),
  /** Files written (systemd units). */
  files: Type.Array(Str),
  /** The crontab lines added (marker comment and entry). */
  cron_lines: Type.Array(Str),
});
export type InstallRecord = Static<typeof InstallRecord>;

function schedulePaths(home: string) {
  const dir = join(home, "schedule");
  return { dir, attempts: join(dir, "attempts.jsonl"), heartbeat: join(dir, "heartbeat.json"), install: join(dir, "install.json") };
}

function ensureDir(home: string): ReturnType<typeof schedulePaths> {
  const p = schedulePaths(home);
  mkdirSync(p.dir, { recursive: true, mode: 0o700 });
  return p;
}

export function readLog(home: string): { records: ScheduleLogRecord[]; unreadable: number } {
  const path = schedulePaths(home).attempts;
  if (!existsSync(path)) return { records: [], unreadable: 0 };
  const records: ScheduleLogRecord[] = [];
  let unreadable = 0;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      const v: unknown = JSON.parse(line);
      if (Value.Check(LogRecord, v)) records.push(v);
      else unreadable++;
    } catch {
      unreadable++;
    }
  }
  return { records, unreadable };
}

export function appendRecord(home: string, record: AttemptRecord | SkipRecord): void {
  appendLineDurableSync(ensureDir(home).attempts, JSON.stringify(record));
}

function readJson<T>(path: string, check: (v: unknown) => v is T): T | null {
  try {
    const v: unknown = JSON.parse(readFileSync(path, "utf8"));
    return check(v) ? v : null;
  } catch {
    return null;
  }
}

export const readHeartbeat = (home: string) => readJson(schedulePaths(home).heartbeat, (v): v is Heartbeat => Value.Check(Heartbeat, v));

export function writeHeartbeat(home: string, beat: Heartbeat): void {
  writeFileAtomicSync(ensureDir(home).heartbeat, `${JSON.stringify(beat)}\n`, { mode: 0o600 });
}

export const readInstall = (home: string) => readJson(schedulePaths(home).install, (v): v is InstallRecord => Value.Check(InstallRecord, v));

export function writeInstall(home: string, rec: InstallRecord | null): void {
  if (rec === null) rmSync(schedulePaths(home).install, { force: true });
  else writeFileAtomicSync(ensureDir(home).install, `${JSON.stringify(rec, null, 2)}\n`, { mode: 0o600 });
}

/** Exit codes after which a slot is done for the day (a retry would repeat it, or needs a person); any other is retried. */
const FINAL_EXITS: ReadonlySet<number> = new Set([0, 2, 3, 5, 6]);

export interface SlotState {
  attempts: AttemptRecord[];
  /** The attempt that ended the slot (a final exit code), if any. */
  done: AttemptRecord | null;
  /** Every allowed attempt used without a final exit. */
  exhausted: boolean;
}

export function slotState(records: readonly ScheduleLogRecord[], key: { day: string; slot: string }, limit: number): SlotState {
  const attempts = records.filter((r): r is AttemptRecord => r.kind === "attempt" && r.day === key.day && r.slot === key.slot);
  const done = attempts.find((a) => FINAL_EXITS.has(a.exit_code)) ?? null;
  return { attempts, done, exhausted: done === null && attempts.length >= limit };
}
