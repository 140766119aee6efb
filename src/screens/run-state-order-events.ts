/** The run reducer's handlers for gate verdicts, the proposal, the approval and the orders' lifecycle. */
import { decisionText, money } from "../printers/format.js";
import { sanitizeLine } from "../util/sanitize.js";
import type { Tone } from "./theme.js";
import { append, type EventHandler, type EventOf, note, type RunEventHandlers, verdictRows } from "./run-state-items.js";
import type { RunState } from "./run-state-types.js";

const gateDryRun: EventHandler<"gate.dry_run"> = (s, e) => {
  const rows = verdictRows(e.decisions);
  const blocked = rows.filter((r) => !r.approved).length;
  return append(s, e.seq, {
    kind: "verdicts",
    tone: blocked ? "warn" : "ok",
    title: `gate dry run: ${rows.length - blocked} approved, ${blocked} blocked`,
    rows,
    footer: [],
  });
};

const proposal: EventHandler<"proposal"> = (s, e) => {
  const rows = verdictRows(e.decisions);
  const footer = [`summary: ${sanitizeLine(e.summary)}`, ...(e.abandoned.length ? [`abandoned corrections: ${e.abandoned.map(sanitizeLine).join(", ")}`] : [])];
  return append({ ...s, status: { ...s.status, phase: "proposal" } }, e.seq, {
    kind: "verdicts",
    tone: "accent",
    title: e.orders.length === 0 ? "proposal: hold (no orders)" : `proposal: ${e.orders.length} order(s)`,
    rows,
    footer,
  });
};

const approvalRequested: EventHandler<"approval.requested"> = (s, e) =>
  append(
    { ...s, status: { ...s.status, phase: "approval" }, approval: { orders_hash: e.orders_hash, approvable: e.approvable, blocked: e.blocked } },
    e.seq,
    note("accent", `approval requested: ${e.approvable} approvable, ${e.blocked} blocked (orders ${sanitizeLine(e.orders_hash).slice(0, 12)})`),
  );

const approvalDecided: EventHandler<"approval.decided"> = (s, e) =>
  append(
    { ...s, status: { ...s.status, phase: "final_gate" }, approval: null },
    e.seq,
    note(
      e.decision === "approved" ? "ok" : e.decision === "killswitch" ? "error" : "warn",
      `decision: ${decisionText(e.decision, e.by)}${e.orders.length ? ` (${e.orders.length} order(s))` : ""}${e.reason ? `: ${sanitizeLine(e.reason)}` : ""}`,
      e.orders.map((o) => `${o.side} ${o.quantity} ${sanitizeLine(o.symbol)} @ ${o.limit_price}`),
    ),
  );

const gateFinal: EventHandler<"gate.final"> = (s, e) => {
  const rows = verdictRows(e.decisions);
  const blocked = rows.filter((r) => !r.approved).length;
  return append({ ...s, status: { ...s.status, phase: "executing" } }, e.seq, {
    kind: "verdicts",
    tone: blocked ? "warn" : "ok",
    title: `final gate: ${rows.length - blocked} approved, ${blocked} blocked`,
    rows,
    footer: [],
  });
};

type OrderEvent = EventOf<
  "order.placed" | "order.partially_filled" | "order.filled" | "order.cancelled" | "order.rejected" | "order.uncertain" | "order.expired"
>;

/** An order event becomes one order item of its tone; `text` words it around the order's head. */
function orderItem<E extends OrderEvent>(tone: Tone, text: (e: E, head: string) => string): (s: RunState, e: E) => RunState {
  return (s, e) => {
    const head = `${e.side} ${e.quantity} ${sanitizeLine(e.symbol)} @ ${e.limit_price}`;
    return append({ ...s, status: { ...s.status, phase: "executing" } }, e.seq, { kind: "order", tone, text: text(e, head) });
  };
}

export const ORDER_HANDLERS = {
  "gate.dry_run": gateDryRun,
  "submit.bounced": (s, e) =>
    append(s, e.seq, {
      kind: "verdicts",
      tone: "warn",
      title: "submit bounced by the gate (one revision allowed)",
      rows: verdictRows(e.decisions),
      footer: [],
    }),
  proposal,
  "approval.requested": approvalRequested,
  "approval.decided": approvalDecided,
  "gate.final": gateFinal,
  "order.placed": orderItem("plain", (e: EventOf<"order.placed">, head) => `order placed: ${head} (${sanitizeLine(e.client_order_id)})`),
  "order.partially_filled": orderItem(
    "plain",
    (e: EventOf<"order.partially_filled">, head) => `order partially filled: ${head}: ${e.filled_quantity}/${e.quantity} at ${e.avg_price}`,
  ),
  "order.filled": orderItem(
    "ok",
    (e: EventOf<"order.filled">, head) => `order filled: ${head}: ${e.filled_quantity} at ${e.avg_price} (commission ${money(e.commission)})`,
  ),
  "order.cancelled": orderItem(
    "warn",
    (e: EventOf<"order.cancelled">, head) => `order cancelled: ${head}: ${e.filled_quantity}/${e.quantity} filled: ${sanitizeLine(e.message)}`,
  ),
  "order.expired": orderItem("warn", (e: EventOf<"order.expired">, head) => `order expired: ${head}: ${e.filled_quantity}/${e.quantity} filled`),
  "order.rejected": orderItem("error", (e: EventOf<"order.rejected">, head) => `order rejected: ${head}: ${sanitizeLine(e.message)}`),
  "order.uncertain": orderItem("error", (e: EventOf<"order.uncertain">, head) => `order uncertain: ${head}: ${sanitizeLine(e.message)}`),
} satisfies Partial<RunEventHandlers>;
