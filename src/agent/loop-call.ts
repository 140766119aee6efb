/**
 * One model call of the agent loop: its live text and retry notices become run events as they
 * happen, the loop aborts the call at its timeout (or when the run's signal fires), and a call that
 * ignores its signal cannot hold the loop past that moment.
 */
import type { RunEventBody } from "../core/events.js";
import { redactValue } from "../core/redact.js";
import { StreamRedactor } from "../core/redact-stream.js";
import type { CallHooks, Message, ModelClient, ModelResponse, ToolDefinition } from "./types.js";

type CallSettled = { ok: true; response: ModelResponse } | { ok: false; error: unknown };

export interface ModelCall {
  client: ModelClient;
  system: string;
  tools: readonly ToolDefinition[];
  transcript: readonly Message[];
  maxTokens: number;
  timeoutMs: number;
  turn: number;
  /** The run's signal (interrupts). */
  signal: AbortSignal | undefined;
  now: () => number;
}

export interface CallEnd {
  outcome: CallSettled;
  /** The loop's own deadline fired (not the run's signal). */
  timedOut: boolean;
  durationMs: number;
}

/** A queue of events that one consumer awaits while producers push into it. */
function eventQueue() {
  const queue: RunEventBody[] = [];
  let wake: (() => void) | undefined;
  return {
    queue,
    push(e: RunEventBody): void {
      queue.push(e);
      wake?.();
    },
    notify(): void {
      wake?.();
    },
    async idle(): Promise<void> {
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    },
  };
}

/** The call's hooks: live text redacted whole (a tail that could begin a key waits for the next piece). */
function liveHooks(live: StreamRedactor, turn: number, push: (e: RunEventBody) => void): CallHooks {
  const text = (delta: string) => {
    if (delta) push({ type: "model.text", turn, delta });
  };
  return {
    onText: (delta) => text(live.push(delta)),
    onRetry: (attempt, message) => {
      text(live.flush());
      push({ type: "model.retry", turn, attempt, message });
    },
  };
}

/** Makes the call, yielding its live events in order; returns how it settled. */
export async function* callModel(c: ModelCall): AsyncGenerator<RunEventBody, CallEnd, void> {
  const events = eventQueue();
  const deadline = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.abort();
  }, c.timeoutMs);
  // The run's signal forwarded into the deadline's (not AbortSignal.any: on Node 20 each combined
  // signal stays registered on the run's signal, and it costs twice a forwarding listener).
  const runSignal = c.signal;
  const forward = () => deadline.abort(runSignal?.reason);
  if (runSignal?.aborted) forward();
  else runSignal?.addEventListener("abort", forward, { once: true });
  const signal = deadline.signal;
  const live = new StreamRedactor();
  const t0 = c.now();
  let settled: CallSettled | undefined;
  // What leaves for the model passes the redactor too (the transcript is redacted where it grows; this is the last door).
  const request = { system: c.system, tools: c.tools, messages: redactValue(c.transcript.slice()), maxTokens: c.maxTokens, timeoutMs: c.timeoutMs, signal };
  const call = c.client.complete(request, liveHooks(live, c.turn, events.push)).then(
    (response): CallSettled => ({ ok: true, response }),
    (error: unknown): CallSettled => ({ ok: false, error }),
  );
  void call.then((s) => {
    settled = s;
    events.notify();
  });
  // A call that ignores its signal must not hold the loop past its deadline.
  const onAbort = () => {
    if (!settled) {
      settled = { ok: false, error: new Error("aborted") };
      events.notify();
    }
  };
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    while (!settled || events.queue.length > 0) {
      const next = events.queue.shift();
      if (next) yield next;
      else await events.idle();
    }
  } finally {
    // Also when the loop leaves the generator early: nothing stays registered on the run's signal.
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
    runSignal?.removeEventListener("abort", forward);
  }
  const rest = live.flush();
  if (rest) yield { type: "model.text", turn: c.turn, delta: rest };
  return { outcome: settled, timedOut, durationMs: c.now() - t0 };
}
