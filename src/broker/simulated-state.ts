/**
 * The schema of the simulated broker's state file (`sim-broker.json`) and of the lines of its
 * write-ahead log (`sim-broker.json.log`), as TypeBox types (validated by ajv code generated at build time). The state is checked
 * in full when it is read, before anything trades on it or writes it back; a refusal names the
 * file and the place ("orders[2].quantity: must be a number >= 0, got \"lots\"").
 */
import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { generatedChecker } from "../config/ajv.js";
import * as generated from "../config/validators.generated.js";
import { BrokerError } from "./errors.js";
import { bookIssues } from "./simulated-book.js";
import { BrokerFillSchema, BrokerOrderSchema, LIMIT, NonNeg } from "./records.js";

const Num = Type.Number({ minimum: -LIMIT, maximum: LIMIT });
/** A real calendar day (2007-02-30 is refused, not compared as text). */
const Day = Type.String({ format: "date" });
const Count = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
/** A fixed-length array in draft 2020-12 terms (TypeBox's Tuple writes the draft-07 form). */
const Pair = <A extends TSchema, B extends TSchema>(a: A, b: B) =>
  Type.Unsafe<[Static<A>, Static<B>]>({ type: "array", prefixItems: [a, b], items: false, minItems: 2 });

/** A broker order (records.ts) as the simulator stores it: always of a session, with its commission and test hooks. */
export const SimOrderSchema = Type.Object({
  ...BrokerOrderSchema.properties,
  trading_day: Day,
  commission: NonNeg,
  held: Type.Optional(Type.Boolean()),
  forced_max: Type.Optional(NonNeg),
  stuck: Type.Optional(Type.Boolean()),
});

/** A broker fill (records.ts) as the simulator stores it, with its session. */
export const SimFillSchema = Type.Object({
  ...BrokerFillSchema.properties,
  /** Written with every fill; books from before it was recorded lack it (the base currency then). */
  commission_currency: Type.Optional(BrokerFillSchema.properties.commission_currency),
  trading_day: Day,
});

const Position = Type.Object({ quantity: Num, cost: Num });

export const SimStateSchema = Type.Object({
  version: Type.Literal(1),
  account_id: Type.String({ minLength: 1 }),
  currency: Type.String({ pattern: "^[A-Z]{3}$" }),
  starting_cash: NonNeg,
  cash: Num,
  start_date: Day,
  current_day: Type.Union([Day, Type.Null()]),
  day_open: Type.Boolean(),
  played_days: Type.Array(Day),
  positions: Type.Record(Type.String({ minLength: 1 }), Position),
  orders: Type.Array(SimOrderSchema),
  fills: Type.Array(SimFillSchema),
  next_order_seq: Count,
  next_fill_seq: Count,
  gen: Type.Optional(Count),
});

export const SimLogRecordSchema = Type.Object({
  gen: Count,
  orders: Type.Optional(Type.Array(SimOrderSchema)),
  fills: Type.Optional(Type.Array(SimFillSchema)),
  cash: Type.Optional(Num),
  positions: Type.Optional(Type.Array(Pair(Type.String({ minLength: 1 }), Type.Union([Position, Type.Null()])))),
  seqs: Type.Optional(Pair(Count, Count)),
  clear: Type.Optional(Type.Literal(true)),
  day: Type.Optional(Type.Object({ current: Type.Union([Day, Type.Null()]), open: Type.Boolean(), played: Type.Optional(Day) })),
});

export type SimStateDoc = Static<typeof SimStateSchema>;

const checkSimState = generatedChecker(SimStateSchema, generated.simState, "the sim broker state");
const checkSimLogRecord = generatedChecker(SimLogRecordSchema, generated.simLogRecord, "sim broker log records");

function refuse(file: string, where: string, issues: { path: string; rule: string }[]): never {
  const list = issues.slice(0, 5).map((i) => `${where}${i.path || "(root)"}: ${i.rule}`);
  const more = issues.length > 5 ? `; and ${issues.length - 5} more` : "";
  throw new BrokerError(
    "sim_state_invalid",
    `the simulated broker's state ${file} is not valid (${list.join("; ")}${more}); nothing was traded on it or written. Restore it, or start afresh with \`tradewarden sim reset\`.`,
  );
}

/** Positions must not be short (the simulator never sells what it does not hold); the book agrees with itself (sim-book.ts). */
function ruleIssues(state: SimStateDoc): { path: string; rule: string }[] {
  const out: { path: string; rule: string }[] = [];
  for (const [symbol, p] of Object.entries(state.positions)) {
    if (p.quantity < 0) out.push({ path: `positions.${symbol}.quantity`, rule: `must be >= 0, got ${p.quantity}` });
  }
  out.push(...bookIssues(state));
  return out;
}

/** Refuses (BrokerError sim_state_invalid) a state that does not fit the schema, naming the place. */
export function assertSimState(file: string, state: unknown): asserts state is SimStateDoc {
  const issues = checkSimState(state);
  if (issues.length > 0) refuse(file, "", issues);
  const rules = ruleIssues(state as SimStateDoc);
  if (rules.length > 0) refuse(file, "", rules);
}

/**
 * Refuses the book as it stands after the log's line `line` was applied when it no longer agrees
 * with itself: the line (or one before it) was edited, or lines are out of order.
 */
export function assertSimStateAfterLine(file: string, line: number, state: SimStateDoc): void {
  const rules = ruleIssues(state);
  if (rules.length > 0) refuse(file, `line ${line}: the book after it: `, rules);
}

/** Refuses a log line that does not fit the schema, naming the line and the place. */
export function assertSimLogRecord(file: string, line: number, rec: unknown): asserts rec is Static<typeof SimLogRecordSchema> {
  const issues = checkSimLogRecord(rec);
  if (issues.length > 0) refuse(file, `line ${line}: `, issues);
}
