export { BAR_HEADER, countBefore, formatBarFile, type ParseBarOptions, parseBarFile } from "./bars.js";
export { isIsoDay, TradingCalendar } from "./calendar.js";
export { MarketData, type MarketLoadOptions, MarketView, type SymbolSeries, type ViewOptions } from "./data.js";
export { type ImportProblem, parseImportCsv } from "./import.js";
export { DEFAULT_LOOKBACK_DAYS, type PriceHistorySummary, summarizeHistory } from "./summary.js";
export { bundledUniversePath, loadUniverseCsv, parseUniverseCsv } from "./universe.js";
