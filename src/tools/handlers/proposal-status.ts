/**
 * The get_proposal_status adapter: what became of a proposal, read from the journal
 * (src/journal/proposal-status.ts). Reads only: nothing here can decide a proposal.
 */
import type { ProposalStatus } from "../../journal/proposal-status.js";
import type { getProposalStatus } from "../defs/get-proposal-status.js";
import type { HandlerOf } from "../define.js";

export function makeProposalStatusHandler(status: (runId?: string) => ProposalStatus): HandlerOf<typeof getProposalStatus> {
  return (args) => ({ ok: true, data: status(args.run_id) });
}
