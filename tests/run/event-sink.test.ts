import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EventSink } from "../../src/run/event-sink.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("event sink", () => {
  it("a listener that throws never throws into the emitter; the failure is reported once as a warning and other listeners still get every event", () => {
    const sink = new EventSink();
    const seen: string[] = [];
    sink.subscribe(() => {
      throw new Error("screen crashed");
    });
    sink.subscribe((e) => seen.push(e.type));
    expect(() => sink.emit({ type: "reconcile.ok", positions: 0 })).not.toThrow();
    expect(() => sink.emit({ type: "reconcile.ok", positions: 1 })).not.toThrow();
    const notes = sink.events.filter((e) => e.type === "run.note");
    expect(notes).toHaveLength(1); // reported once, not once per event
    expect(JSON.stringify(notes[0])).toContain("an event listener failed on reconcile.ok: screen crashed");
    expect(seen.filter((t) => t === "reconcile.ok")).toHaveLength(2);
    expect(sink.failures[0]).toBe("an event listener failed on reconcile.ok: screen crashed");
  });

  it("a failed artifact append keeps the events in memory and is reported, not thrown", () => {
    const dir = mkdtempSync(join(tmpdir(), "tw-sink-"));
    dirs.push(dir);
    const sink = new EventSink();
    const file = join(dir, "events.jsonl");
    sink.attachFile(file);
    sink.emit({ type: "reconcile.ok", positions: 0 });
    rmSync(file);
    mkdirSync(file); // the append now fails (EISDIR), even for root
    expect(() => sink.emit({ type: "reconcile.ok", positions: 1 })).not.toThrow();
    expect(sink.events.map((e) => e.type)).toEqual(["reconcile.ok", "reconcile.ok", "run.note"]);
    expect(sink.failures[0]).toMatch(/could not append/);
  });
});
