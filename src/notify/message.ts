/**
 * The one message every notification channel carries (`tradewarden.notify/1`): what happened, as data
 * for a program (the generic webhook and the command get it whole) and as a title and text for a
 * person (Slack, Discord and ntfy show those). Built from the run's own records only: a message never
 * carries a key, a webhook URL or a token (the send path redacts it once more all the same).
 */
import { type Static, Type } from "@sinclair/typebox";
import type { TProperties, TSchema } from "@sinclair/typebox";
import type { NOTIFY_EVENTS } from "../config/notify-schema.js";

export const NOTIFY_FORMAT = "tradewarden.notify/1";

const Side = Type.Union([Type.Literal("BUY"), Type.Literal("SELL")]);
const Str = Type.String();
const RunId = Type.String({ description: "The run's id (runs/<id>/ in the home)." });
const Day = Type.String({ description: "The trading day (YYYY-MM-DD)." });

/** Limit and fill prices are in the instrument's own currency. */
const OrderLineSchema = Type.Object({ symbol: Str, side: Side, quantity: Type.Number(), limit_price: Type.Number() });
const FillLineSchema = Type.Object({ symbol: Str, side: Side, quantity: Type.Number(), avg_price: Type.Number() });

/** What each event says, before the title and text are put on it. */
const BODIES = {
  approval_needed: {
    run_id: RunId,
    trading_day: Day,
    orders: Type.Array(OrderLineSchema),
    approve_command: Type.String({ description: "The exact command that decides the proposal." }),
    expires: Type.Object({
      trading_day: Day,
      at: Type.Union([Str, Type.Null()], { description: "When the session closes (ISO 8601), when the broker says; null otherwise." }),
      rule: Type.String({ description: "When the proposal can no longer be approved, in words." }),
    }),
  },
  executed: {
    run_id: RunId,
    trading_day: Day,
    orders_sent: Type.Integer({ minimum: 0 }),
    fills: Type.Array(FillLineSchema),
    message: Str,
  },
  killswitch_tripped: {
    run_id: Type.Union([RunId, Type.Null()]),
    by: Type.Union([Type.Literal("drawdown"), Type.Literal("operator")]),
    reason: Str,
    value: Type.Number(),
    peak: Type.Number(),
    drawdown_pct: Type.Number(),
    currency: Str,
  },
  reconcile_failed: { run_id: RunId, trading_day: Day, differences: Type.Integer({ minimum: 0 }), reason: Str },
  run_failed: { run_id: RunId, trading_day: Day, outcome: Str, exit_code: Type.Integer(), reason: Str },
  scheduler_silent: {
    minutes_silent: Type.Integer({ minimum: 0 }),
    last_heartbeat: Type.Union([Str, Type.Null()], { description: "The last heartbeat (ISO 8601); null when there never was one." }),
  },
  test: { reason: Str },
} satisfies Record<(typeof NOTIFY_EVENTS)[number] | "test", Record<string, TSchema>>;

const Priority = Type.Union([Type.Literal("low"), Type.Literal("default"), Type.Literal("high"), Type.Literal("urgent")]);
export type Priority = Static<typeof Priority>;

/** The notice of each kind (`event` and what it says), spelled out so the union stays discriminated. */
const notices = <E extends TProperties>(extra: E) =>
  [
    Type.Object({ ...extra, event: Type.Literal("approval_needed"), ...BODIES.approval_needed }, { additionalProperties: false }),
    Type.Object({ ...extra, event: Type.Literal("executed"), ...BODIES.executed }, { additionalProperties: false }),
    Type.Object({ ...extra, event: Type.Literal("killswitch_tripped"), ...BODIES.killswitch_tripped }, { additionalProperties: false }),
    Type.Object({ ...extra, event: Type.Literal("reconcile_failed"), ...BODIES.reconcile_failed }, { additionalProperties: false }),
    Type.Object({ ...extra, event: Type.Literal("run_failed"), ...BODIES.run_failed }, { additionalProperties: false }),
    Type.Object({ ...extra, event: Type.Literal("scheduler_silent"), ...BODIES.scheduler_silent }, { additionalProperties: false }),
    Type.Object({ ...extra, event: Type.Literal("test"), ...BODIES.test }, { additionalProperties: false }),
  ] as const;

const NoticeSchema = Type.Union([...notices({})]);
/** What happened (one of the events, or a test ping): the message without its words. */
export type Notice = Static<typeof NoticeSchema>;

const BASE = {
  format: Type.Literal(NOTIFY_FORMAT),
  at: Type.String({ description: "When it was sent (ISO 8601)." }),
  title: Type.String({ description: "One line for a person." }),
  text: Type.String({ description: "A few lines for a person; numbers through the one formatter." }),
  priority: Priority,
};

export const NotifyMessageSchema = Type.Union([...notices(BASE)]);
/** The message as every channel gets it: the notice, with its title, text and priority. */
export type NotifyMessage = Static<typeof NotifyMessageSchema>;
