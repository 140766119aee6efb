/**
 * Journal record and event shapes. The journal is event-sourced: every write appends events to the
 * log (`journal.log.jsonl`), and the head document (`journal.json`) holds the schema version,
 * the commit mark and a checkpoint of the balances. The in-memory model is the fold of the log.
 */
import type { Static } from "@sinclair/typebox";
import type { OrderStatus, Side } from "../core/domain.js";
import type * as S from "./schemas.js";

export const SCHEMA_VERSION = 2;
export const LOG_FILE = "journal.log.jsonl";

export type RunStatus = Static<typeof S.RunStatus>;
export type LockPurpose = "run" | "reset" | "init" | "deposit" | "sim" | "standing" | "reconcile" | "mcp";
export type NoteKind = Static<typeof S.NoteKind>;
export type RunTrigger = Static<typeof S.RunTrigger>;

export type Checkpoint = Static<typeof S.Checkpoint>;
export type HeadDoc = Static<typeof S.HeadDoc>;
export type LedgerEntry = Static<typeof S.LedgerEntry>;
export type RunRecord = Static<typeof S.RunRecord>;
export type OrderRecord = Static<typeof S.OrderRecord>;
export type FillRecord = Static<typeof S.FillRecord>;
export type ProposalRecord = Static<typeof S.ProposalRecord>;
export type ApprovalRecord = Static<typeof S.ApprovalRecord>;
export type UsageRecord = Static<typeof S.UsageRecord>;
export type TripRecord = Static<typeof S.TripRecord>;
export type ResetRecord = Static<typeof S.ResetRecord>;
export type Note = Static<typeof S.Note>;
export type AdjustmentRecord = Static<typeof S.AdjustmentRecord>;

type Bodies = typeof S.EVENT_BODIES;
/** The log's records: `t`, the event type, and the rest of the line as its schema has it. */
export type JournalEventBody = { [T in keyof Bodies]: { t: T } & Static<Bodies[T]> }[keyof Bodies];

/** `prev`: the hash chain before this line (chain.ts); absent on lines written before the chain. */
export type JournalEvent = JournalEventBody & { seq: number; prev?: string };

export interface Holding {
  quantity: number;
  /** Average cost per unit in the base currency, commission included; unchanged by sells. */
  avg_cost: number;
  /** Total cost basis of the position in the base currency. */
  cost_basis: number;
  /** The instrument's currency. */
  currency: string;
}

export interface Finding {
  code: string;
  message: string;
}

type ActivityOutcome = "blocked" | "not_placed" | "filled" | "partially_filled" | "not_filled" | "rejected" | "open";

export interface ActivityItem {
  run_id: string;
  trading_day: string;
  at: string;
  symbol: string;
  side: Side;
  quantity: number;
  limit_price: number;
  outcome: ActivityOutcome;
  /** One sentence for people and the model. */
  detail: string;
  reasons?: { code: string; message: string }[];
  client_order_id?: string;
  filled_quantity?: number;
  avg_fill_price?: number;
  counted: boolean;
  liquidation?: boolean;
}

export interface LiquidationStatus {
  halted: boolean;
  trip: TripRecord | null;
  /** Holdings still to sell since the trip. */
  remaining: { symbol: string; quantity: number }[];
  orders: { client_order_id: string; symbol: string; quantity: number; status: OrderStatus; filled_quantity: number }[];
  complete: boolean;
}
