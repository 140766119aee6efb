/**
 * Kill-switch reset (`tradewarden killswitch`): why and when trading halted, what a reset does,
 * and the reset itself only after typing the exact confirmation word and a reason (after the
 * Shopify CLI's dangerous-confirmation prompt). Esc leaves everything as it was.
 */
import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { TradingState } from "../core/domain.js";
import { money, pct } from "../printers/format.js";
import { sanitizeLine } from "../util/sanitize.js";
import { HelpOverlay, KeyHelp, Spinner } from "./components.js";
import { useKeys } from "./input.js";
import { KILLSWITCH_DONE_KEYS } from "./keys.js";
import { KILLSWITCH_REASON_KEYS, KILLSWITCH_WORD_KEYS, type KillSwitchState, killSwitchKey, RESET_WORD } from "./killswitch-input.js";
import { EMPTY_LINE, LineField } from "./line-editor.js";
import { useTerminalSize } from "./terminal.js";
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
}

export interface KillSwitchScreenProps {
  facts: KillSwitchFacts;
  /** Record the reset in the journal (peak := current value; REDUCING for N runs). */
  onReset: (args: { reason: string }) => Promise<void>;
  /** Leave the screen (after a reset, or without one). */
  onExit: () => void;
  /** Ctrl+C; defaults to onExit. */
  onInterrupt?: () => void;
}

const LIQUIDATION_TEXT: Record<KillSwitchFacts["liquidation"]["status"], string> = {
  none: "nothing to liquidate",
  pending: "liquidation pending: holdings will be sold at the next run that can trade",
  partial: "liquidation partial: some holdings are still held and will be sold at the next run that can trade",
  complete: "liquidation complete: every holding was sold",
};

/** Not halted: nothing to reset, and what the account is doing instead. */
function notHaltedFacts(facts: KillSwitchFacts, th: Theme, cur: string): ReactNode {
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text>Trading is not halted: there is nothing to reset.</Text>
      {facts.trading_state === "REDUCING" ? (
        <Text color={th.c("warn")}>The account is REDUCING: only sells are allowed until the reducing runs are over.</Text>
      ) : null}
      {facts.current_value !== undefined ? <Text>Current value {money(facts.current_value, cur)}</Text> : null}
    </Box>
  );
}

/** Halted: why and when, the liquidation, and what a reset does. */
function haltedFacts(facts: KillSwitchFacts, th: Theme, cur: string, afterState: string): ReactNode {
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text>
        Halted {facts.trading_day ? `on trading day ${sanitizeLine(facts.trading_day)} ` : ""}
        {facts.tripped_at ? `at ${sanitizeLine(facts.tripped_at)}` : "(time unknown)"}
        {facts.run_id ? ` in run ${sanitizeLine(facts.run_id)}` : ""}
      </Text>
      <Text color={th.c("error")}>Why: {facts.reason ? sanitizeLine(facts.reason) : "drawdown reached the limit"}</Text>
      <Text>
        Value at trip {facts.value_at_trip !== undefined ? money(facts.value_at_trip, cur) : "—"} · peak{" "}
        {facts.peak !== undefined ? money(facts.peak, cur) : "—"} · drawdown {facts.drawdown_pct !== undefined ? pct(facts.drawdown_pct) : "—"}
        {facts.limit_pct !== undefined ? ` (limit ${pct(facts.limit_pct, 0)})` : ""}
      </Text>
      <Text color={th.c(facts.liquidation.status === "complete" || facts.liquidation.status === "none" ? "plain" : "warn")}>
        {LIQUIDATION_TEXT[facts.liquidation.status]}
        {facts.liquidation.detail ? ` (${sanitizeLine(facts.liquidation.detail)})` : ""}
      </Text>
      {(facts.liquidation.orders ?? []).map((o) => (
        <Text key={o.client_order_id}>
          · liquidation order {sanitizeLine(o.client_order_id)}: SELL {o.quantity} {sanitizeLine(o.symbol)}, {sanitizeLine(o.status)}, {o.filled_quantity}{" "}
          filled (outside the monthly quota)
        </Text>
      ))}
      <Text>Current value {facts.current_value !== undefined ? money(facts.current_value, cur) : "—"}</Text>
      <Box flexDirection="column" marginTop={1}>
        <Text bold>What a reset does</Text>
        <Text>
          · the peak becomes the current value{facts.current_value !== undefined ? ` (${money(facts.current_value, cur)})` : ""}, so the drawdown starts again
          from 0%
        </Text>
        <Text>· the trading state becomes {afterState}</Text>
        <Text>· the reset and your reason are recorded in the journal; holdings are not touched</Text>
      </Box>
    </Box>
  );
}

