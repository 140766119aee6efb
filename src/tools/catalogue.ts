/**
 * The tool catalogue: every model-facing tool, one `defineTool` definition each. Everything the
 * model, the validator, the docs, the runtime and the contract tests know about a tool comes from
 * these objects; its handler (src/tools/handlers) is typed from them (`ToolHandlers`).
 */
import { checkOrders } from "./defs/check-orders.js";
import { executeCode } from "./defs/execute-code.js";
import { getMarketOverview } from "./defs/get-market-overview.js";
import { getPortfolio } from "./defs/get-portfolio.js";
import { getPosition } from "./defs/get-position.js";
import { getSectorSummary } from "./defs/get-sector-summary.js";
import { getPriceHistory } from "./defs/get-price-history.js";
import { getProposalStatus } from "./defs/get-proposal-status.js";
import { listUniverse } from "./defs/list-universe.js";
import { recall } from "./defs/recall.js";
import { remember } from "./defs/remember.js";
import { searchNews } from "./defs/search-news.js";
import { screenUniverse } from "./defs/screen-universe.js";
import { submitOrders } from "./defs/submit-orders.js";
import { cancelStandingOrder, listStandingOrders, placeStandingOrder } from "./defs/standing-orders.js";
import { addWatchlist, getWatchlist, removeWatchlist } from "./defs/watchlist.js";
import type { HandlersFor, ToolDefinition } from "./define.js";
import type { ToolContract } from "./types.js";

/** Bump when a description, schema or serialisation changes: cassettes record it. */
export const CONTRACT_VERSION = "tw-tools/3";

export const CATALOGUE = [
  getPortfolio,
  getPosition,
  getMarketOverview,
  getSectorSummary,
  listUniverse,
  getPriceHistory,
  searchNews,
  screenUniverse,
  executeCode,
  getWatchlist,
  addWatchlist,
  removeWatchlist,
  remember,
  recall,
  checkOrders,
  placeStandingOrder,
  listStandingOrders,
  cancelStandingOrder,
  submitOrders,
  getProposalStatus,
] as const;

export type ToolName = (typeof CATALOGUE)[number]["name"];
export const TOOL_NAMES = CATALOGUE.map((t) => t.name) as ToolName[];

const byName = new Map<string, ToolContract>(CATALOGUE.map((t) => [t.name, t as ToolContract]));

export function contractOf(name: string): ToolContract | undefined {
  return byName.get(name);
}

const definitions = new Map<string, ToolDefinition>(CATALOGUE.map((t) => [t.name, t]));

/** A catalogue tool's definition (its contract plus `mutates`, `grounded` and `summarize`). */
export function definitionOf(name: string): ToolDefinition | undefined {
  return definitions.get(name);
}

/**
 * One handler per catalogue tool, each typed from its definition: a tool without a handler, or a
 * handler whose arguments or result disagree with its schemas, is a compile error.
 */
export type ToolHandlers = HandlersFor<typeof CATALOGUE>;

/** Tools whose `orders[*].evidence_ids` must name evidence returned earlier in the run. */
export const GROUNDED_TOOLS: ReadonlySet<string> = new Set(CATALOGUE.filter((t) => t.grounded).map((t) => t.name));

/** Tools whose handler writes state (the journal) or ends the run (kinds `write` and `final`); `tools call` runs them on a throwaway copy. */
export const STATE_CHANGING_TOOLS: ReadonlySet<string> = new Set(CATALOGUE.filter((t) => t.mutates).map((t) => t.name));
