/**
 * One writer at a time: a lock on the home folder with proper-lockfile (mkdir-based, mtime kept
 * fresh while held). The holder is described in `holder.json` inside the lock folder, so the
 * description always belongs to that exact lock. A lock is recovered when its holder process is
 * gone (same host, pid not alive) or its mtime is older than the stale threshold (the holder
 * stopped refreshing it). Recovery is itself serialised by a second mkdir guard, and the stale
 * lock folder is renamed away atomically before it is deleted, so two recovering processes can
 * never both proceed.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { mkdir, readFile, rename, rm, rmdir, stat, unlink, utimes } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import lockfile from "proper-lockfile";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { homePaths } from "../util/paths.js";
import { writeFileAtomic } from "../util/atomic-write.js";
import type { LockPurpose } from "./types.js";

export interface LockHolder {
  pid: number;
  host: string;
  purpose: LockPurpose;
  started_at: string;
  command: string;
}

export interface LockHandle {
  readonly holder: LockHolder;
  /** True once proper-lockfile reports the lock compromised (another process took it over). */
  readonly compromised: boolean;
  release(): Promise<void>;
}

export interface LockOptions {
  /** Milliseconds without a refresh after which a lock counts as stale (default 20 000). */
  staleMs?: number;
  /** How long to keep trying while another process holds the lock (default 0: refuse at once). */
  waitMs?: number;
  command?: string;
  onCompromised?: (err: Error) => void;
}

const HOLDER = "holder.json";
/** A lock folder without a holder description older than this was left by a process that died while taking it. */
const HOLDERLESS_GRACE_MS = 1_500;

/**
 * Whether a process is running: it exists and is not a zombie (a process that has exited but whose
 * parent has not reaped it yet still answers kill(pid, 0); /proc/<pid>/stat says `Z`).
 */
export function isPidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return !isZombie(pid);
}

/** True when /proc says the process has exited (zombie `Z` or dead `X`); false where /proc is unavailable. */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The state is the first field after the command name, which is in parentheses and may contain spaces.
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state === "Z" || state === "X";
  } catch {
    return false;
  }
}

async function readHolder(lockDir: string): Promise<LockHolder | null> {
  try {
    const h = JSON.parse(await readFile(join(lockDir, HOLDER), "utf8")) as LockHolder;
    return typeof h.pid === "number" ? h : null;
  } catch {
    return null;
  }
}

function describe(h: LockHolder | null, lockDir: string, home: string): string {
  if (!h) return `another tradewarden process holds the lock on ${home} (it is still starting; ${lockDir})`;
  const where = h.host === hostname() ? "" : ` on host ${h.host}`;
  return `another tradewarden process (pid ${h.pid}${where}, ${h.purpose}, since ${h.started_at}) holds the lock on ${home}: "${h.command}". Wait for it to finish; if that process is gone, the lock is recovered automatically (or remove ${lockDir}).`;
}

/** Whether the lock folder is recoverable: holder dead on this host, or not refreshed for staleMs. */
async function staleReason(lockDir: string, staleMs: number): Promise<string | null> {
  let mtime: number;
  try {
    mtime = (await stat(lockDir)).mtimeMs;
  } catch {
    return null;
  }
  const holder = await readHolder(lockDir);
  if (holder && holder.host === hostname() && holder.pid !== process.pid) {
    // On this host the holder's pid decides: a live holder is never taken over, however busy it is.
    if (!isPidAlive(holder.pid)) return `holder pid ${holder.pid} (${holder.purpose}, since ${holder.started_at}) is no longer running`;
    return null;
  }
  // A live holder describes itself within milliseconds of taking the lock; a folder without a
  // description after the grace was left by a process that died while taking it.
  if (!holder && mtime < Date.now() - HOLDERLESS_GRACE_MS)
    return `the lock has no holder description ${Math.round((Date.now() - mtime) / 1000)} s after it was taken`;
  if (mtime < Date.now() - staleMs) return `lock not refreshed for ${Math.round((Date.now() - mtime) / 1000)} s`;
  return null;
}

/** Removes a stale lock folder under a recovery guard. Returns true when it removed one. */
async function recoverStale(lockDir: string, staleMs: number): Promise<boolean> {
  const guard = `${lockDir}.recover`;
  try {
    await mkdir(guard);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    // a recoverer that died leaves its guard behind; clear it after a while
    const age =
      Date.now() -
      (await stat(guard)
        .then((s) => s.mtimeMs)
        .catch(() => Date.now()));
    if (age > staleMs) await rmdir(guard).catch(() => {});
    return false;
  }
  try {
    if ((await staleReason(lockDir, staleMs)) === null) return false;
    const aside = `${lockDir}.stale-${process.pid}-${randomBytes(4).toString("hex")}`;
    try {
      await rename(lockDir, aside);
    } catch {
      return false;
    }
    await rm(aside, { recursive: true, force: true });
    return true;
  } finally {
    await rmdir(guard).catch(() => {});
  }
}

