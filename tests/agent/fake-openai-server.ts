/**
 * A loopback fake of OpenAI's Chat Completions API (POST /v1/chat/completions, streaming SSE:
 * `data: <chunk>` lines and `data: [DONE]`), for driving the real `openai` SDK in tests without a key
 * or the internet. It takes the same provider-neutral behaviours as the Anthropic fake (content
 * blocks, a canonical stop reason, canonical usage) and speaks them in OpenAI's wire format: text and
 * tool-call argument deltas split at awkward places, a usage chunk (only when the request asks with
 * `stream_options.include_usage`, as the real API does), cached prompt tokens under
 * `prompt_tokens_details.cached_tokens`, errors as `{error: {...}}` bodies and mid-stream error events.
 * Like the real API it rejects (400) a conversation where an assistant message's tool_calls are not
 * answered by `tool` messages right after it, or where a `tool` message answers nothing.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { awkwardPieces, type Behaviour, type FakeUsage, type RecordedRequest, type Responder, writeRaw } from "./fake-anthropic-server.js";

export interface FakeOpenAI {
  /** The base URL to give the SDK (ends in /v1). */
  url: string;
  requests: RecordedRequest[];
  enqueue(...b: Behaviour[]): void;
  setResponder(r: Responder | undefined): void;
  close(): Promise<void>;
}

const FINISH: Record<string, string> = { tool_use: "tool_calls", end_turn: "stop", max_tokens: "length", refusal: "content_filter", stop_sequence: "stop" };

/** The validation the real API applies to tool messages (an error message, or null). */
export function toolMessageError(body: Record<string, unknown>): string | null {
  const messages = (body.messages ?? []) as { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[];
  let open: string[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as (typeof messages)[number];
    if (m.role === "tool") {
      if (!open.includes(String(m.tool_call_id))) {
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (messages.[${i}])`;
      }
      open = open.filter((id) => id !== m.tool_call_id);
      continue;
    }
    if (open.length > 0) {
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(", ")}`;
    }
    if (m.role === "assistant" && Array.isArray(m.tool_calls)) open = m.tool_calls.map((c) => c.id);
  }
  return open.length > 0
    ? `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(", ")}`
    : null;
}

function apiError(res: ServerResponse, status: number, type: string, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", "x-request-id": "req_fake", ...headers });
  res.end(JSON.stringify({ error: { message, type, param: null, code: null } }));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The SSE body of hand-made chunks (each a chunk object's fields besides id/object/created), ending in [DONE]. */
export function sseChunks(chunks: Record<string, unknown>[], model = "gpt-5-mini"): string {
  const lines = chunks.map((c) => `data: ${JSON.stringify({ id: "chatcmpl-raw", object: "chat.completion.chunk", created: 1_790_000_000, model, ...c })}\n\n`);
  return `${lines.join("")}data: [DONE]\n\n`;
}

function chunkWriter(res: ServerResponse, id: string, model: string) {
  return (choices: unknown[], extra: Record<string, unknown> = {}) =>
    res.write(
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 1_790_000_000, model, system_fingerprint: "fp_fake", choices, ...extra })}\n\n`,
    );
}

function wireUsage(u: FakeUsage): Record<string, unknown> {
  const cached = u.cache_read_input_tokens ?? 0;
  const prompt = u.input_tokens + cached;
  return {
    prompt_tokens: prompt,
    completion_tokens: u.output_tokens,
    total_tokens: prompt + u.output_tokens,
    prompt_tokens_details: { cached_tokens: cached },
  };
}

async function streamMessage(res: ServerResponse, b: Extract<Behaviour, { kind: "message" }>, body: Record<string, unknown>, n: number): Promise<void> {
  const usage: FakeUsage = { input_tokens: 100, output_tokens: 20, ...(b.usage ?? {}) };
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "x-request-id": `req_${n}` });
  if (b.delayMs) await sleep(b.delayMs);
  const write = chunkWriter(res, `chatcmpl-fake-${n}`, b.model ?? String(body.model));
  write([{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }]);
  for (const block of b.content) {
    if (block.type === "text") for (const piece of awkwardPieces(block.text)) write([{ index: 0, delta: { content: piece }, finish_reason: null }]);
  }
  b.content
    .filter((x) => x.type === "tool_use")
    .forEach((block, index) => {
      if (block.type !== "tool_use") return;
      write([
        { index: 0, delta: { tool_calls: [{ index, id: block.id, type: "function", function: { name: block.name, arguments: "" } }] }, finish_reason: null },
      ]);
      for (const piece of awkwardPieces(JSON.stringify(block.input))) {
        write([{ index: 0, delta: { tool_calls: [{ index, function: { arguments: piece } }] }, finish_reason: null }]);
      }
    });
  write([{ index: 0, delta: {}, finish_reason: FINISH[b.stop_reason] ?? b.stop_reason }]);
  const opts = body.stream_options as { include_usage?: boolean } | undefined;
  if (opts?.include_usage && !b.noUsage) write([], { usage: wireUsage(usage) });
  res.write("data: [DONE]\n\n");
  res.end();
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const queue: Behaviour[] = [];
  const requests: RecordedRequest[] = [];
  let responder: Responder | undefined;
  const hanging = new Set<ServerResponse>();

  const handle = async (req: IncomingMessage, res: ServerResponse, raw: string) => {
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      apiError(res, 404, "invalid_request_error", `Unknown request URL: ${req.method} ${req.url}`);
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      apiError(res, 400, "invalid_request_error", "We could not parse the JSON body of your request.");
      return;
    }
    const rec: RecordedRequest = { headers: req.headers, body, answered: "" };
    requests.push(rec);
    const invalid = toolMessageError(body);
    if (invalid || body.stream !== true) {
      rec.answered = "rejected";
      apiError(res, 400, "invalid_request_error", invalid ?? "this fake only streams");
      return;
    }
    const b = queue.shift() ?? responder?.(body, requests.length - 1);
    if (!b) {
      rec.answered = "exhausted";
      apiError(res, 500, "server_error", "fake server has no behaviour queued");
      return;
    }
    rec.answered = b.kind;
    const write = chunkWriter(res, "chatcmpl-err", String(body.model));
    switch (b.kind) {
      case "message":
        await streamMessage(res, b, body, requests.length);
        return;
      case "status":
        apiError(res, b.status, b.errorType ?? (b.status === 429 ? "rate_limit_exceeded" : "server_error"), b.message ?? `fake ${b.status}`, b.headers);
        return;
      case "stream_error":
        res.writeHead(200, { "content-type": "text/event-stream" });
        write([{ index: 0, delta: { role: "assistant", content: b.afterText ?? "Thinking" }, finish_reason: null }]);
        res.write(`data: ${JSON.stringify({ error: { message: "Overloaded", type: b.errorType ?? "server_error", param: null, code: null } })}\n\n`);
        res.end();
        return;
      case "hang":
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        return;
      case "stall_mid_stream":
        res.writeHead(200, { "content-type": "text/event-stream" });
        write([{ index: 0, delta: { role: "assistant", content: b.text }, finish_reason: null }]);
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        return;
      case "raw":
        writeRaw(res, b);
        return;
    }
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => void handle(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
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
