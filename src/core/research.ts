/**
 * Research vocabulary shared by the run events and the research layer: the per-call execution log
 * of a news search, and an instrument as masking knows it.
 */

/** How many results each point-in-time filter removed in one call. */
export interface RemovedCounts {
  cutoff: number;
  undated: number;
  policy: number;
  duplicates: number;
}

type SearchStatus = "success" | "error" | "disabled" | "blocked";

/** One call's execution log entry: what ran, as distinct from what the model said it did. */
export interface SearchLogEntry {
  query: string;
  provider: string;
  status: SearchStatus;
  duration_ms: number;
  /** Results the provider returned before any filter. */
  retrieved: number;
  /** Results (dated, plus admitted undated) that reached the caller. */
  returned: number;
  removed: RemovedCounts;
  /** Results dropped for lacking provenance (no http(s) URL, host or snippet); counted in removed.policy too. */
  invalid: number;
  message?: string;
}

/** An instrument as masking knows it (a run's `mask.enabled` event lists them, so replay and audit can rebuild the masker). */
export interface MaskInstrument {
  symbol: string;
  name?: string;
  sector?: string;
}
