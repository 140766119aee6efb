/** The risk gate's public surface. */
export * from "../core/gate-types.js";
export {
  type EvaluateOptions,
  evaluate,
  evaluationOrder,
  drawdownPct,
  killSwitchTriggered,
  normSide,
  normSymbol,
  portfolioValue,
  unpricedHoldings,
} from "./evaluate.js";
export { floorToTick, type LiquidationOrder, liquidation, liquidationLimit } from "./liquidation.js";
export { type GateInputs, gateVerdicts, type OrderVerdicts } from "./check-orders-handler.js";
