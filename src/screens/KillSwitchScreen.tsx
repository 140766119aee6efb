/**
 * Kill-switch reset (`tradewarden killswitch`): why and when trading halted, what a reset does,
 * and the reset itself only after typing the exact confirmation word and a reason (after the
 * Shopify CLI's dangerous-confirmation prompt). Esc leaves everything as it was.
 */
import { Box, Text, useInput } from "ink";
import type { TradingState } from "../core/domain.js";
import { money, pct } from "../run/format.js";
import { sanitizeLine } from "../util/sanitize.js";
import { KeyHelp, PromptLine, Spinner } from "./components.js";
import { KILLSWITCH_DONE_KEYS, KILLSWITCH_PROMPT_KEYS, matchKey } from "./keys.js";
import { useTerminalSize } from "./terminal.js";
import { editBuffer } from "./text.js";
import { useTheme } from "./theme.js";
import { useRefState } from "./use-ref-state.js";

export const RESET_WORD = "RESET";

export interface KillSwitchFacts {
  trading_state: TradingState;
  base_currency?: string;
  /** When the switch tripped (ISO time) and in which run. */
  tripped_at?: string;
  run_id?: string;
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

type Mode = { kind: "word"; text: string } | { kind: "reason"; text: string } | { kind: "busy" } | { kind: "done" } | { kind: "idle" };

const LIQUIDATION_TEXT: Record<KillSwitchFacts["liquidation"]["status"], string> = {
  none: "nothing to liquidate",
  pending: "liquidation pending: holdings will be sold at the next run that can trade",
  partial: "liquidation partial: some holdings are still held and will be sold at the next run that can trade",
  complete: "liquidation complete: every holding was sold",
};

export function KillSwitchScreen({ facts, onReset, onExit, onInterrupt }: KillSwitchScreenProps) {
  const th = useTheme();
  const { columns } = useTerminalSize();
  const halted = facts.trading_state === "HALTED";
  const [get, set] = useRefState<{ mode: Mode; message: { error: boolean; text: string } | null }>(() => ({
    mode: halted ? { kind: "word", text: "" } : { kind: "idle" },
    message: null,
  }));
  const st = get();
  const cur = facts.base_currency ?? "";

  useInput((input, key) => {
    const s = get();
    const m = s.mode;
    if (m.kind === "busy") return;
    if (m.kind === "idle" || m.kind === "done") {
      const a = matchKey(KILLSWITCH_DONE_KEYS, input, key);
      if (a === "interrupt") (onInterrupt ?? onExit)();
      else if (a === "exit") onExit();
      return;
    }
    // Pasted text that ends with Enter arrives as one chunk: the text, then Enter.
    const nl = input.length > 1 ? input.search(/[\r\n]/) : -1;
    const pm = nl >= 0 ? { ...m, text: editBuffer(m.text, input.slice(0, nl), key) } : m;
    const a = nl >= 0 ? "submit" : matchKey(KILLSWITCH_PROMPT_KEYS, input, key);
    if (a === "interrupt") return (onInterrupt ?? onExit)();
    if (a === "cancel") return onExit();
    if (a === "submit") {
      if (pm.kind === "word") {
        if (pm.text === RESET_WORD) return set({ mode: { kind: "reason", text: "" }, message: null });
        return set({ mode: { kind: "word", text: "" }, message: { error: true, text: `refused: "${sanitizeLine(pm.text)}" is not ${RESET_WORD}. Type ${RESET_WORD} exactly (capitals), or Esc to leave.` } });
      }
      const reason = sanitizeLine(pm.text).trim();
      if (!reason) return set({ ...s, mode: pm, message: { error: true, text: "a reason is required: it is recorded in the journal" } });
      set({ mode: { kind: "busy" }, message: null });
      onReset({ reason }).then(
        () => set({ mode: { kind: "done" }, message: null }),
        (e: unknown) => set({ mode: { kind: "word", text: "" }, message: { error: true, text: `reset failed, nothing changed: ${sanitizeLine(e instanceof Error ? e.message : String(e))}` } }),
      );
      return;
    }
    set({ ...s, mode: { ...m, text: editBuffer(m.text, input, key) } });
  });

  const afterState = facts.reducing_runs_after_reset > 0 ? `REDUCING (sells only) for ${facts.reducing_runs_after_reset} run(s), then ACTIVE` : "ACTIVE";
  return (
    <Box flexDirection="column" width={columns}>
      <Text bold color={th.c(halted ? "error" : "ok")}>
        Kill switch · trading state {facts.trading_state}
      </Text>
      {!halted ? (
        <Box flexDirection="column" marginTop={1}>
          <Text>Trading is not halted: there is nothing to reset.</Text>
          {facts.trading_state === "REDUCING" ? <Text color={th.c("warn")}>The account is REDUCING: only sells are allowed until the reducing runs are over.</Text> : null}
          {facts.current_value !== undefined ? <Text>Current value {money(facts.current_value, cur)}</Text> : null}
        </Box>
      ) : (
        <Box flexDirection="column" marginTop={1}>
          <Text>
            Halted {facts.tripped_at ? `at ${sanitizeLine(facts.tripped_at)}` : "(time unknown)"}
            {facts.run_id ? ` in run ${sanitizeLine(facts.run_id)}` : ""}
          </Text>
          <Text color={th.c("error")}>Why: {facts.reason ? sanitizeLine(facts.reason) : "drawdown reached the limit"}</Text>
          <Text>
            Value at trip {facts.value_at_trip !== undefined ? money(facts.value_at_trip, cur) : "—"} · peak {facts.peak !== undefined ? money(facts.peak, cur) : "—"} · drawdown{" "}
            {facts.drawdown_pct !== undefined ? pct(facts.drawdown_pct) : "—"}
            {facts.limit_pct !== undefined ? ` (limit ${pct(facts.limit_pct, 0)})` : ""}
          </Text>
          <Text color={th.c(facts.liquidation.status === "complete" || facts.liquidation.status === "none" ? "plain" : "warn")}>
            {LIQUIDATION_TEXT[facts.liquidation.status]}
            {facts.liquidation.detail ? ` (${sanitizeLine(facts.liquidation.detail)})` : ""}
          </Text>
          {(facts.liquidation.orders ?? []).map((o) => (
            <Text key={o.client_order_id}>
              · liquidation order {sanitizeLine(o.client_order_id)}: SELL {o.quantity} {sanitizeLine(o.symbol)}, {sanitizeLine(o.status)}, {o.filled_quantity} filled (outside the monthly quota)
            </Text>
          ))}
          <Text>Current value {facts.current_value !== undefined ? money(facts.current_value, cur) : "—"}</Text>
          <Box flexDirection="column" marginTop={1}>
            <Text bold>What a reset does</Text>
            <Text>
              · the peak becomes the current value{facts.current_value !== undefined ? ` (${money(facts.current_value, cur)})` : ""}, so the drawdown starts again from 0%
            </Text>
            <Text>· the trading state becomes {afterState}</Text>
            <Text>· the reset and your reason are recorded in the journal; holdings are not touched</Text>
          </Box>
        </Box>
      )}
      <Box flexDirection="column" marginTop={1}>
        {st.mode.kind === "word" ? <PromptLine tone="warn" label={`Type ${RESET_WORD} to reset the kill switch:`} value={st.mode.text} /> : null}
        {st.mode.kind === "reason" ? <PromptLine tone="warn" label="Reason (recorded in the journal):" value={st.mode.text} /> : null}
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
        <KeyHelp table={st.mode.kind === "word" || st.mode.kind === "reason" ? KILLSWITCH_PROMPT_KEYS : st.mode.kind === "busy" ? [] : KILLSWITCH_DONE_KEYS} width={columns} />
      </Box>
    </Box>
  );
}
