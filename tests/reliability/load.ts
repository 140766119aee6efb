/**
 * Load through the front ends: N run events through the headless printer and the console reducer.
 * Returns what a test or the bench asserts on: the reducer's size, the printer's output, heap growth.
 */
import type { RunEvent } from "../../src/core/events.js";
import { createHeadlessPrinter } from "../../src/printers/headless.js";
import { initialRunState, reduceRun } from "../../src/screens/run-state.js";
import { scenarioEvents } from "../screens/scenario.js";

export interface LoadResult {
  events: number;
  items: number;
  pendingTools: number;
  liveChars: number;
  headlessLines: number;
  headlessBytes: number;
  heapDeltaMb: number;
  ms: number;
}

export function loadEvents(n: number): LoadResult {
  const events: RunEvent[] = scenarioEvents(n);
  (globalThis as { gc?: () => void }).gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  let lines = 0;
  let bytes = 0;
  const printer = createHeadlessPrinter({
    json: false,
    color: false,
    write: (s) => {
      lines += s.split("\n").length - 1;
      bytes += s.length;
    },
  });
  let state = initialRunState();
  for (const e of events) {
    state = reduceRun(state, e);
    printer.onEvent(e);
  }
  printer.flush();
  const ms = performance.now() - t0;
  (globalThis as { gc?: () => void }).gc?.();
  const heapDeltaMb = (process.memoryUsage().heapUsed - heap0) / 1e6;
  return {
    events: events.length,
    items: state.itemCount,
    pendingTools: state.pendingTools.length,
    liveChars: state.live?.text.length ?? 0,
    headlessLines: lines,
    headlessBytes: bytes,
    heapDeltaMb,
    ms,
  };
}
