/**
 * The one way tradewarden replaces a file: the whole text goes to a uniquely named temporary file
 * beside it, is flushed to the disk (fsync), renamed over the destination (atomic on POSIX), and the
 * folder is flushed so the rename itself survives a power cut. A reader sees the old file or the new
 * one, never a torn mix; a failed write removes its temporary file and leaves the old file as it was.
 *
 * `durable: false` skips both fsyncs (still atomic against a crash of the process, not of the
 * machine): for files that are deliberately throwaway or rebuilt, such as a simulation's journal
 * head, whose rename per simulated day is the hot path.
 *
 * Written by hand rather than with `write-file-atomic`: what we need is these few system calls, in a
 * synchronous and an asynchronous form, plus the folder's fsync (which that library does not do).
 */
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export interface AtomicWriteOptions {
  /** fsync the file and its folder (default true). */
  durable?: boolean;
  /** The new file's permissions (default 0o666 less the umask, as `writeFileSync`). */
  mode?: number;
}

/** A temporary name beside `path`, unique across processes and calls. */
function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
}

/** fsync a folder (after a rename or removal in it); a platform that cannot is left as it is. */
export function fsyncDirSync(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some platforms (Windows, some network file systems) cannot fsync a folder; the rename is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes `data` to a new file at `path` and flushes it to the disk (no rename: the caller's own step). */
export function writeFileDurableSync(path: string, data: string | Uint8Array, mode?: number): void {
  const fd = openSync(path, "w", mode);
  try {
    writeFileSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Replaces `path` with `data` atomically (and durably unless `durable: false`). */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): void {
  const durable = opts.durable ?? true;
  const tmp = tempPathFor(path);
  try {
    if (durable) writeFileDurableSync(tmp, data, opts.mode);
    else writeFileSync(tmp, data, opts.mode === undefined ? {} : { mode: opts.mode });
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  if (durable) fsyncDirSync(dirname(path));
}

/**
 * Appends one line to a log file (created if missing) and flushes it to the disk: for small
 * append-only logs such as the scheduler's attempts. One write of a line opened with O_APPEND, so
 * two processes appending at once never interleave inside a line.
 */
export function appendLineDurableSync(path: string, line: string): void {
  const fd = openSync(path, "a", 0o600);
  try {
    writeSync(fd, line.endsWith("\n") ? line : `${line}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

async function fsyncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, "r");
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // As fsyncDirSync: a folder that cannot be flushed still had an atomic rename.
  }
}

/**
 * Replaces `path` with `data` atomically, off the event loop when durable (the fsyncs run in the
 * thread pool). Without fsync the write is a few fast system calls, done synchronously.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  if (opts.durable === false) {
    writeFileAtomicSync(path, data, opts);
    return;
  }
  const tmp = tempPathFor(path);
  try {
    const fh = await open(tmp, "w", opts.mode);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => {});
    throw e;
  }
  await fsyncDir(dirname(path));
}
