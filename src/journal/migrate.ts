/**
 * Schema migrations, run on open. Version 1 was the single-document journal of tradewarden 0.0.x:
 * everything inline in `journal.json`, money as decimal numbers in major units:
 *
 *   { schema_version: 1, base_currency, created_at,
 *     ledger: [{ kind: "deposit"|"buy"|"sell"|"commission", amount, at, note?, symbol? }],
 *     runs: [{ run_id, mode, trading_day, started_at, finished_at?, status, outcome?, exit_code?, message?, first_value? }],
 *     orders: [{ client_order_id, run_id, symbol, side, quantity, limit_price, status, broker_order_id?, created_at, filled_quantity? }],
 *     fills: [{ fill_id, client_order_id, symbol, side, quantity, price, commission, fx_to_base?, at }],
 *     peak, last_value, trading_state, reducing_runs_left?, trips?, resets?, notes? }
 *
 * Version 2 is the head document plus the event log. The v1 ledger is imported entry by entry (so
 * cash is exactly what v1 booked, rounded once to minor units); v1 fills carry no ledger entries of
 * their own. The original file is kept as `journal.json.v1.bak`.
 */
import type { OrderStatus } from "../core/domain.js";
import type { RunOutcome } from "../core/events.js";
import { productToMinor, toMinor } from "../core/money.js";
import { corrupt } from "./store.js";
import type { JournalEventBody, Note, OrderRecord, RunRecord, RunStatus } from "./types.js";
import { assertImportedResets, assertImportedTrips } from "./validate.js";

type Obj = Record<string, unknown>;
type Imported<T extends JournalEventBody["t"]> = Extract<JournalEventBody, { t: T }>;
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const str = (v: unknown, d = ""): string => (typeof v === "string" ? v : d);
const num = (v: unknown, d = 0): number => (typeof v === "number" && Number.isFinite(v) ? v : d);
const IMPORTED_KINDS = ["deposit", "buy", "sell", "commission"] as const;
const isImportedKind = (k: string): k is (typeof IMPORTED_KINDS)[number] => (IMPORTED_KINDS as readonly string[]).includes(k);

export function migrate(doc: Obj, version: number, path: string): JournalEventBody[] {
  if (version === 1) return fromV1(doc, path);
  throw corrupt(path, `unknown schema version ${version}`);
}

function fromV1(doc: Obj, path: string): JournalEventBody[] {
  const currency = str(doc.base_currency).toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw corrupt(path, "schema 1 journal without a base_currency");
  const at0 = str(doc.created_at, new Date(0).toISOString());
  return [
    ...ledgerEvents(arr(doc.ledger), currency, at0, path),
    ...arr(doc.runs).map((r) => runEvent(r, currency, at0)),
    ...arr(doc.orders).map((o) => orderEvent(o, currency, at0)),
    ...arr(doc.fills).map((f) => fillEvent(f, arr(doc.orders), currency, at0)),
    stateEvent(doc, currency, path),
    ...arr(doc.notes).map((n) => noteEvent(n, at0)),
  ];
}

/** The init (capital: the first entry when it is a deposit) and the rest of the ledger, entry by entry. */
function ledgerEvents(ledger: Obj[], currency: string, at0: string, path: string): JournalEventBody[] {
  const out: JournalEventBody[] = [];
  const first = ledger[0];
  if (first && first.kind === "deposit") {
    out.push({ t: "init", currency, capital_minor: toMinor(num(first.amount), currency), at: str(first.at, at0) });
  } else {
    out.push({ t: "init", currency, capital_minor: 0, at: at0 });
  }
  for (const e of ledger.slice(first && first.kind === "deposit" ? 1 : 0)) {
    const kind = str(e.kind);
    if (!isImportedKind(kind)) throw corrupt(path, `schema 1 ledger entry of unknown kind "${kind}"`);
    const ev: Imported<"import_ledger"> = { t: "import_ledger", kind, amount_minor: toMinor(num(e.amount), currency), at: str(e.at, at0) };
    if (typeof e.note === "string") ev.note = e.note;
    if (typeof e.symbol === "string") ev.symbol = e.symbol;
    out.push(ev);
  }
  return out;
}

