/**
 * The scripted model's news step (pure, derived from the conversation only): after the momentum
 * candidates are known it searches news for each candidate's symbol, then drops a buy that has
 * negative news from the last 30 days, and cites the newest dated item that names the instrument
 * next to its price history when it is from those 30 days. Older news is named as old (a note for
 * the run's summary; the order is left as it is) and never cited as if it were current; undated
 * items are never cited.
 */
import type { ProposedOrder } from "../core/domain.js";
import { escapeRegExp } from "../util/regex.js";

/** A past tool call and what came back (the scripted model reads only these). */
export interface NewsStep {
  name: string;
  input: Record<string, unknown>;
  ok: boolean;
  result: Record<string, unknown>;
}

interface NewsItem {
  evidence_id: string;
  title: string;
  snippet: string;
  published: string;
}

const MAX_NEWS_SEARCHES = 4;
const RECENT_DAYS = 30;
const NEGATIVE = /\b(slump|slumps|warning|cut|recall|loss|plunge|plunges|falls|drop|review)\b/i;

const names = (text: string, symbol: string) => new RegExp(`(?<![A-Za-z0-9-])${escapeRegExp(symbol)}(?![A-Za-z0-9-])`).test(text);

function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** Symbols whose news the policy still wants (none once the tool's limit is hit or it is unavailable). */
export function newsToSearch(orders: readonly ProposedOrder[], steps: readonly NewsStep[]): string[] {
  const searches = steps.filter((s) => s.name === "search_news");
  if (searches.some((s) => !s.ok && s.result.retryable !== true)) return [];
  const asked = new Set(searches.map((s) => String(s.input.query)));
  return [...new Set(orders.map((o) => o.symbol))].filter((s) => !asked.has(s)).slice(0, Math.max(0, MAX_NEWS_SEARCHES - searches.length));
}

function newsFor(symbol: string, steps: readonly NewsStep[]): { items: NewsItem[]; asOf: string | null } {
  const step = [...steps].reverse().find((s) => s.name === "search_news" && s.ok && s.input.query === symbol);
  if (!step) return { items: [], asOf: null };
  const raw = Array.isArray(step.result.results) ? (step.result.results as Record<string, unknown>[]) : [];
  const items = raw
    .filter((r) => typeof r.evidence_id === "string" && typeof r.published === "string")
    .map((r) => ({ evidence_id: String(r.evidence_id), title: String(r.title ?? ""), snippet: String(r.snippet ?? ""), published: String(r.published) }))
    .filter((r) => names(`${r.title} ${r.snippet}`, symbol))
    .sort((a, b) => b.published.localeCompare(a.published));
  return { items, asOf: typeof step.result.as_of === "string" ? step.result.as_of : null };
}

/** The orders after reading the news: negative recent news drops a buy; the newest item is cited. */
export function applyNews(orders: readonly ProposedOrder[], steps: readonly NewsStep[]): { orders: ProposedOrder[]; notes: string[] } {
  const notes: string[] = [];
  const out: ProposedOrder[] = [];
  // The instruments whose newest news is old: one note for all of them.
  const old: string[] = [];
  for (const o of orders) {
    const { items, asOf } = newsFor(o.symbol, steps);
    const newest = items[0];
    if (!newest) {
      out.push(o);
      continue;
    }
    const recent = asOf !== null && daysBetween(newest.published, asOf) <= RECENT_DAYS;
    if (o.side === "BUY" && recent && NEGATIVE.test(newest.title)) {
      notes.push(`${o.symbol} skipped: recent negative news "${newest.title}" (${newest.published})`);
      continue;
    }
    if (!recent) {
      // Old news is not evidence for today's trade: said for what it is (in the run's summary, so the
      // order stays the one the gate checked), never cited.
      const age = asOf === null ? "" : `, ${daysBetween(newest.published, asOf).toLocaleString("en-US")} days before the trading day`;
      old.push(`${o.symbol} (newest ${newest.published}${age})`);
      out.push(o);
      continue;
    }
    const evidence = o.evidence_ids.includes(newest.evidence_id) || o.evidence_ids.length >= 10 ? o.evidence_ids : [...o.evidence_ids, newest.evidence_id];
    const reason = `${o.reason} Latest news: "${newest.title}" (${newest.published}).`.slice(0, 500);
    out.push({ ...o, evidence_ids: evidence, reason });
  }
  if (old.length > 0) notes.push(`no recent news on ${old.join(" or ")}: not cited`);
  return { orders: out, notes };
}
