/**
 * The standing orders the model proposed in this run, for the operator: each trigger and the order
 * it would place, marked approve / reject / leave (for `tradewarden standing approve` later). Enter
 * shows what will be recorded and asks for `y` on its own: a `y` that arrives with other keys
 * (typed ahead, pasted) goes back to the list and says why. Esc leaves every one proposed. An
 * approval binds to the trigger and the order shown (the pipeline records the binding hash).
 */
import { Box, Text } from "ink";
import type { StandingOrder } from "../journal/standing-orders.js";
import type { StandingApprovalRequest, StandingDecision } from "../run/approval.js";
import { sanitizeLine } from "../util/sanitize.js";
import { price, quantity } from "../core/format.js";
import { HelpOverlay, KeyHelp } from "./components.js";
import { describeKeys, useKeys } from "./input.js";
import { type Binding, char, helpKey, isCtrlC, type KeyTable, matchKey, moveKeys } from "./keys.js";
import { useTerminalSize } from "./terminal.js";
import { useTheme } from "./theme.js";
import { useRefState } from "./use-ref-state.js";

export type StandingMark = "approve" | "reject" | "leave";
type ListAction = "up" | "down" | "approve" | "reject" | "leave" | "review" | "escape" | "help" | "interrupt";

const bind = <A extends string>(action: A, label: string, help: string, match: Binding["match"], hidden = false): Binding<A> => ({
  action,
  label,
  help,
  match,
  ...(hidden ? { hidden } : {}),
});

const STANDING_LIST_KEYS: KeyTable<ListAction> = [
  ...moveKeys("order")
    .filter((b) => b.action === "up" || b.action === "down")
    .map((b) => b as Binding<ListAction>),
  bind("approve", "a", "approve", char("a")),
  bind("reject", "r", "reject", char("r")),
  bind("leave", "l", "leave for later", char("l")),
  bind("review", "Enter", "review and record", (_i, k) => k.return),
  bind("escape", "Esc", "leave them all for later", (_i, k) => k.escape),
  helpKey<ListAction>(),
  bind("interrupt", "Ctrl+C", "stop the run", isCtrlC),
];

type ConfirmAction = "confirm" | "interrupt";
const STANDING_CONFIRM_KEYS: KeyTable<ConfirmAction> = [
  bind("confirm", "y", "record these decisions (any other key goes back)", char("y")),
  bind("interrupt", "Ctrl+C", "stop the run", isCtrlC),
];

function standingLine(o: StandingOrder): string {
  return `${o.id}  ${o.type.replace(/_/g, " ")} ${o.symbol} at ${price(o.trigger_price)} → ${o.side} ${quantity(o.quantity)} @ ${price(o.limit_price)}, armed through ${o.expires_on}`;
}

/** The decision the marks make (reject reasons say where they were decided). */
function decisionOf(orders: readonly StandingOrder[], marks: readonly StandingMark[]): StandingDecision {
  return {
    by: "operator",
    approved: orders.filter((_, i) => marks[i] === "approve").map((o) => o.id),
    rejected: orders.filter((_, i) => marks[i] === "reject").map((o) => ({ id: o.id, reason: "rejected by the operator on the console" })),
  };
}

interface State {
  cursor: number;
  marks: StandingMark[];
  confirming: boolean;
  help: boolean;
  message: string | null;
}

export interface StandingApprovalScreenProps {
  request: StandingApprovalRequest;
  onDecide: (d: StandingDecision) => void;
  onInterrupt: () => void;
}

export function StandingApprovalScreen({ request, onDecide, onInterrupt }: StandingApprovalScreenProps) {
  const th = useTheme();
  const { columns } = useTerminalSize();
  const width = Math.max(20, columns - 1);
  const orders = request.orders;
  const [get, set] = useRefState<State>(() => ({ cursor: 0, marks: orders.map(() => "leave"), confirming: false, help: false, message: null }));
  const st = get();

  useKeys((input, key, press) => {
    const s = get();
    if (s.confirming) {
      const a = matchKey(STANDING_CONFIRM_KEYS, input, key);
      if (a === "interrupt") return onInterrupt();
      if (a === "confirm" && press.burst === 1) return onDecide(decisionOf(orders, s.marks));
      const why = a === "confirm" ? `${describeKeys(press.chunk)} arrived together` : `${describeKeys(press.chunk)} is not y`;
      return set({ ...s, confirming: false, message: `not recorded: ${why}; nothing changed` });
    }
    const a = matchKey(STANDING_LIST_KEYS, input, key);
    if (a === "interrupt") return onInterrupt();
    if (s.help) return set({ ...s, help: false });
    if (a === "help") return set({ ...s, help: true });
    if (a === "escape") return onDecide({ by: "operator", approved: [], rejected: [] });
    if (a === "up" || a === "down") {
      const cursor = Math.max(0, Math.min(orders.length - 1, s.cursor + (a === "up" ? -1 : 1)));
      return set({ ...s, cursor, message: null });
    }
    if (a === "approve" || a === "reject" || a === "leave") {
      const marks = s.marks.slice();
      marks[s.cursor] = a;
      return set({ ...s, marks, cursor: Math.min(orders.length - 1, s.cursor + 1), message: null });
    }
    if (a === "review") return set({ ...s, confirming: true, message: null });
  });

  const count = (m: StandingMark) => st.marks.filter((x) => x === m).length;
  const tone = (m: StandingMark) => th.c(m === "approve" ? "ok" : m === "reject" ? "error" : "dim");
  const selected = orders[st.cursor];
  if (st.help) return <HelpOverlay title="standing orders" table={STANDING_LIST_KEYS} width={width} />;
  return (
    <Box flexDirection="column" width={width} marginTop={1}>
      <Text bold color={th.c("warn")}>
        Standing orders proposed in this run ({orders.length}): once approved, each fires in a later run when its trigger is crossed, through the final gate
      </Text>
      {orders.map((o, i) => (
        <Text key={o.id} color={tone(st.marks[i] ?? "leave")} inverse={i === st.cursor}>
          {i === st.cursor ? "›" : " "} [{(st.marks[i] ?? "leave").padEnd(7)}] {sanitizeLine(standingLine(o))}
        </Text>
      ))}
      {selected ? <Text dimColor>{`  reason: ${sanitizeLine(selected.reason)}`}</Text> : null}
      {st.confirming ? (
        <Text bold color={th.c("warn")}>
          Record: approve {count("approve")}, reject {count("reject")}, leave {count("leave")} for later? Press y.
        </Text>
      ) : null}
      {st.message ? <Text color={th.c("error")}>{st.message}</Text> : null}
      <KeyHelp table={st.confirming ? STANDING_CONFIRM_KEYS : STANDING_LIST_KEYS} width={width} />
    </Box>
  );
}
