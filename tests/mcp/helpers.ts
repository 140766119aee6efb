/**
 * MCP test helpers: the official SDK's client driving the real CLI over stdio — as a process
 * (`node bin/tradewarden.js mcp`, the built dist/) or in this process (`main`'s `mcp` command on a
 * pair of byte streams, tests/e2e/helpers.ts's `twIn`) — in a temporary home, and reading what it answers.
 */
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { BIN, ROOT, childEnv, type InProcessResult, twIn } from "../e2e/helpers.js";

export interface StdioSession {
  client: Client;
  transport: StdioClientTransport;
  /** What the server wrote on stderr so far. */
  stderr: () => string;
}

/** A client transport on the two byte streams of an in-process server: newline-delimited JSON-RPC, as stdio. */
class StreamPairTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();
  constructor(
    private readonly toServer: PassThrough,
    private readonly fromServer: PassThrough,
  ) {}
  async start(): Promise<void> {
    this.fromServer.on("data", (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let m = this.buffer.readMessage(); m; m = this.buffer.readMessage()) this.onmessage?.(m);
    });
  }
  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(serializeMessage(message));
  }
  async close(): Promise<void> {
    this.toServer.end();
    this.onclose?.();
  }
}

export interface InProcessSession {
  client: Client;
  /** The `mcp` command's answer once the client has closed: exit code and output. */
  closed: () => Promise<InProcessResult>;
}

/** `tradewarden --home HOME mcp` run in this process (no spawn), the SDK's client connected to it. */
export async function connectInProcess(home: string, name = "tw-test-client"): Promise<InProcessSession> {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const command = twIn(home, ["mcp"], { channel: { input: toServer, output: fromServer } });
  const client = new Client({ name, version: "1.0.0" });
  const ended = command.then((r) => {
    throw new Error(`the in-process mcp command ended before its client connected: exit ${r.exitCode}\n${r.stderr}`);
  });
  await Promise.race([client.connect(new StreamPairTransport(toServer, fromServer)), ended]);
  ended.catch(() => undefined);
  return {
    client,
    closed: async () => {
      await client.close();
      return command;
    },
  };
}

/** Starts `tradewarden --home HOME mcp` and connects the SDK's client to it. */
export async function connectStdio(home: string, name = "tw-test-client"): Promise<StdioSession> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "--home", home, "mcp"], env: childEnv(), cwd: ROOT, stderr: "pipe" });
  let err = "";
  transport.stderr?.on("data", (b: Buffer) => {
    err += b.toString();
  });
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(transport);
  return { client, transport, stderr: () => err };
}

export type Json = Record<string, unknown>;

/** The text blocks of a tool call's answer. */
export function texts(r: unknown): string[] {
  const content = (r as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.filter((b) => b.type === "text").map((b) => String(b.text));
}

/** The envelope of a tool call's answer (its first text block). */
export function envelope(r: unknown): Json {
  return JSON.parse(texts(r)[0] ?? "{}") as Json;
}

/** A tool call through the client: its answer, its envelope and whether it failed. */
export async function call(client: Client, name: string, args: Json): Promise<{ raw: unknown; env: Json; isError: boolean }> {
  const raw = await client.callTool({ name, arguments: args });
  return { raw, env: envelope(raw), isError: (raw as { isError?: boolean }).isError === true };
}

/** An order grounded in a price history the run returned (BUY at its last close). */
export async function groundedOrder(client: Client, symbol: string, quantity: number): Promise<Json> {
  const { env } = await call(client, "get_price_history", { symbol });
  return { symbol, side: "BUY", quantity, limit_price: env.last_close, reason: `test buy of ${symbol}`, evidence_ids: [env.evidence_id] };
}
