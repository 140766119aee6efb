/** Read views over the folded journal state (pure): holdings and spend. */
import { pow10, wholeOverPow10 } from "../core/exact-number.js";
import { Dec, microsToUsd, minorDigits } from "../core/money.js";
import type { HoldingState, State } from "./state.js";
import { toMs } from "./time.js";
import type { Holding } from "./types.js";

export function holdingsView(s: State): Record<string, Holding> {
  const cur = s.account?.currency ?? "USD";
  const digits = minorDigits(cur);
  const scale = new Dec(10).pow(digits);
  const out: Record<string, Holding> = {};
  for (const [sym, h] of s.holdings) {
    const quantity = h.qty.toNumber();
    out[sym] = wholeHolding(quantity, h, digits) ?? {
      quantity,
      avg_cost: h.qty.gt(0) ? h.basis.div(h.qty).div(scale).toNumber() : 0,
      cost_basis: h.basis.toDecimalPlaces(0, Dec.ROUND_HALF_EVEN).div(scale).toNumber(),
      currency: h.currency,
    };
  }
  return out;
}

/**
 * Each state's holdings view as of its holdings version: the phases and tools of a day ask for the
 * holdings many times between two fills. Handed out as copies (a reader may change its answer).
 */
const heldViews = new WeakMap<State, { version: number; view: Record<string, Holding> }>();

export function holdingsCopy(s: State): Record<string, Holding> {
  let held = heldViews.get(s);
  if (held?.version !== s.idx.holdingsVersion) {
    held = { version: s.idx.holdingsVersion, view: holdingsView(s) };
    heldViews.set(s, held);
  }
  const out: Record<string, Holding> = {};
  for (const sym of s.holdings.keys()) out[sym] = { ...(held.view[sym] as Holding) };
  return out;
}

/**
 * The view of a holding of whole shares with a whole cost basis (minor units), both safe integers,
 * by number division: each quotient is the nearest number to the exact one, as the Decimal
 * quotients read back are (a 40-digit Decimal quotient of integers under 2^53 cannot round across
 * a midpoint between two numbers: tests/journal/holdings-view.test.ts). Undefined otherwise.
 */
function wholeHolding(quantity: number, h: HoldingState, digits: number): Holding | undefined {
  if (!(quantity > 0) || !Number.isSafeInteger(quantity) || !h.basis.isInteger()) return undefined;
  const basis = h.basis.toNumber();
  const cost_basis = wholeOverPow10(basis, digits);
  const scale = pow10(digits);
  if (cost_basis === undefined || scale === undefined) return undefined;
  const per = quantity * scale;
  if (!Number.isSafeInteger(per)) return undefined;
  return { quantity, avg_cost: basis / per, cost_basis, currency: h.currency };
}

/**
 * A usage record's time in epoch ms, parsed once per record: the month's spend is asked a few times
 * a run and reads every record, so a many-day simulation parsed the same times again each day. Keyed
 * by the record (a folded record is never changed), so it cannot disagree with its `at`.
 */
const usageTimes = new WeakMap<object, number>();
function usageMs(u: State["usage"][number]): number {
  let ms = usageTimes.get(u);
  if (ms === undefined) {
    ms = toMs(u.at);
    usageTimes.set(u, ms);
  }
  return ms;
}

/**
 * Each window's sum so far, by the usage list summed: `apply` only ever appends to it, so a later
 * ask reads the records added since (a simulated day asked two months' spend over every record of
 * every earlier day). At most a few windows are kept per list.
 */
type WindowSum = { upto: number; micros: number; abs: number };
const windowSums = new WeakMap<readonly unknown[], Map<string, WindowSum>>();
const WINDOWS_KEPT = 4;

/** LLM spend (USD) of usage records inside the window (epoch ms, end exclusive). */
export function spendInMonth(s: State, w: { start: number; end: number }): number {
  let sums = windowSums.get(s.usage);
  if (!sums) {
    sums = new Map();
    windowSums.set(s.usage, sums);
  }
  const key = `${w.start}/${w.end}`;
  const sum = { ...(sums.get(key) ?? { upto: 0, micros: 0, abs: 0 }) };
  for (; sum.upto < s.usage.length; sum.upto++) {
    const u = s.usage[sum.upto] as State["usage"][number];
    const ms = usageMs(u);
    if (ms >= w.start && ms < w.end) {
      sum.micros += u.cost_micros;
      sum.abs += Math.abs(u.cost_micros);
    }
  }
  // Whole micro-dollars whose magnitudes add up to a safe integer sum exactly in any order (the
  // scan added them newest first); past that (never in practice), the scan is the answer.
  if (!Number.isSafeInteger(sum.abs)) return microsToUsd(scanSpend(s, w));
  sums.delete(key);
  sums.set(key, sum);
  if (sums.size > WINDOWS_KEPT) sums.delete(sums.keys().next().value as string);
  return microsToUsd(sum.micros);
}

function scanSpend(s: State, w: { start: number; end: number }): number {
  let micros = 0;
  for (let i = s.usage.length - 1; i >= 0; i--) {
    const u = s.usage[i] as State["usage"][number];
    const ms = usageMs(u);
    if (ms >= w.start && ms < w.end) micros += u.cost_micros;
  }
  return micros;
}
