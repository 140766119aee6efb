/**
 * Mounting the console. The CLI calls these only when stdin and stdout are terminals (otherwise
 * the headless printer runs and Ink is never loaded), with FORCE_COLOR=0 set before import when
 * NO_COLOR is set. Ink is rendered with `exitOnCtrlC: false` (and `patchConsole` only for the live run
 * on the real terminal, so a library's console warning prints above the console); Ctrl+C
 * reaches `onInterrupt`, and the caller unmounts before exiting 130.
 */
import { render } from "ink";
import { type ReactElement, useSyncExternalStore } from "react";
import type { RunEvent } from "../core/events.js";
import type { ApprovalQueue } from "./approval-queue.js";
import { ApprovalScreen } from "./ApprovalScreen.js";
import { StandingApprovalScreen } from "./StandingApprovalScreen.js";
import { JournalScreen, type JournalScreenProps } from "./JournalScreen.js";
import { ReconcileScreen, type ReconcileScreenProps } from "./ReconcileScreen.js";
import { KillSwitchScreen, type KillSwitchScreenProps } from "./KillSwitchScreen.js";
import { createRunStore, type RunStore } from "./run-state.js";
import { ResizeFrame } from "./resize.js";
import { HEADER_ROWS, RunScreen } from "./RunScreen.js";
import { useTerminalSize } from "./terminal.js";
import { createTheme, ThemeContext } from "./theme.js";

export interface MountOptions {
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  stderr?: NodeJS.WriteStream;
  /** Defaults to process.env (NO_COLOR). */
  env?: NodeJS.ProcessEnv;
  /**
   * Full-screen: draw in the terminal's alternate screen and restore the screen as it was on
   * unmount (the journal browser, the kill-switch screen). The run console keeps its scrollback.
   */
  alternateScreen?: boolean;
}

const ALT_ON = "\u001b[?1049h\u001b[2J\u001b[H";
const ALT_OFF = "\u001b[?1049l";

export interface Mounted {
  unmount(): void;
  waitUntilExit(): Promise<unknown>;
}

export interface RunConsoleOptions extends MountOptions {
  /** Subscribe to the run's events (e.g. `sink.subscribe.bind(sink)`); returns an unsubscribe. */
  subscribe: (listener: (event: RunEvent) => void) => () => void;
  /** Events already emitted before the console mounted (e.g. `sink.events`), replayed first. */
  replay?: readonly RunEvent[];
  /** The Approver handed to the pipeline. */
  queue: ApprovalQueue;
  /** Ctrl+C: abort the run (the queue settles a waiting approval as rejected via the signal). */
  onInterrupt: () => void;
}

const requestIds = new WeakMap<object, number>();
let nextRequestId = 0;
/** A React key per request object: a new request starts a fresh screen, re-renders keep edits. */
function requestKey(req: object): string {
  let id = requestIds.get(req);
  if (id === undefined) requestIds.set(req, (id = ++nextRequestId));
  return `approval-${id}`;
}

export function RunApp({ store, queue, onInterrupt }: { store: RunStore; queue: ApprovalQueue; onInterrupt: () => void }) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const request = useSyncExternalStore(queue.subscribe, queue.current);
  const standing = useSyncExternalStore(queue.subscribe, queue.currentStanding);
  const { rows } = useTerminalSize();
  return (
    <RunScreen state={state} onInterrupt={onInterrupt}>
      {request ? (
        <ApprovalScreen
          key={requestKey(request)}
          request={request}
          onDecide={(d) => queue.resolve(request, d)}
          onInterrupt={onInterrupt}
          maxRows={Math.max(8, rows - HEADER_ROWS - 1)}
        />
      ) : standing ? (
        <StandingApprovalScreen key={requestKey(standing)} request={standing} onDecide={(d) => queue.resolveStanding(standing, d)} onInterrupt={onInterrupt} />
      ) : null}
    </RunScreen>
  );
}

