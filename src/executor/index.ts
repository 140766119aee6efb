export { clientOrderId, defaultSleep, execute, toOrderStatus } from "./execute.js";
export type * from "./types.js";
