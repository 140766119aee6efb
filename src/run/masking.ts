/**
 * Masking in a run: the masker for a universe, the `mask.enabled` event that lets replay and audit
 * rebuild it, and the scan of the model's own text (its words and its tool arguments) for real
 * symbols, names and dates, each reported as a `mask.leak` event.
 */
import type { Instrument } from "../core/domain.js";
import type { Message } from "../agent/types.js";
import type { MaskInstrument } from "../core/research.js";
import { bundledMaskTerms, dataSetId, Masker } from "../research/masking.js";
import type { RunEvent, RunEventBody } from "../core/events.js";

export function maskerFor(universe: readonly Pick<Instrument, "symbol" | "name" | "sector">[]): Masker {
  const instruments: MaskInstrument[] = universe.map((i) => ({
    symbol: i.symbol,
    ...(i.name ? { name: i.name } : {}),
    ...(i.sector ? { sector: i.sector } : {}),
  }));
  return new Masker({ dataSet: dataSetId(instruments), instruments, terms: bundledMaskTerms() });
}

/** The masker a recorded run used, rebuilt from its `mask.enabled` event (null when it was not masked). */
export function maskerOfRun(events: readonly RunEvent[]): Masker | null {
  const e = events.find((x) => x.type === "mask.enabled");
  if (e?.type !== "mask.enabled") return null;
  return new Masker({ dataSet: e.data_set, instruments: e.instruments, terms: bundledMaskTerms() });
}

export function maskEnabledEvent(m: Masker, universe: readonly Pick<Instrument, "symbol" | "name" | "sector">[]): RunEventBody {
  const instruments: MaskInstrument[] = universe.map((i) => ({
    symbol: i.symbol,
    ...(i.name ? { name: i.name } : {}),
    ...(i.sector ? { sector: i.sector } : {}),
  }));
  return { type: "mask.enabled", data_set: m.dataSet, date_offset_days: m.dateOffsetDays, instruments };
}

/** Leaks in what the model wrote: its text blocks and its tool arguments, turn by turn. */
export function modelTextLeaks(m: Masker, transcript: readonly Message[]): RunEventBody[] {
  const out: RunEventBody[] = [];
  let turn = 0;
  for (const msg of transcript) {
    if (msg.role !== "assistant") continue;
    turn++;
    for (const b of msg.content) {
      const where = b.type === "text" ? "text" : b.type === "tool_use" ? `arguments of ${String((b as { name?: unknown }).name)}` : null;
      if (!where) continue;
      const text = b.type === "text" ? String((b as { text?: unknown }).text ?? "") : JSON.stringify((b as { input?: unknown }).input ?? {});
      for (const leak of m.leaks(text)) out.push({ type: "mask.leak", turn, kind: leak.kind, found: leak.found, where });
    }
  }
  return out;
}
