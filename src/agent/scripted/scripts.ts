/** The scripted model's scripts (the policies "momentum" and "rebalance", and the test scenarios) and its options. */

export const SCRIPTS = [
  "momentum",
  "rebalance",
  "invalid-then-repair",
  "blocked-then-revise",
  "pending-abandoned",
  "hold",
  "no-submit",
  "runaway",
  "slow",
  "standing-orders",
] as const;
export type ScriptName = (typeof SCRIPTS)[number];

export function isScriptName(s: string): s is ScriptName {
  return (SCRIPTS as readonly string[]).includes(s);
}

export interface ScriptedOptions {
  script?: string;
  /** Limits the policy sizes against (the system prompt states them to a real model). */
  limits?: { max_position_pct?: number; max_price_deviation_pct?: number };
  /** Simulated thinking time per call, ms (0 by default). */
  delayMs?: number;
}
