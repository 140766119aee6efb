/**
 * The run's event stream: stamps each event with its sequence number, time and run id, appends it
 * to `runs/<id>/events.jsonl` as it happens (so a crash keeps what was seen), and fans it out to
 * the front end's listeners. A listener that throws or a failed append never throws into the
 * emitter (the pipeline, the executor): each failure is kept in `failures` and reported once as a
 * `run.note` warning; after a failed append the events stay in memory (`events`).
 */
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { RunEvent, RunEventBody } from "../core/events.js";
import { redactValue } from "../core/redact.js";

export type EventListener = (event: RunEvent) => void;

export class EventSink {
  private seq = 0;
  private readonly listeners: EventListener[] = [];
  private file: string | null = null;
  private readonly buffered: RunEvent[] = [];
  readonly events: RunEvent[] = [];
  /** Listener and artifact failures, one sentence each (also reported as run.note warnings). */
  readonly failures: string[] = [];
  private reporting = false;
  runId = "";

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** Start writing to a file; events emitted before are flushed into it first. */
  attachFile(path: string): void {
    mkdirSync(dirname(path), { recursive: true });
    this.file = path;
    if (this.buffered.length > 0) {
      appendFileSync(path, this.buffered.map((e) => JSON.stringify(e)).join("\n") + "\n");
      this.buffered.length = 0;
    }
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
    const event = { ...redactValue(body), seq: ++this.seq, at: this.now().toISOString(), run_id: this.runId } as RunEvent;
    this.events.push(event);
    const failed: string[] = [];
    if (this.file) {
      try {
        appendFileSync(this.file, JSON.stringify(event) + "\n");
      } catch (e) {
        failed.push(`could not append to ${this.file} (${(e as Error).message}); later events are kept in memory only`);
        this.file = null;
      }
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
