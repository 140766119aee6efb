/**
 * The run console's state: a pure function of the run's event stream (`reduceRun`), tested
 * without Ink. Every string that came from the model, a tool or the broker is sanitised here,
 * once, before anything can draw it (the streamed text is sanitised when it is drawn or finished).
 *
 * Cost per event is O(1) amortised: finished items are appended in place to one array shared by
 * successive states, and `itemCount` is the version that tells a consumer the list grew. A state
 * therefore owns `items[0 .. itemCount)`; never read past it from an old state.
 */
import type { RunEvent } from "../core/events.js";
import { displayEvent, sanitizeLine } from "../util/sanitize.js";
import { AGENT_HANDLERS } from "./run-state-agent-events.js";
import { append, flushLive, note, type RunEventHandlers } from "./run-state-items.js";
import { ORDER_HANDLERS } from "./run-state-order-events.js";
import { RUN_LIFECYCLE_HANDLERS } from "./run-state-run-events.js";
import type { RunItem, RunState } from "./run-state-types.js";
import { initialRunState } from "./run-state-types.js";

export * from "./run-state-types.js";

/** The valid finished items of a state (a copy; O(n): for tests and the journal, not per event). */
export function finishedItems(state: RunState): RunItem[] {
  return state.items.slice(0, state.itemCount);
}

/** One handler per event type (the compiler checks that every type has one). */
const HANDLERS: RunEventHandlers = { ...RUN_LIFECYCLE_HANDLERS, ...AGENT_HANDLERS, ...ORDER_HANDLERS };

/** The handler for the event's type, typed for the whole union (each handler takes only its own type). */
function handlerFor(type: string): ((s: RunState, e: RunEvent) => RunState) | undefined {
  return Object.hasOwn(HANDLERS, type) ? (HANDLERS[type as keyof RunEventHandlers] as (s: RunState, e: RunEvent) => RunState) : undefined;
}

export function reduceRun(state: RunState, event: RunEvent): RunState {
  // Every string of the event sanitised here, at the boundary, so no field of the state skips it.
  const e = displayEvent(event);
  let s: RunState = { ...state, lastSeq: Math.max(state.lastSeq, e.seq) };
  // Everything except more text for the turn, retries and notes ends the streamed text block.
  if (s.live && e.type !== "model.text" && e.type !== "model.retry" && e.type !== "run.note") s = flushLive(s, e.seq);
  const handler = handlerFor(e.type);
  if (handler) return handler(s, e);
  // An event type this console does not know (a newer writer): one dim line naming it.
  const unknown: { type: string } = e;
  return append(s, e.seq, note("dim", `event ${sanitizeLine(String(unknown.type))}`));
}

/** A store the Ink tree reads with useSyncExternalStore; the reducer runs exactly once per event. */
export interface RunStore {
  dispatch(e: RunEvent): void;
  getState(): RunState;
  subscribe(listener: () => void): () => void;
}

export function createRunStore(initial: RunState = initialRunState()): RunStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    dispatch(e) {
      state = reduceRun(state, e);
      for (const l of listeners) l();
    },
    getState: () => state,
    subscribe(l) {
      listeners.add(l);
      return () => {
        listeners.delete(l);
      };
    },
  };
}