/** The prompt of the current step, the progress or the result, the message and the keys. */
function promptArea(st: KillSwitchState, th: Theme, columns: number, afterState: string): ReactNode {
  return (
    <Box flexDirection="column" marginTop={1}>
      {st.mode.kind === "word" ? (
        <LineField tone="warn" label={`Step 1 of 2 · type ${RESET_WORD} to reset the kill switch:`} line={st.mode.line} width={columns - 1} />
      ) : null}
      {st.mode.kind === "reason" ? (
        <LineField tone="warn" label="Step 2 of 2 · reason (recorded in the journal):" line={st.mode.line} width={columns - 1} />
      ) : null}
      {st.mode.kind === "busy" ? (
        <Text>
          <Spinner /> recording the reset…
        </Text>
      ) : null}
      {st.mode.kind === "done" ? (
        <Text bold color={th.c("ok")}>
          ✓ Kill switch reset: the peak is now the current value; trading state {afterState}.
        </Text>
      ) : null}
      {st.message ? <Text color={th.c(st.message.error ? "error" : "plain")}>{st.message.text}</Text> : null}
      <KeyHelp
        table={
          st.mode.kind === "word"
            ? KILLSWITCH_WORD_KEYS
            : st.mode.kind === "reason"
              ? KILLSWITCH_REASON_KEYS
              : st.mode.kind === "busy"
                ? []
                : KILLSWITCH_DONE_KEYS
        }
        width={Math.max(20, columns - 1)}
      />
    </Box>
  );
}

export function KillSwitchScreen({ facts, onReset, onExit, onInterrupt }: KillSwitchScreenProps) {
  const th = useTheme();
  const { columns } = useTerminalSize();
  const halted = facts.trading_state === "HALTED";
  const [get, set] = useRefState<KillSwitchState>(() => ({
    mode: halted ? { kind: "word", line: EMPTY_LINE } : { kind: "idle" },
    message: null,
    help: false,
  }));
  const st = get();
  const cur = facts.base_currency ?? "";
  const interrupt = onInterrupt ?? onExit;

  useKeys((input, key) => killSwitchKey({ s: get(), input, key, set, onReset, onExit, interrupt }));

  if (st.help) {
    return (
      <Box flexDirection="column" width={Math.max(20, columns - 1)}>
        <Text bold color={th.c(halted ? "error" : "ok")}>
          Kill switch · trading state {facts.trading_state}
        </Text>
        <HelpOverlay
          title="kill switch"
          table={st.mode.kind === "word" ? KILLSWITCH_WORD_KEYS : st.mode.kind === "reason" ? KILLSWITCH_REASON_KEYS : KILLSWITCH_DONE_KEYS}
          width={Math.max(20, columns - 1)}
        />
      </Box>
    );
  }

  const afterState = facts.reducing_runs_after_reset > 0 ? `REDUCING (sells only) for ${facts.reducing_runs_after_reset} run(s), then ACTIVE` : "ACTIVE";
  return (
    <Box flexDirection="column" width={Math.max(20, columns - 1)}>
      <Text bold color={th.c(halted ? "error" : "ok")}>
        Kill switch · trading state {facts.trading_state}
      </Text>
      {!halted ? notHaltedFacts(facts, th, cur) : haltedFacts(facts, th, cur, afterState)}
      {promptArea(st, th, columns, afterState)}
    </Box>
  );
}
