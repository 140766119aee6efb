/**
 * The Ink console as the run's front end: an approval queue (the run's Approver) and the live run
 * screen on the event stream. Loaded only when stdin and stdout are terminals.
 */
import type { EventSink } from "../run/event-sink.js";
import { ApprovalQueue } from "../screens/approval-queue.js";
import { type Mounted, mountRunConsole } from "../screens/run-app.js";
import type { ConsoleFrontEnd } from "./run.js";

export function createRunConsole(env: NodeJS.ProcessEnv): ConsoleFrontEnd {
  const queue = new ApprovalQueue();
  let mounted: Mounted | null = null;
  return {
    approver: queue,
    attach(sink: EventSink, onInterrupt: () => void) {
      mounted = mountRunConsole({ subscribe: (l) => sink.subscribe(l), replay: sink.events, queue, onInterrupt, env });
    },
    async finish() {
      // Let Ink draw the last frame (the run's outcome) before it lets go of the terminal.
      await new Promise((r) => setTimeout(r, 60));
      mounted?.unmount();
      mounted = null;
    },
  };
}
