/**
 * `tradewarden reconcile` on a terminal: every difference between the journal and the broker and
 * what it proves (orders recovered by client order id are listed first). A difference nobody can
 * explain is resolved only by the operator: typing the exact confirmation word, then a reason;
 * the adoption is recorded as append-only adjustments. Esc leaves everything as it was.
 */
import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { ReconcileDifference } from "../core/events.js";
import { sanitizeLine } from "../util/sanitize.js";
import { KeyHelp, Spinner } from "./components.js";
import { type Keys, useKeys } from "./input.js";
import { KILLSWITCH_DONE_KEYS, matchKey } from "./keys.js";
import { EMPTY_LINE, LineField, type LineState, promptKey, promptKeys } from "./line-editor.js";
import { useTerminalSize } from "./terminal.js";
import { type Theme, useTheme } from "./theme.js";
import { useRefState } from "./use-ref-state.js";

const ADOPT_WORD = "ADOPT";

export interface ReconcileScreenProps {
  /** One line per order recovered by client order id. */
  recovered: string[];
  differences: ReconcileDifference[];
  /** Record the adoption (append-only adjustments); resolves with what is left after it. */
  onAdopt: (args: { reason: string }) => Promise<ReconcileDifference[]>;
  onExit: () => void;
  onInterrupt?: () => void;
}

type Mode =
  | { kind: "word"; line: LineState }
  | { kind: "reason"; line: LineState }
  | { kind: "busy" }
  | { kind: "done"; left: ReconcileDifference[] }
  | { kind: "idle" };

const LEAVE = "leave without changes";
const INTERRUPT = "leave without changes (exit 130)";
const RECONCILE_WORD_KEYS = promptKeys("continue to the reason", LEAVE, INTERRUPT);
const RECONCILE_REASON_KEYS = promptKeys("adopt the broker's side", LEAVE, INTERRUPT);

interface ReconcileState {
  mode: Mode;
  message: { error: boolean; text: string } | null;
}

/** One key press and what the screen offers its handler. */
interface ReconcileKey {
  s: ReconcileState;
  input: string;
  key: Keys;
  set: (next: ReconcileState) => void;
  onAdopt: ReconcileScreenProps["onAdopt"];
  onExit: () => void;
  interrupt: () => void;
}

function reconcileKey(k: ReconcileKey) {
  const { s, input, key, set, onExit, interrupt } = k;
  const m = s.mode;
  if (m.kind === "busy") return;
  if (m.kind === "idle" || m.kind === "done") {
    const a = matchKey(KILLSWITCH_DONE_KEYS, input, key);
    if (a === "interrupt") interrupt();
    else if (a === "exit") onExit();
    return;
  }
  const out = promptKey(m.kind === "word" ? RECONCILE_WORD_KEYS : RECONCILE_REASON_KEYS, m.line, input, key);
  if (out.kind === "interrupt") return interrupt();
  if (out.kind === "cancel") return onExit();
  if (out.kind === "edit") return set({ ...s, mode: { ...m, line: out.line } });
  if (out.kind !== "submit") return;
  if (m.kind === "word") {
    if (out.line.text === ADOPT_WORD) return set({ mode: { kind: "reason", line: EMPTY_LINE }, message: null });
    return set({
      mode: { kind: "word", line: EMPTY_LINE },
      message: { error: true, text: `refused: "${sanitizeLine(out.line.text)}" is not ${ADOPT_WORD}. Type ${ADOPT_WORD} exactly (capitals), or Esc to leave.` },
    });
  }
  submitReason(k, out.line.text);
}

/** The reason typed: the adoption is recorded with it (a blank one is refused); a failed one starts over. */
function submitReason({ s, set, onAdopt }: ReconcileKey, typed: string) {
  const reason = sanitizeLine(typed).trim();
  if (!reason) return set({ ...s, message: { error: true, text: "a reason is required: it is recorded with each adjustment" } });
  set({ mode: { kind: "busy" }, message: null });
  onAdopt({ reason }).then(
    (left) => set({ mode: { kind: "done", left }, message: null }),
    (e: unknown) =>
      set({
        mode: { kind: "word", line: EMPTY_LINE },
        message: { error: true, text: `adoption failed, nothing changed: ${sanitizeLine(e instanceof Error ? e.message : String(e))}` },
      }),
  );
}

