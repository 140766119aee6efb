/**
 * A loopback fake of the Anthropic Messages API (POST /v1/messages, streaming SSE), for driving the
 * real SDK in tests without a key or the internet. Each request takes the next queued behaviour (or
 * asks a responder function). Like the real API it rejects (400) a request whose user message after
 * an assistant tool_use turn does not begin with the matching tool_result blocks, and one with more
 * than four cache breakpoints.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

export type FakeBlock = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: unknown };

export type Behaviour =
  | {
      kind: "message";
      content: FakeBlock[];
      stop_reason: string;
      usage?: FakeUsage;
      delayMs?: number;
      model?: string /** OpenAI fake: a server that streams no usage. */;
      noUsage?: boolean;
    }
  | { kind: "status"; status: number; headers?: Record<string, string>; errorType?: string; message?: string }
  | { kind: "stream_error"; afterText?: string; errorType?: string }
  | { kind: "hang" }
  | { kind: "stall_mid_stream"; text: string }
  /** A response written exactly as given: an HTML page, an empty 200, a redirect, hand-made SSE chunks. */
  | { kind: "raw"; status: number; headers?: Record<string, string>; body: string };

/** Writes a `raw` behaviour. */
export function writeRaw(res: ServerResponse, b: Extract<Behaviour, { kind: "raw" }>): void {
  res.writeHead(b.status, b.headers ?? {});
  res.end(b.body);
}

export interface RecordedRequest {
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
  /** The behaviour answered, or "rejected" when validation answered 400. */
  answered: string;
}

export type Responder = (body: Record<string, unknown>, index: number) => Behaviour;

export interface FakeAnthropic {
  url: string;
  requests: RecordedRequest[];
  /** Queue behaviours answered in order (after these, the responder if any). */
  enqueue(...b: Behaviour[]): void;
  setResponder(r: Responder | undefined): void;
  close(): Promise<void>;
}

