/**
 * The kill switch (`tradewarden killswitch`): why and when trading halted, what a reset does, and
 * the reset itself only after typing the exact confirmation word and a reason (after the Shopify
 * CLI's dangerous-confirmation prompt); on an account that trades, `K` trips it the same way (HALT,
 * then a reason). After either, the title, the facts and the keys are the journal's, read back.
 * The facts scroll when the terminal is short; the title (state and trip day) stays. Esc leaves.
 */
import { Box, Text, useStdout } from "ink";
import type { ReactNode } from "react";
import type { TradingState } from "../core/domain.js";
import { HelpOverlay, KeyHelp, keyHelpRows, ScrollLines, Spinner } from "./components.js";
import { useKeys } from "./input.js";
import { type KillSwitchState, keysOf, killSwitchKey, RESET_WORD, TRIP_WORD } from "./killswitch-input.js";
import { killSwitchLines, killSwitchTitle } from "./killswitch-lines.js";
import { EMPTY_LINE, LineField } from "./line-editor.js";
import { rangeLabel, scrollBy } from "./scroll.js";
import { useTerminalSize } from "./terminal.js";
import { wrapText } from "./text.js";
import { type Theme, useTheme } from "./theme.js";
import { useRefState } from "./use-ref-state.js";

export interface KillSwitchFacts {
  trading_state: TradingState;
  base_currency?: string;
  /** When the switch tripped (ISO time) and in which run. */
  tripped_at?: string;
  run_id?: string;
  /** The trading day of the run that tripped it. */
  trading_day?: string;
  value_at_trip?: number;
  peak?: number;
  drawdown_pct?: number;
  limit_pct?: number;
  reason?: string;
  liquidation: {
    status: "none" | "pending" | "partial" | "complete";
    detail?: string;
    /** The kill switch's liquidation orders since the trip (outside the monthly quota). */
    orders?: { client_order_id: string; symbol: string; quantity: number; filled_quantity: number; status: string }[];
  };
  current_value?: number;
  /** After a reset the account is REDUCING (sells only) for this many runs (0 = straight to ACTIVE). */
  reducing_runs_after_reset: number;
  /** REDUCING: the runs left before it is ACTIVE again. */
  reducing_runs_left?: number;
}

export interface KillSwitchScreenProps {
  facts: KillSwitchFacts;
  /**
   * Record the reset in the journal (peak := current value; REDUCING for N runs); resolves with the
   * facts read back from the journal, which the screen then shows (nothing: it keeps the opening facts).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a caller that reads nothing back resolves with nothing
  onReset: (args: { reason: string }) => Promise<KillSwitchFacts | undefined | void>;
  /** Record an operator's trip in the journal; resolves with the facts read back. Without it there is no trip key. */
  onTrip?: (args: { reason: string }) => Promise<KillSwitchFacts>;
  /** Leave the screen (after an action, or without one). */
  onExit: () => void;
  /** Ctrl+C; defaults to onExit. */
  onInterrupt?: () => void;
}

/** The prompt of the current step, the progress or the result, and the message. */
function promptLines(st: KillSwitchState, facts: KillSwitchFacts, th: Theme, width: number): ReactNode {
  const m = st.mode;
  const word = m.kind === "word" || m.kind === "reason" ? (m.action === "reset" ? RESET_WORD : TRIP_WORD) : "";
  const what = m.kind === "word" || m.kind === "reason" ? (m.action === "reset" ? "reset" : "trip") : "";
  return (
    <>
      {m.kind === "word" ? <LineField tone="warn" label={`Step 1 of 2 · type ${word} to ${what} the kill switch:`} line={m.line} width={width} /> : null}
      {m.kind === "reason" ? <LineField tone="warn" label="Step 2 of 2 · reason (recorded in the journal):" line={m.line} width={width} /> : null}
      {m.kind === "busy" ? (
        <Text>
          <Spinner /> recording the {m.action}…
        </Text>
      ) : null}
      {m.kind === "done" ? (
        <Text bold color={th.c("ok")}>
          ✓ Kill switch {m.action === "reset" ? "reset" : "tripped"}, recorded in the journal: trading state {facts.trading_state}
          {facts.trading_state === "REDUCING" && facts.reducing_runs_left ? ` (sells only) for ${facts.reducing_runs_left} run(s)` : ""}.
        </Text>
      ) : null}
      {st.message ? <Text color={th.c(st.message.error ? "error" : "plain")}>{st.message.text}</Text> : null}
    </>
  );
}

/** Rows the prompt area takes (its margin, the field or result, the message, the help line). */
function promptRows(st: KillSwitchState, width: number, canTrip: boolean): number {
  const field = st.mode.kind === "idle" ? 0 : 2;
  const message = st.message ? wrapText(st.message.text, width).length : 0;
  return 1 + field + message + keyHelpRows(keysOf(st.mode, canTrip), width);
}

export function KillSwitchScreen({ facts: opened, onReset, onTrip, onExit, onInterrupt }: KillSwitchScreenProps) {
  const th = useTheme();
  const { columns, rows } = useTerminalSize();
  // A stream that does not say its height (a test renderer) shows every line.
  const knownRows = typeof useStdout().stdout.rows === "number";
  const width = Math.max(20, columns - 1);
  const [get, set] = useRefState<KillSwitchState>(() => ({
    mode: opened.trading_state === "HALTED" ? { kind: "word", action: "reset", line: EMPTY_LINE } : { kind: "idle" },
    message: null,
    help: false,
    facts: null,
    offset: 0,
  }));
  const st = get();
  // After an action, everything shown is the journal's, read back.
  const facts = st.facts ?? opened;
  const halted = facts.trading_state === "HALTED";
  // `K` only before an action: after one, the screen shows its result and leaves.
  const canTrip = onTrip !== undefined && !halted && st.mode.kind !== "done";
  const lines = killSwitchLines(facts, width, canTrip);
  const height = Math.max(3, rows - 3 - promptRows(st, width, canTrip));
  const scrolls = knownRows && lines.length > height;
  const offset = Math.min(st.offset, Math.max(0, lines.length - height));
  const interrupt = onInterrupt ?? onExit;

  useKeys((input, key) =>
    killSwitchKey({
      s: get(),
      input,
      key,
      set,
      onReset,
      onTrip: canTrip ? onTrip : undefined,
      onExit,
      interrupt,
      scroll: (action) => set((p) => ({ ...p, offset: scrollBy(action, Math.min(p.offset, Math.max(0, lines.length - height)), lines.length, height) })),
    }),
  );

  const title = (
    <Text bold color={th.c(halted ? "error" : facts.trading_state === "REDUCING" ? "warn" : "ok")} wrap="truncate-end">
      {killSwitchTitle(facts, width)}
    </Text>
  );
  if (st.help) {
    return (
      <Box flexDirection="column" width={width}>
        {title}
        <HelpOverlay title="kill switch" table={keysOf(st.mode, canTrip)} width={width} />
      </Box>
    );
  }
  return (
    <Box flexDirection="column" width={width}>
      {title}
      <Box marginTop={1} flexDirection="column">
        <ScrollLines lines={lines} offset={scrolls ? offset : 0} height={scrolls ? height : lines.length} width={width} />
      </Box>
      {scrolls ? <Text dimColor>{`${rangeLabel(offset, height, lines.length)} · ↑/↓ PgUp/PgDn scroll`}</Text> : null}
      <Box flexDirection="column" marginTop={1}>
        {promptLines(st, facts, th, width)}
        <KeyHelp table={keysOf(st.mode, canTrip)} width={width} />
      </Box>
    </Box>
  );
}