function runEvent(r: Obj, currency: string, at0: string): Imported<"import_run"> {
  const run: RunRecord = {
    run_id: str(r.run_id),
    mode: r.mode === "observe" ? "observe" : "paper",
    trading_day: str(r.trading_day),
    started_at: str(r.started_at, at0),
    finished_at: typeof r.finished_at === "string" ? r.finished_at : null,
    status: (str(r.status, "completed") as RunStatus) || "completed",
    outcome: typeof r.outcome === "string" ? (r.outcome as RunOutcome) : null,
    exit_code: typeof r.exit_code === "number" ? r.exit_code : null,
    message: typeof r.message === "string" ? r.message : null,
    model: { provider: "unknown", id: "unknown" },
    broker: { kind: "unknown" },
    pid: 0,
    host: "",
    first_value_minor: typeof r.first_value === "number" ? toMinor(r.first_value, currency) : null,
    previous_value_minor: null,
    peak_after_minor: null,
    cost_micros: 0,
    notes: ["imported from schema 1"],
  };
  return { t: "import_run", run };
}

function orderEvent(o: Obj, currency: string, at0: string): Imported<"import_order"> {
  const created = str(o.created_at, at0);
  const status = str(o.status, "intent") as OrderStatus;
  const order: OrderRecord = {
    run_id: str(o.run_id),
    client_order_id: str(o.client_order_id),
    index: num(o.index),
    symbol: str(o.symbol),
    side: o.side === "SELL" ? "SELL" : "BUY",
    quantity: num(o.quantity),
    limit_price: num(o.limit_price),
    liquidation: o.liquidation === true,
    currency: str(o.currency, currency),
    broker_order_id: typeof o.broker_order_id === "string" ? o.broker_order_id : null,
    status,
    filled_quantity: num(o.filled_quantity),
    history:
      status === "intent"
        ? [{ status, at: created }]
        : [
            { status: "intent", at: created },
            { status, at: created },
          ],
    created_at: created,
    counted_at: null,
  };
  return { t: "import_order", order };
}

/** A v1 fill, in the run of its order; it carries no ledger entries of its own (the v1 ledger has them). */
function fillEvent(f: Obj, orders: Obj[], currency: string, at0: string): Imported<"fill"> {
  const fx = num(f.fx_to_base, 1);
  const order = orders.find((o) => o.client_order_id === f.client_order_id);
  return {
    t: "fill",
    fill: {
      fill_id: str(f.fill_id),
      client_order_id: str(f.client_order_id),
      run_id: str(order?.run_id),
      symbol: str(f.symbol),
      side: f.side === "SELL" ? "SELL" : "BUY",
      quantity: num(f.quantity),
      price: num(f.price),
      fx_to_base: fx,
      gross_minor: productToMinor(num(f.quantity), num(f.price), fx, currency),
      commission_minor: toMinor(num(f.commission), currency),
      at: str(f.at, at0),
      ledger: false,
    },
  };
}

/** The peak, the last valuation and the kill switch's state; v1 trips and resets are imported as they are. */
function stateEvent(doc: Obj, currency: string, path: string): Imported<"import_state"> {
  const trips = arr(doc.trips);
  const resets = arr(doc.resets);
  assertImportedTrips(trips, (why) => {
    throw corrupt(path, why);
  });
  assertImportedResets(resets, (why) => {
    throw corrupt(path, why);
  });
  const ts = doc.trading_state === "HALTED" || doc.trading_state === "REDUCING" ? doc.trading_state : "ACTIVE";
  return {
    t: "import_state",
    peak_minor: typeof doc.peak === "number" ? toMinor(doc.peak, currency) : null,
    last_first_value_minor: typeof doc.last_value === "number" ? toMinor(doc.last_value, currency) : null,
    trading_state: ts,
    reducing_runs_left: num(doc.reducing_runs_left),
    trips,
    resets,
  };
}

function noteEvent(n: Obj, at0: string): Imported<"note"> {
  const note: Note = {
    id: str(n.id),
    kind: (str(n.kind, "observation") as Note["kind"]) || "observation",
    text: str(n.text),
    status: "live",
    run_id: str(n.run_id),
    created_at: str(n.created_at, at0),
  };
  if (typeof n.symbol === "string") note.symbol = n.symbol;
  return { t: "note", note };
}