const DEFAULT_USAGE: FakeUsage = { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

/** Splits a string at awkward places: 1, 2, 3... characters, so JSON breaks inside keys, escapes and numbers. */
export function awkwardPieces(s: string): string[] {
  const out: string[] = [];
  let i = 0;
  let n = 1;
  while (i < s.length) {
    out.push(s.slice(i, i + n));
    i += n;
    n = (n % 4) + 1;
  }
  return out;
}

/** The validation the real API applies to tool results (returns an error message or null). */
export function toolResultError(body: Record<string, unknown>): string | null {
  const messages = (body.messages ?? []) as { role: string; content: unknown }[];
  for (let i = 0; i < messages.length - 1; i++) {
    const m = messages[i];
    const next = messages[i + 1];
    if (!m || !next || m.role !== "assistant" || !Array.isArray(m.content)) continue;
    const ids = (m.content as { type: string; id?: string }[]).filter((b) => b.type === "tool_use").map((b) => b.id);
    if (ids.length === 0) continue;
    const content = Array.isArray(next.content) ? (next.content as { type: string; tool_use_id?: string }[]) : [];
    const head = content.slice(0, ids.length);
    const ok =
      next.role === "user" &&
      head.every((b) => b.type === "tool_result") &&
      new Set(head.map((b) => b.tool_use_id)).size === ids.length &&
      ids.every((id) => head.some((b) => b.tool_use_id === id));
    if (!ok) {
      return `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${ids.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
  }
  return null;
}

export function breakpointCount(body: Record<string, unknown>): number {
  const has = (x: unknown) => typeof x === "object" && x !== null && (x as Record<string, unknown>).cache_control != null;
  let n = 0;
  for (const s of (Array.isArray(body.system) ? body.system : []) as unknown[]) if (has(s)) n++;
  for (const t of (Array.isArray(body.tools) ? body.tools : []) as unknown[]) if (has(t)) n++;
  for (const m of (body.messages ?? []) as { content: unknown }[]) {
    if (Array.isArray(m.content)) for (const b of m.content) if (has(b)) n++;
  }
  return n;
}

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function apiError(res: ServerResponse, status: number, type: string, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", "request-id": "req_fake", ...headers });
  res.end(JSON.stringify({ type: "error", error: { type, message } }));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function streamMessage(res: ServerResponse, b: Extract<Behaviour, { kind: "message" }>, body: Record<string, unknown>, n: number): Promise<void> {
  const usage = { ...DEFAULT_USAGE, ...(b.usage ?? {}) };
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": `req_${n}` });
  if (b.delayMs) await sleep(b.delayMs);
  const startUsage: Record<string, unknown> = {
    input_tokens: usage.input_tokens,
    output_tokens: 1,
    cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
  };
  if (usage.cache_creation) startUsage.cache_creation = usage.cache_creation;
  sse(res, "message_start", {
    type: "message_start",
    message: {
      id: `msg_fake_${n}`,
      type: "message",
      role: "assistant",
      model: b.model ?? String(body.model),
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: startUsage,
    },
  });
  sse(res, "ping", { type: "ping" });
  b.content.forEach((block, index) => {
    if (block.type === "text") {
      sse(res, "content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
      for (const piece of awkwardPieces(block.text)) {
        sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } });
      }
      sse(res, "fancy_new_event", { type: "fancy_new_event", note: "clients must ignore unknown events" });
    } else {
      sse(res, "content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      for (const piece of awkwardPieces(JSON.stringify(block.input))) {
        sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } });
      }
    }
    sse(res, "content_block_stop", { type: "content_block_stop", index });
    sse(res, "ping", { type: "ping" });
  });
  sse(res, "message_delta", {
    type: "message_delta",
    delta: { stop_reason: b.stop_reason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  sse(res, "message_stop", { type: "message_stop" });
  res.end();
}

export async function startFakeAnthropic(): Promise<FakeAnthropic> {
  const queue: Behaviour[] = [];
  const requests: RecordedRequest[] = [];
  let responder: Responder | undefined;
  const hanging = new Set<ServerResponse>();

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        if (req.method !== "POST" || !req.url?.startsWith("/v1/messages")) {
          apiError(res, 404, "not_found_error", `no route ${req.method} ${req.url}`);
          return;
        }
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
        } catch {
          apiError(res, 400, "invalid_request_error", "body is not JSON");
          return;
        }
        const rec: RecordedRequest = { headers: req.headers, body, answered: "" };
        requests.push(rec);
        const invalid = toolResultError(body);
        const bps = breakpointCount(body);
        if (invalid || bps > 4) {
          rec.answered = "rejected";
          apiError(res, 400, "invalid_request_error", invalid ?? `A maximum of 4 blocks with cache_control may be provided. Found ${bps}.`);
          return;
        }
        const b = queue.shift() ?? responder?.(body, requests.length - 1);
        if (!b) {
          rec.answered = "exhausted";
          apiError(res, 500, "api_error", "fake server has no behaviour queued");
          return;
        }
        rec.answered = b.kind;
        switch (b.kind) {
          case "message":
            await streamMessage(res, b, body, requests.length);
            return;
          case "status":
            apiError(res, b.status, b.errorType ?? (b.status === 429 ? "rate_limit_error" : "api_error"), b.message ?? `fake ${b.status}`, b.headers);
            return;
          case "stream_error":
            res.writeHead(200, { "content-type": "text/event-stream" });
            sse(res, "message_start", {
              type: "message_start",
              message: {
                id: "msg_err",
                type: "message",
                role: "assistant",
                model: String(body.model),
                content: [],
                stop_reason: null,
                stop_sequence: null,
                usage: { input_tokens: 5, output_tokens: 1 },
              },
            });
            sse(res, "content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
            sse(res, "content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: b.afterText ?? "Thinking" } });
            sse(res, "error", { type: "error", error: { type: b.errorType ?? "overloaded_error", message: "Overloaded" } });
            res.end();
            return;
          case "hang":
            hanging.add(res);
            res.on("close", () => hanging.delete(res));
            return;
          case "stall_mid_stream":
            res.writeHead(200, { "content-type": "text/event-stream" });
            sse(res, "message_start", {
              type: "message_start",
              message: {
                id: "msg_stall",
                type: "message",
                role: "assistant",
                model: String(body.model),
                content: [],
                stop_reason: null,
                stop_sequence: null,
                usage: { input_tokens: 5, output_tokens: 1 },
              },
            });
            sse(res, "content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
            sse(res, "content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: b.text } });
            hanging.add(res);
            res.on("close", () => hanging.delete(res));
            return;
          case "raw":
            writeRaw(res, b);
            return;
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...b) => queue.push(...b),
    setResponder: (r) => {
      responder = r;
    },
    close: async () => {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
