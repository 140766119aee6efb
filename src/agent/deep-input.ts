/**
 * A model's tool arguments nested past MAX_JSON_DEPTH never go further than the client's answer:
 * each such `tool_use` input is replaced by a shallow stand-in before the cassette, the transcript
 * or an event holds it (JSON.stringify, redaction and every other recursive walk overflow the stack
 * on them: the run ended `model_error`, exit 4). The tool admission answers the stand-in with the
 * validation envelope ("arguments nest deeper than 64 levels"), so the model can correct itself.
 */
import { nestsDeeperThan, tooDeepStandIn } from "../util/json-depth.js";
import type { ModelResponse } from "./types.js";

/** The response with every too-deep tool input replaced (the same object when there is none). */
export function withShallowToolInputs(response: ModelResponse): ModelResponse {
  if (!response.content.some((b) => b.type === "tool_use" && nestsDeeperThan(b.input))) return response;
  return {
    ...response,
    content: response.content.map((b) => (b.type === "tool_use" && nestsDeeperThan(b.input) ? { ...b, input: tooDeepStandIn() } : b)),
  };
}
