/** The risk gate's public surface. */
export * from "../core/gate-types.js";
export { evaluate, portfolioValue } from "./evaluate.js";
