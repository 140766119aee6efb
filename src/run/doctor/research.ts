/**
 * Doctor: the research provider. This build has no `[research]` configuration: the model researches
 * with the market-data tools only, which the market section checks. A provider adds its checks here
 * (configured, key present, reachable) and this section reports them.
 */
import type { DoctorCheck, DoctorContext } from "./types.js";
import { pass } from "./types.js";

export async function researchChecks(ctx: DoctorContext): Promise<DoctorCheck[]> {
  if (!ctx.config) return [];
  return [pass("research", "research.provider", "no research provider is configured: the model researches with the market-data tools only")];
}
