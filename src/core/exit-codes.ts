/** Exit codes: one table, documented in the README. A public contract. */
export const EXIT = {
  /** Done, including a hold. */
  OK: 0,
  INTERNAL_ERROR: 1,
  USAGE_OR_CONFIG: 2,
  RECONCILE_FAILED: 3,
  BROKER_OR_DATA_UNAVAILABLE: 4,
  HALTED_OR_TRIPPED: 5,
  APPROVAL_REQUIRED: 6,
  INTERRUPTED: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_TABLE: ReadonlyArray<{ code: ExitCode; meaning: string }> = [
  { code: 0, meaning: "done (a hold included)" },
  { code: 1, meaning: "internal error (also: a journal write failed)" },
  { code: 2, meaning: "usage or configuration error" },
  { code: 3, meaning: "reconciliation failed (journal and broker disagree); nothing placed" },
  { code: 4, meaning: "broker, market data or model unavailable" },
  { code: 5, meaning: "trading halted, or the kill switch tripped in this run" },
  { code: 6, meaning: "approval required (no terminal and no --yes); nothing placed" },
  { code: 130, meaning: "interrupted (SIGINT/SIGTERM/SIGHUP, whenever it came); the journal is left consistent" },
];
