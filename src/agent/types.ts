/**
 * The agent's canonical conversation format (the Anthropic Messages format: messages of content
 * blocks) and the one interface every model client implements. Other providers would render to and
 * from this shape at their edge; the loop, the transcript and the cassettes only know this one.
 */
import type { Usage } from "../core/events.js";
import { redact } from "../core/redact.js";

interface TextBlock {
  type: "text";
  text: string;
}

export interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}

export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  /** The tool's result envelope as JSON text. */
  content: string;
  is_error?: boolean;
}

/** Blocks we do not interpret (thinking, server tools...) are kept as they came and sent back as is. */
interface OtherBlock {
  type: string;
  [key: string]: unknown;
}

export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock | OtherBlock;

export interface Message {
  role: "user" | "assistant";
  content: ContentBlock[];
}

export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export type StopReason = "end_turn" | "tool_use" | "max_tokens" | "stop_sequence" | "pause_turn" | "refusal" | "model_context_window_exceeded";

/** One model call. Everything here except `timeoutMs` and `signal` is part of the recorded request. */
export interface ModelRequest {
  system: string;
  tools: readonly ToolDefinition[];
  messages: readonly Message[];
  maxTokens: number;
  /** The whole call's time budget (retries included); the loop aborts the call when it runs out. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface ModelResponse {
  content: ContentBlock[];
  stop_reason: StopReason | string;
  usage: Usage;
  /** The model id that answered. */
  model: string;
}

/** Live notifications from inside one call; the loop turns them into run events as they happen. */
export interface CallHooks {
  /** A text delta, as the model writes it. */
  onText?: (delta: string) => void;
  /** The client is retrying after a failed attempt (1 = first retry). */
  onRetry?: (attempt: number, message: string) => void;
}

export interface ModelClient {
  /** The model id requests go to (priced from the price table). */
  readonly model: string;
  complete(req: ModelRequest, hooks?: CallHooks): Promise<ModelResponse>;
}

/** How a model call can fail (a ModelCallError's `kind`; a cassette records it). */
export const MODEL_CALL_ERROR_KINDS = ["timeout", "api", "connection", "aborted", "protocol"] as const;

/** A model call that failed after the client's own retries; `kind` says how. */
export class ModelCallError extends Error {
  readonly kind: (typeof MODEL_CALL_ERROR_KINDS)[number];
  readonly status?: number;
  constructor(kind: ModelCallError["kind"], message: string, status?: number) {
    // An API's error body may echo the key: the message is redacted where it is made.
    super(redact(message));
    this.name = "ModelCallError";
    this.kind = kind;
    if (status !== undefined) this.status = status;
  }
}

/** The error classes an SDK (Anthropic's, OpenAI's: both Stainless-generated) throws. */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error & { status?: number | undefined };
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
}

/** An SDK's error as a ModelCallError (aborted, timeout, connection, api with its status, or protocol). */
export function modelCallErrorFrom(e: unknown, sdk: SdkErrorClasses, signal?: AbortSignal): ModelCallError {
  if (e instanceof ModelCallError) return e;
  if (signal?.aborted || e instanceof sdk.APIUserAbortError) return new ModelCallError("aborted", "the model call was aborted");
  if (e instanceof sdk.APIConnectionTimeoutError) return new ModelCallError("timeout", `the model call timed out: ${e.message}`);
  if (e instanceof sdk.APIConnectionError) return new ModelCallError("connection", `cannot reach the model API: ${e.message}`);
  if (e instanceof sdk.APIError) {
    const status = typeof e.status === "number" ? e.status : undefined;
    return new ModelCallError("api", `model API error${status ? ` ${status}` : ""}: ${e.message}`, status);
  }
  return new ModelCallError("protocol", `model call failed: ${(e as Error)?.message ?? String(e)}`);
}