function mount(node: ReactElement, opts: MountOptions & { patchConsole?: boolean }): Mounted {
  const theme = createTheme(opts.env ?? process.env);
  const stdout = opts.stdout ?? process.stdout;
  if (opts.alternateScreen) stdout.write(ALT_ON);
  const inst = render(
    <ThemeContext.Provider value={theme}>
      <ResizeFrame alternateScreen={opts.alternateScreen === true}>{node}</ResizeFrame>
    </ThemeContext.Provider>,
    {
      exitOnCtrlC: false,
      patchConsole: opts.patchConsole ?? false,
      ...(opts.stdout ? { stdout: opts.stdout } : {}),
      ...(opts.stdin ? { stdin: opts.stdin } : {}),
      ...(opts.stderr ? { stderr: opts.stderr } : {}),
    },
  );
  let done = false;
  const restore = () => {
    if (done) return;
    done = true;
    if (opts.alternateScreen) stdout.write(ALT_OFF);
  };
  inst.waitUntilExit().then(restore, restore);
  return {
    unmount: () => {
      inst.unmount();
      restore();
    },
    waitUntilExit: () => inst.waitUntilExit(),
  };
}

/** The live run console: RunScreen, switching to the ApprovalScreen while a decision is pending. */
export function mountRunConsole(opts: RunConsoleOptions): Mounted {
  const store = createRunStore();
  for (const e of opts.replay ?? []) store.dispatch(e);
  let last = store.getState().lastSeq;
  const unsubscribe = opts.subscribe((e) => {
    if (e.seq <= last && last > 0) return; // already replayed
    last = e.seq;
    store.dispatch(e);
  });
  const onInterrupt = () => {
    opts.onInterrupt();
    // A waiting approval must never hang the run: it settles as rejected (nothing placed).
    opts.queue.rejectAll("run interrupted (Ctrl+C) before a decision");
  };
  // Libraries may still write to the console during a run (the Anthropic SDK warns about deprecated
  // models, for one): let Ink print those above the live region instead of over it. Our own code
  // never logs from render paths.
  const mounted = mount(<RunApp store={store} queue={opts.queue} onInterrupt={onInterrupt} />, { ...opts, patchConsole: opts.stdout === undefined });
  return {
    unmount: () => {
      unsubscribe();
      mounted.unmount();
    },
    waitUntilExit: () => mounted.waitUntilExit(),
  };
}

/** `tradewarden killswitch`: resolves `waitUntilExit` after onExit (the screen unmounts itself). */
export function mountKillSwitch(props: KillSwitchScreenProps, opts: MountOptions = {}): Mounted {
  let mounted: Mounted | null = null;
  const leave = (fn: () => void) => () => {
    fn();
    mounted?.unmount();
  };
  mounted = mount(<KillSwitchScreen {...props} onExit={leave(props.onExit)} {...(props.onInterrupt ? { onInterrupt: leave(props.onInterrupt) } : {})} />, opts);
  return mounted;
}

/** `tradewarden reconcile` on a terminal: resolves `waitUntilExit` when the operator leaves. */
export function mountReconcile(props: ReconcileScreenProps, opts: MountOptions = {}): Mounted {
  let mounted: Mounted | null = null;
  const leave = (fn: () => void) => () => {
    fn();
    mounted?.unmount();
  };
  mounted = mount(<ReconcileScreen {...props} onExit={leave(props.onExit)} {...(props.onInterrupt ? { onInterrupt: leave(props.onInterrupt) } : {})} />, opts);
  return mounted;
}

/** `tradewarden journal`: resolves `waitUntilExit` after q (or Ctrl+C). */
export function mountJournal(props: JournalScreenProps, opts: MountOptions = {}): Mounted {
  let mounted: Mounted | null = null;
  const leave = (fn: () => void) => () => {
    fn();
    mounted?.unmount();
  };
  mounted = mount(<JournalScreen {...props} onExit={leave(props.onExit)} {...(props.onInterrupt ? { onInterrupt: leave(props.onInterrupt) } : {})} />, opts);
  return mounted;
}
