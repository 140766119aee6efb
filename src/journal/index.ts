export { type LockHandle, type LockHolder, type LockOptions, acquireLock, isPidAlive, lockHolder } from "./lock.js";
export { Journal, MAX_LIVE_NOTES, type OpenJournalOptions, openJournal, STALE_RUN_MS } from "./journal.js";
export { reconcile } from "./reconcile.js";
export { portfolioSnapshot } from "./tool-handlers.js";
export * from "./types.js";
