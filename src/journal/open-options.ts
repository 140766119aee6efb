/** How a journal is opened (journal.ts `openJournal`). */
export interface OpenJournalOptions {
  /** IANA zone in which quota and spend months are counted. */
  timezone: string;
  /** Open without the right to write (no migration is persisted; writes throw). */
  readOnly?: boolean;
  /** fsync on every commit (default true). */
  fsync?: boolean;
  /** `limits.reducing_runs_after_reset`; default 0. */
  reducingRunsAfterReset?: number;
  /**
   * Write the head (the commit mark) only on `flush()`, not after every commit (default false).
   * For a simulation's own journal: events are still appended at once, but a crash rolls back to
   * the last flush (the end of the last simulated day), never to a mix. Saves a file replacement
   * per commit.
   */
  headOnFlush?: boolean;
  /** Told what the open repaired (a head rebuilt from the log, a torn line dropped); default: a line on stderr. */
  notice?: (message: string) => void;
}
