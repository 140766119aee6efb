/**
 * Evidence grounding: which evidence ids a run has returned, what each is about, and whether an
 * order's evidence grounds it. An id is about an instrument when it is that instrument's price
 * history (`symbol` in the result), or a news result whose title or snippet names it. An order is
 * grounded when it cites at least one dated item about its own instrument: citing only another
 * instrument's evidence, or only undated news, is not enough. Pure.
 */
import type { ToolIssue } from "../core/events.js";

/** The instruments a piece of text names (the caller knows the universe). */
export type SubjectsOf = (text: string) => string[];

export interface EvidenceFact {
  subjects: string[];
  undated: boolean;
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Every evidence id in a success payload, with what it is about. */
function evidenceFacts(data: Record<string, unknown>, subjectsOf: SubjectsOf): Map<string, EvidenceFact> {
  const out = new Map<string, EvidenceFact>();
  if (typeof data.evidence_id === "string") {
    out.set(data.evidence_id, { subjects: typeof data.symbol === "string" ? [data.symbol.toUpperCase()] : [], undated: false });
  }
  for (const key of ["results", "undated"] as const) {
    const list = data[key];
    if (!Array.isArray(list)) continue;
    for (const item of list as Record<string, unknown>[]) {
      if (item === null || typeof item !== "object" || typeof item.evidence_id !== "string") continue;
      out.set(item.evidence_id, {
        subjects: subjectsOf(`${str(item.title)}\n${str(item.snippet)}`).map((s) => s.toUpperCase()),
        undated: key === "undated" || item.published === null || item.published === undefined,
      });
    }
  }
  return out;
}

/** The evidence ids of a success payload (what the runtime registers; replay derives them the same way). */
export function evidenceIdsOf(data: Record<string, unknown>): string[] {
  return [...evidenceFacts(data, () => []).keys()];
}

export class EvidenceRegistry {
  readonly ids = new Set<string>();
  private readonly facts = new Map<string, EvidenceFact>();

  constructor(private readonly subjectsOf: SubjectsOf) {}

  /** Registers the ids a successful call returned (facts from its payload). */
  record(ids: readonly string[], data: Record<string, unknown>): void {
    const facts = evidenceFacts(data, this.subjectsOf);
    for (const id of ids) {
      this.ids.add(id);
      this.facts.set(id, facts.get(id) ?? { subjects: [], undated: false });
    }
  }

  /** Ids an order cites that no tool returned in this run. */
  unknownIssues(args: Record<string, unknown>): ToolIssue[] {
    const issues: ToolIssue[] = [];
    ordersOf(args).forEach((order, i) => {
      idsOf(order).forEach((id, j) => {
        if (!this.ids.has(id)) issues.push({ path: `$.orders[${i}].evidence_ids[${j}]`, message: `"${id}" was not returned in this run` });
      });
    });
    return issues;
  }

  /** Orders whose evidence has no dated item about their own instrument. */
  ungroundedIssues(args: Record<string, unknown>): ToolIssue[] {
    const issues: ToolIssue[] = [];
    ordersOf(args).forEach((order, i) => {
      const symbol = str(order.symbol).toUpperCase();
      const ids = idsOf(order);
      const grounded = ids.some((id) => {
        const f = this.facts.get(id);
        return f !== undefined && !f.undated && f.subjects.includes(symbol);
      });
      if (grounded) return;
      const undatedOnly = ids.some((id) => this.facts.get(id)?.undated && this.facts.get(id)?.subjects.includes(symbol));
      issues.push({
        path: `$.orders[${i}].evidence_ids`,
        message: undatedOnly
          ? `the ${symbol} order's only evidence about ${symbol} is undated (unverified), which never grounds an order alone`
          : `none of the ${symbol} order's evidence is about ${symbol}: cite its get_price_history result or a dated search_news result that names it`,
      });
    });
    return issues;
  }
}

function ordersOf(args: Record<string, unknown>): Record<string, unknown>[] {
  return Array.isArray(args.orders) ? (args.orders as Record<string, unknown>[]).filter((o) => o !== null && typeof o === "object") : [];
}

function idsOf(order: Record<string, unknown>): string[] {
  return Array.isArray(order.evidence_ids) ? (order.evidence_ids as unknown[]).filter((x): x is string => typeof x === "string") : [];
}
