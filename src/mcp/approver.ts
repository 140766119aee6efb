/**
 * Who decides a proposal made through an MCP client: never the client. The approver of an MCP run
 * records the proposal as awaiting the operator (as a run without a terminal does), and approves
 * no standing order; the operator decides in tradewarden's console or with `tradewarden approve`.
 * The model of an MCP run is the client's: tradewarden never calls it, so it costs nothing here.
 */
import type { ModelPrice } from "../agent/pricing.js";
import type { ModelClient } from "../agent/types.js";
import type { ApprovalDecision, Approver } from "../run/approval.js";
import type { PipelineDeps } from "../run/pipeline.js";

export class McpApprover implements Approver {
  readonly name = "mcp";
  async decide(): Promise<ApprovalDecision> {
    return {
      kind: "awaiting",
      reason: "proposed through an MCP client, which cannot approve: the operator decides (tradewarden approve, or tradewarden's console); nothing was placed",
    };
  }
}

const NOT_CALLED: ModelClient = {
  model: "mcp-client",
  complete: () => Promise.reject(new Error("an MCP run's model is the client's: tradewarden never calls it")),
};

const FREE: ModelPrice = { model: "mcp-client", source: "config", input: 0, output: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0 };

/** The run's model: the MCP client's, named as it introduced itself. */
export function mcpModel(client: string): PipelineDeps["model"] {
  return { client: NOT_CALLED, price: FREE, provider: "mcp", keyEnv: null, id: `mcp:${client}` };
}
