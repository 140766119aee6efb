export { ALPACA_KEY_ENV, ALPACA_PAPER_URL, AlpacaBroker, type AlpacaBrokerOptions, createAlpacaBroker, mapAlpacaStatus } from "./alpaca.js";
export { type CommissionSchedule, commissionFor, estimateCommission } from "./commission.js";
export { BrokerError, type BrokerErrorCode, isBrokerError, isUncertainSendError } from "./errors.js";
export { assertPaperAccount, assertPaperEndpoint, GuardedBroker } from "./guard.js";
export { DEFAULT_SIM_CONFIG, fillPrice, newSimState, readSimState, SimBroker, type SimFault, type SimState } from "./sim.js";
export type * from "./types.js";
export { isWorking, WORKING_BROKER_STATUSES } from "./types.js";