export async function acquireLock(home: string, purpose: LockPurpose, opts: LockOptions = {}): Promise<LockHandle> {
  const lockDir = homePaths(home).lock;
  const staleMs = Math.max(opts.staleMs ?? 20_000, 2_000);
  const deadline = Date.now() + (opts.waitMs ?? 0);
  await mkdir(home, { recursive: true });
  const holder: LockHolder = {
    pid: process.pid,
    host: hostname(),
    purpose,
    started_at: new Date().toISOString(),
    command: opts.command ?? [process.argv[1] ?? "tradewarden", ...process.argv.slice(2)].join(" "),
  };
  let compromised = false;
  // Set as release() starts: removing holder.json changes the folder's mtime, and a refresh of
  // proper-lockfile's falling in before its own release would otherwise report our release as a takeover.
  let releasing = false;
  for (let attempt = 0; ; attempt++) {
    let release: (() => Promise<void>) | undefined;
    try {
      release = await lockfile.lock(home, {
        lockfilePath: lockDir,
        realpath: false,
        retries: 0,
        // staleness is decided here (holder.json makes proper-lockfile's own rmdir fail anyway)
        stale: staleMs,
        update: Math.floor(staleMs / 4),
        onCompromised: (err) => {
          if (releasing) return;
          compromised = true;
          if (opts.onCompromised) opts.onCompromised(err);
          else process.emitWarning(`tradewarden lock on ${home} was compromised: ${err.message}`);
        },
      });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "ELOCKED" && code !== "ENOTEMPTY" && code !== "EEXIST") throw e;
      if (await staleReason(lockDir, staleMs)) {
        if ((await recoverStale(lockDir, staleMs)) || attempt < 3) continue;
      }
      if (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      // a holder that just took the lock may not have described itself yet
      let h = await readHolder(lockDir);
      for (let i = 0; i < 5 && !h; i++) {
        await new Promise((r) => setTimeout(r, 20));
        h = await readHolder(lockDir);
      }
      throw new TwError("locked", describe(h, lockDir, home), EXIT.USAGE_OR_CONFIG, h ?? undefined);
    }
    try {
      // proper-lockfile refreshes the lock folder's mtime and treats any other change of it as a
      // takeover ("compromised"); writing holder.json inside changes it, so put the mtime back.
      const before = await stat(lockDir);
      await writeFileAtomic(join(lockDir, HOLDER), JSON.stringify(holder, null, 2), { durable: false, mode: 0o600 });
      await utimes(lockDir, before.atime, before.mtime);
    } catch (e) {
      await release().catch(() => {});
      throw e;
    }
    const unlock = release;
    let released = false;
    return {
      holder,
      get compromised() {
        return compromised;
      },
      async release() {
        if (released) return;
        released = true;
        releasing = true;
        await unlink(join(lockDir, HOLDER)).catch(() => {});
        await unlock().catch((err: NodeJS.ErrnoException) => {
          if (err.code !== "ERELEASED" && err.code !== "ENOENT") throw err;
        });
      },
    };
  }
}

/** The current holder of a home's lock, if any (for messages and the TUI). */
export async function lockHolder(home: string): Promise<LockHolder | null> {
  return readHolder(homePaths(home).lock);
}

/**
 * Whether a live process holds the lock on `home`, read synchronously (for `simulate list`/`report`,
 * which show a simulation whose process died as interrupted). A holder on another host, or one
 * still describing itself, counts as live; a holder of this host whose pid is gone, or no lock, not.
 */
export function lockHeldByLiveProcess(home: string): boolean {
  const lockDir = homePaths(home).lock;
  let mtime: number;
  try {
    mtime = statSync(lockDir).mtimeMs;
  } catch {
    return false;
  }
  let h: LockHolder | null = null;
  try {
    const v = JSON.parse(readFileSync(join(lockDir, HOLDER), "utf8")) as LockHolder;
    h = typeof v.pid === "number" ? v : null;
  } catch {
    h = null;
  }
  if (!h) return mtime >= Date.now() - HOLDERLESS_GRACE_MS;
  return h.host !== hostname() || isPidAlive(h.pid);
}
