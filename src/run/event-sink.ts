/**
 * The run's event stream: stamps each event with its sequence number, time and run id, appends it
 * to `runs/<id>/events.jsonl` as it happens (so a crash keeps what was seen), and fans it out to
 * the front end's listeners. A listener that throws or a failed append never throws into the
 * emitter (the pipeline, the executor): each failure is kept in `failures` and reported once as a
 * `run.note` warning; after a failed append the events stay in memory (`events`).
 *
 * The file is held open from `attachFile` to `close()` (the end of the run), each event one
 * write(2) on an O_APPEND descriptor: as durable as reopening the file per event (a SIGKILL keeps
 * every line written) at a fraction of the cost, which a many-day simulation pays per event.
 * An event emitted after `close()` is appended by reopening the file.
 *
 * `{ writeThrough: false }` (a many-day simulation, whose days are not resumable) keeps a run's
 * lines in memory and writes them in one append at `close()`: one write(2) per event was ~6% of a
 * simulated day. A simulation killed mid-day loses that day's event file, never an earlier one.
 */
import { appendFileSync, closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { RunEvent, RunEventBody } from "../core/events.js";
import { redactValue } from "../core/redact.js";
import { withProps } from "../util/with-props.js";

export type EventListener = (event: RunEvent) => void;

export class EventSink {
  private seq = 0;
  private readonly listeners: EventListener[] = [];
  private file: string | null = null;
  private fd: number | null = null;
  private readonly writeThrough: boolean;
  /** Lines held for `close()` when not writing through. */
  private held: string[] = [];
  /** After `close()` every event is appended at once (nothing would write what is held). */
  private closed = false;
  private readonly buffered: RunEvent[] = [];
  readonly events: RunEvent[] = [];
  /** Listener and artifact failures, one sentence each (also reported as run.note warnings). */
  readonly failures: string[] = [];
  private reporting = false;
  runId = "";

  constructor(
    private readonly now: () => Date = () => new Date(),
    opts: { writeThrough?: boolean } = {},
  ) {
    this.writeThrough = opts.writeThrough ?? true;
  }

  /** Start writing to a file; events emitted before are flushed into it first. */
  attachFile(path: string): void {
    mkdirSync(dirname(path), { recursive: true });
    this.close();
    this.closed = false;
    this.file = path;
    let failure: string | null = null;
    try {
      this.fd = openSync(path, "a");
    } catch (e) {
      failure = this.appendFailed(e);
    }
    if (!failure && this.buffered.length > 0) {
      const lines = this.buffered.map((e) => JSON.stringify(e)).join("\n") + "\n";
      this.buffered.length = 0;
      failure = this.append(lines);
    }
    if (failure) this.report([failure]);
  }

  /** Writes what is held and closes the event file (the end of the run). Safe to call twice. */
  close(): void {
    this.closed = true;
    if (this.held.length > 0) {
      const text = this.held.join("");
      this.held = [];
      const failure = this.append(text, true);
      if (failure) this.report([failure]);
    }
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    try {
      closeSync(fd);
    } catch (e) {
      this.report([`could not close ${this.file} (${(e as Error).message})`]);
    }
  }

  /** Appends to the event file; a failure stops further appends and is returned (to report), never thrown. */
  private append(text: string, now = this.writeThrough || this.closed): string | null {
    if (!this.file) return null;
    if (!now) {
      this.held.push(text);
      return null;
    }
    try {
      if (this.fd !== null) writeAll(this.fd, text);
      else appendFileSync(this.file, text);
      return null;
    } catch (e) {
      return this.appendFailed(e);
    }
  }

  private appendFailed(e: unknown): string {
    const file = this.file;
    this.close();
    this.file = null;
    return `could not append to ${file} (${(e as Error).message}); later events are kept in memory only`;
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  emit(body: RunEventBody): RunEvent {
    // Every text of an event passes the redactor before it is kept, written or shown.
    const event = withProps(redactValue(body), { seq: ++this.seq, at: this.now().toISOString(), run_id: this.runId }) as RunEvent;
    this.events.push(event);
    const failed: string[] = [];
    if (this.file) {
      const failure = this.append(JSON.stringify(event) + "\n");
      if (failure) failed.push(failure);
    } else this.buffered.push(event);
    for (const l of this.listeners) {
      try {
        l(event);
      } catch (e) {
        failed.push(`an event listener failed on ${event.type}: ${(e as Error).message}`);
      }
    }
    this.report(failed);
    return event;
  }

  private report(failed: string[]): void {
    const fresh = failed.filter((m) => !this.failures.includes(m));
    if (fresh.length === 0) return;
    this.failures.push(...fresh);
    if (this.reporting) return;
    this.reporting = true;
    try {
      for (const message of fresh) this.emit({ type: "run.note", level: "warn", message });
    } finally {
      this.reporting = false;
    }
  }
}

/** write(2) until every byte is out (a regular file takes it in one call; a short write is retried). */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  let at = 0;
  while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
}
