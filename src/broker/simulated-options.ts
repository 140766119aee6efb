/** The simulated paper broker's built-in settings and the options it is opened with. */
import type { SimBrokerConfig } from "../config/types.js";
import type { MarketData } from "../market/data.js";
import type { SimPricing } from "./simulated-engine.js";

export const DEFAULT_SIM_CONFIG: SimBrokerConfig = {
  participation_pct: 10,
  commission_per_share: 0.005,
  commission_min: 1,
  commission_max_pct: 1,
  start_date: null,
};

export interface SimBrokerOptions {
  market: MarketData;
  config?: SimBrokerConfig;
  /** State file (`homePaths(home).sim`); omitted → in memory only. */
  path?: string;
  now?: () => Date;
  /** Expire the unfilled remainder as soon as an order has been worked (many-day simulation). */
  closeAfterWork?: boolean;
  /**
   * Keep finished orders and their fills in the book after the day closes (default true). A
   * many-year simulation turns this off so the saved book stays the size of a day, not of its
   * history (the journal keeps the record; positions, cash and working orders are unaffected).
   */
  keepClosedOrders?: boolean;
  /** The account currency and each instrument's currency and rate (default: all USD). */
  pricing?: SimPricing;
  /**
   * Day changes between full snapshots of the book (default 1: every day change rewrites
   * `sim-broker.json`). A many-day simulation keeps one broker open across days and sets more: the
   * day changes in between are appended to the write-ahead log instead (a replace-by-rename costs
   * about as much as the rest of a simulated day's broker work), and `checkpoint()` writes the
   * snapshot when it is done.
   */
  snapshotEvery?: number;
  /**
   * Snapshots flushed to the disk (default true). A simulation turns this off, as it does for its
   * journal: the snapshot is still replaced atomically, so a killed process leaves a whole book.
   */
  durable?: boolean;
}
