/**
 * The run's event stream: stamps each event with its sequence number, time and run id, appends it
 * to `runs/<id>/events.jsonl` as it happens (so a crash keeps what was seen), and fans it out to
 * the front end's listeners.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { RunEvent, RunEventBody } from "../core/events.js";

export type EventListener = (event: RunEvent) => void;

export class EventSink {
  private seq = 0;
  private readonly listeners: EventListener[] = [];
  private file: string | null = null;
  private readonly buffered: RunEvent[] = [];
  readonly events: RunEvent[] = [];
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
    const event = { ...body, seq: ++this.seq, at: this.now().toISOString(), run_id: this.runId } as RunEvent;
    this.events.push(event);
    if (this.file) appendFileSync(this.file, JSON.stringify(event) + "\n");
    else this.buffered.push(event);
    for (const l of this.listeners) l(event);
    return event;
  }
}
