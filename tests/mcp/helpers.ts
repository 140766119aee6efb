/**
 * MCP test helpers: the official SDK's client driving the real CLI (`node bin/tradewarden.js mcp`,
 * the built dist/) over stdio, in a temporary home (tests/e2e/helpers.ts), and reading what it answers.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BIN, ROOT, childEnv } from "../e2e/helpers.js";

export interface StdioSession {
  client: Client;
  transport: StdioClientTransport;
  /** What the server wrote on stderr so far. */
  stderr: () => string;
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
