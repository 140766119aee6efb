/**
 * The transports: stdio (one session: the client that started the process) and Streamable HTTP on
 * loopback only (127.0.0.1, DNS-rebinding protection on; one server and session per MCP session
 * id). Both resolve when they are done serving: stdin closed (the client went away), or `stop`.
 * Closing a session stops its open run as interrupted and waits for the run to close.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createMcpServer } from "./server.js";
import type { McpSession } from "./session.js";

export interface ServeOptions {
  home: string;
  env: NodeJS.ProcessEnv;
  idleMs: number;
  /** Resolves when the command is told to stop (a signal). */
  stopped: Promise<void>;
  say: (line: string) => void;
  /** Told what a journal open repaired (the command's stderr). */
  notice: (message: string) => void;
}

/** Serves one session over `channel` (the process's stdin and stdout) until its input ends or the command stops. */
export async function serveStdio(opts: ServeOptions & { channel: { input: Readable; output: Writable } }): Promise<void> {
  const { server, session } = createMcpServer(opts);
  const { input, output } = opts.channel;
  const transport = new StdioServerTransport(input, output);
  const gone = new Promise<void>((resolve) => {
    input.once("end", resolve);
    input.once("close", resolve);
    transport.onclose = resolve;
  });
  await server.connect(transport);
  opts.say("tradewarden mcp: serving on stdio");
  await Promise.race([gone, opts.stopped]);
  await session.close();
  await server.close().catch(() => {});
}

function jsonRpcError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

/** Serves Streamable HTTP on 127.0.0.1:`port` (0: any free port, said on stderr) until the command stops. */
export async function serveHttp(opts: ServeOptions & { port: number }): Promise<void> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; session: McpSession }>();
  const closing: Promise<unknown>[] = [];
  let allowedHosts: string[] = [];
  const open = async (req: IncomingMessage, res: ServerResponse) => {
    const { server, session } = createMcpServer(opts);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, session });
      },
      enableDnsRebindingProtection: true,
      allowedHosts,
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      closing.push(session.close());
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
  const http = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/mcp") return jsonRpcError(res, 404, "not found: the MCP endpoint is /mcp");
    const id = req.headers["mcp-session-id"];
    const known = typeof id === "string" ? sessions.get(id) : undefined;
    const handled = known ? known.transport.handleRequest(req, res) : id === undefined && req.method === "POST" ? open(req, res) : null;
    if (!handled) return jsonRpcError(res, 404, "unknown or missing MCP session id");
    handled.catch((e: unknown) => {
      if (!res.headersSent) jsonRpcError(res, 500, e instanceof Error ? e.message : String(e));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(opts.port, "127.0.0.1", () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  opts.say(`tradewarden mcp: serving Streamable HTTP on http://127.0.0.1:${port}/mcp`);
  await opts.stopped;
  for (const { session } of sessions.values()) closing.push(session.close());
  await Promise.all(closing);
  const closed = new Promise<void>((resolve) => http.close(() => resolve()));
  http.closeAllConnections();
  await closed;
}