/** Each difference and what it proves. */
function differenceList(differences: ReconcileDifference[], th: Theme): ReactNode {
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>Differences</Text>
      {differences.map((d) => (
        <Box key={`${d.kind}-${d.symbol}-${d.client_order_id ?? d.broker_order_id ?? ""}`} flexDirection="column">
          <Text color={th.c(d.adoptable ? "warn" : "error")}>
            · {d.kind} {sanitizeLine(d.symbol)}: {sanitizeLine(d.message)}
          </Text>
          <Text>
            {"  "}proves: {sanitizeLine(d.proves ?? "—")}
            {d.adoptable ? " · adoptable" : " · not adoptable: needs an action at the broker or time"}
          </Text>
        </Box>
      ))}
    </Box>
  );
}

/** The prompt of the current step, the progress or the result, the message and the keys. */
function promptArea(st: ReconcileState, th: Theme, width: number): ReactNode {
  return (
    <Box flexDirection="column" marginTop={1}>
      {st.mode.kind === "word" ? <LineField tone="warn" label={`Type ${ADOPT_WORD} to adopt the broker's side:`} line={st.mode.line} width={width} /> : null}
      {st.mode.kind === "reason" ? <LineField tone="warn" label="Reason (recorded with each adjustment):" line={st.mode.line} width={width} /> : null}
      {st.mode.kind === "busy" ? (
        <Text>
          <Spinner /> recording the adjustments…
        </Text>
      ) : null}
      {st.mode.kind === "done" ? (
        <Text bold color={th.c(st.mode.left.length === 0 ? "ok" : "warn")}>
          {st.mode.left.length === 0 ? "✓ Adopted: the journal and the broker agree." : `Adopted; ${st.mode.left.length} difference(s) remain (not adoptable).`}
        </Text>
      ) : null}
      {st.message ? <Text color={th.c(st.message.error ? "error" : "plain")}>{st.message.text}</Text> : null}
      <KeyHelp
        table={
          st.mode.kind === "word"
            ? RECONCILE_WORD_KEYS
            : st.mode.kind === "reason"
              ? RECONCILE_REASON_KEYS
              : st.mode.kind === "busy"
                ? []
                : KILLSWITCH_DONE_KEYS
        }
        width={width}
      />
    </Box>
  );
}

export function ReconcileScreen({ recovered, differences, onAdopt, onExit, onInterrupt }: ReconcileScreenProps) {
  const th = useTheme();
  const { columns } = useTerminalSize();
  const width = Math.max(20, columns - 1);
  const adoptable = differences.filter((d) => d.adoptable);
  const [get, set] = useRefState<ReconcileState>(() => ({
    mode: adoptable.length > 0 ? { kind: "word", line: EMPTY_LINE } : { kind: "idle" },
    message: null,
  }));
  const st = get();
  const interrupt = onInterrupt ?? onExit;
  // After the adoption, the title and the list are what the journal and the broker say now (read back).
  const shown = st.mode.kind === "done" ? st.mode.left : differences;

  useKeys((input, key) => reconcileKey({ s: get(), input, key, set, onAdopt, onExit, interrupt }));

  return (
    <Box flexDirection="column" width={width}>
      <Text bold color={th.c(shown.length === 0 ? "ok" : "warn")} wrap="truncate-end">
        Reconcile · {shown.length === 0 ? "the journal and the broker agree" : `${shown.length} difference(s)`}
      </Text>
      {recovered.length > 0 ? (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>Recovered by client order id</Text>
          {recovered.map((r) => (
            <Text key={r}>· {sanitizeLine(r)}</Text>
          ))}
        </Box>
      ) : null}
      {shown.length > 0 ? differenceList(shown, th) : null}
      {adoptable.length > 0 && st.mode.kind !== "done" ? (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>What adopting does</Text>
          <Text>
            · the journal takes the broker's side of the {adoptable.length} adoptable difference(s), as append-only adjustments (nothing booked is edited)
          </Text>
          <Text>· your reason and your name are recorded with each adjustment</Text>
        </Box>
      ) : null}
      {promptArea(st, th, width)}
    </Box>
  );
}
