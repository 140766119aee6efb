/**
 * The MCP server of one session, on the SDK's low-level `Server`: the tool catalogue served as the
 * contracts define it (`renderMcp`, what `tools --format mcp` prints), every call handed to the
 * session (./session.ts: the run's tool runtime), and the read-only resources (./resources.ts).
 * Nothing it answers is unredacted; no request of the client's approves, edits, resets or adopts:
 * there is no such tool, and submit_orders only records a proposal for the operator.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { UNTRUSTED_TOOL_OUTPUT } from "../agent/prompt.js";
import { redact } from "../core/redact.js";
import { CATALOGUE, CONTRACT_VERSION } from "../tools/catalogue.js";
import { renderMcp } from "../tools/render.js";
import { packageVersion } from "../util/paths.js";
import { RESOURCES, readResource } from "./resources.js";
import { McpSession } from "./session.js";

const INSTRUCTIONS = [
  `tradewarden (tool contracts ${CONTRACT_VERSION}): you research and propose trades for a paper account; a deterministic risk gate and a human operator decide. Your first tool call opens a run on the broker's next trading day (its checks may refuse it: say so and stop).`,
  "Ground every order in evidence ids returned by the tools, check it with check_orders, then call submit_orders once. submit_orders never places anything: it records your proposal awaiting the operator, who approves it in tradewarden (`tradewarden approve`); nothing you send can approve, edit, reset the kill switch or adopt positions. Call get_proposal_status to learn what the operator decided.",
  UNTRUSTED_TOOL_OUTPUT,
].join("\n\n");

/** A client's self-introduction as it may appear in records: printable, short. */
function clientName(server: Server): string {
  const v = server.getClientVersion();
  const raw = v ? `${v.name} ${v.version}` : "unknown";
  return raw.replace(/[^\w .@/+-]/g, "?").slice(0, 60);
}

/** The tools as the server lists them: the catalogue's MCP form. */
function listedTools() {
  return CATALOGUE.map((t) => renderMcp(t));
}

export function createMcpServer(opts: { home: string; env: NodeJS.ProcessEnv; idleMs: number; notice: (message: string) => void }): {
  server: Server;
  session: McpSession;
} {
  const server = new Server({ name: "tradewarden", version: packageVersion() }, { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS });
  const session = new McpSession({ home: opts.home, env: opts.env, idleMs: opts.idleMs, notice: opts.notice, client: () => clientName(server) });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listedTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const { content, isError } = await session.call(req.params.name, req.params.arguments ?? {});
    return { content, isError };
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: RESOURCES.map((r) => ({ ...r })) }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const value = await readResource(req.params.uri, opts.home, opts.env, opts.notice);
    return { contents: [{ uri: req.params.uri, mimeType: "application/json", text: redact(JSON.stringify(value, null, 2)) }] };
  });
  return { server, session };
}
