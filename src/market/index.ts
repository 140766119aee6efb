export { MarketData } from "./data.js";
export { summarizeHistory } from "./summary.js";
