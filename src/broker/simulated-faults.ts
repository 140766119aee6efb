/** Fault injection for the simulated broker (tests): what the next order or call does wrong. */
/** Faults for tests. Order faults apply to the next order placed (several may combine). */
export type SimFault =
  /** The next order is refused (`order_rejected`), nothing is stored. */
  | { kind: "reject_next"; message?: string }
  /** The next order fills at most `quantity` shares (default half); the rest keeps working. */
  | { kind: "partial_next"; quantity?: number }
  /** The next order does not fill until it is cancelled: the cancel finds it filled. Its fills show up only after `settle_polls` calls of fills(). */
  | { kind: "fill_during_cancel"; settle_polls?: number }
  /** The next order is accepted, but the send reports a timeout (or a dropped connection). */
  | { kind: "timeout_after_accept"; code?: "timeout" | "broker_unreachable" }
  /** The next send times out before the broker received it: no order exists. */
  | { kind: "timeout_before_accept" }
  /** The next order ignores a cancel: it stays `pending_cancel` until the close. */
  | { kind: "stuck_after_cancel" }
  /** Every call fails with `broker_unreachable` for the next `calls` calls (default: until `heal()`). */
  | { kind: "unreachable"; calls?: number };

export type OrderFault = Exclude<SimFault, { kind: "unreachable" }>;
