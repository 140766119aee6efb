/**
 * The one-line summary of a dispatch outcome, for the console and the headless log (the
 * `tool.result` event's `summary`): a failure's code and message; a success's line from its
 * tool's definition (`summarize`, src/tools/defs). Every contract version's tools are summarised
 * by today's definitions (the handlers, and so the results, are today's); a tool no definition
 * knows, or a result its summarizer cannot read, gets the list of its result's fields.
 */
import { definitionOf } from "./catalogue.js";
import { fieldList } from "./define.js";

/** One line about a tool's final envelope. */
export function summarizeEnvelope(tool: string, envelope: Readonly<Record<string, unknown>>): string {
  if (envelope.success !== true) return `${String(envelope.error_code ?? "error")}: ${String(envelope.error ?? "").slice(0, 200)}`;
  const { success: _, ...result } = envelope;
  const def = definitionOf(tool);
  if (def) {
    try {
      return def.summarize(result);
    } catch {
      // A result its summarizer cannot read still gets a line.
    }
  }
  return fieldList(result);
}
