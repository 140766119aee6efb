/**
 * `tradewarden tools [--json | --format json|anthropic|openai|mcp|markdown] [--tool NAME]`: a table of
 * the tools by default (name, kind, one-line purpose); the catalogue itself with --json / --format.
 */
import { CATALOGUE, CONTRACT_VERSION, contractOf } from "../tools/catalogue.js";
import { renderAnthropic, renderCatalogue, renderCatalogueEntry, renderMarkdown, renderMcp, renderOpenAI } from "../tools/render.js";
import { EXIT } from "../core/exit-codes.js";
import type { CommandIO } from "./io.js";

import { TOOL_FORMATS, type ToolFormat } from "../tools/formats.js";

export { TOOL_FORMATS, type ToolFormat };

const PURPOSE_MAX = 90;
/** The narrowest purpose column a terminal gets (below it the line wraps rather than losing the purpose). */
const PURPOSE_MIN = 20;

/** `text` cut on a word to at most `max` characters, marked with … when cut. */
function cutOnWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const at = text.lastIndexOf(" ", max - 1);
  return `${text.slice(0, at > 0 ? at : max - 1)}…`;
}

/** A description's first sentence, up to its first colon or parenthesis, at most `max` characters. */
function purposeOf(description: string, max: number): string {
  const first = (description.split(/(?<=\.)\s/)[0] ?? "").replace(/\.$/, "");
  return cutOnWord(first.split(/: | \(/)[0] ?? first, max);
}

/** The table, fitted to `columns` when it is a terminal's width: the purpose is cut on a word, never the name or kind. */
function toolTable(tools: readonly { name: string; kind: string; description: string }[], columns?: number): string {
  const w0 = Math.max(4, ...tools.map((t) => t.name.length));
  const w1 = Math.max(4, ...tools.map((t) => t.kind.length));
  const room = columns === undefined ? PURPOSE_MAX : Math.max(PURPOSE_MIN, Math.min(PURPOSE_MAX, columns - 1 - w0 - w1 - 4));
  const rows = [["tool", "kind", "purpose"], ...tools.map((t) => [t.name, t.kind, purposeOf(t.description, room)])];
  const lines = rows.map(([a = "", b = "", c = ""]) => `${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`);
  lines.push("", `${tools.length} tool(s), contract ${CONTRACT_VERSION}`, "as the model sees it: tools --json (or --format anthropic|openai|mcp|markdown)");
  return `${lines.join("\n")}\n`;
}

export function cmdTools(opts: { format?: string; json?: boolean; tool?: string; columns?: number }, io: CommandIO): number {
  if (opts.json === true && opts.format !== undefined && opts.format !== "json") {
    io.stderr(`tradewarden tools: --json and --format ${opts.format} disagree; give one\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  const format = opts.json === true ? "json" : ((opts.format ?? "table") as ToolFormat | "table");
  if (format !== "table" && !TOOL_FORMATS.includes(format)) {
    io.stderr(`tradewarden tools: unknown format "${opts.format}" (use ${TOOL_FORMATS.join(", ")})\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  let tools = [...CATALOGUE];
  if (opts.tool !== undefined) {
    const one = contractOf(opts.tool);
    if (!one) {
      io.stderr(`tradewarden tools: no tool named "${opts.tool}" (tools: ${CATALOGUE.map((t) => t.name).join(", ")})\n`);
      return EXIT.USAGE_OR_CONFIG;
    }
    tools = tools.filter((t) => t.name === one.name);
  }
  switch (format) {
    case "table":
      io.stdout(toolTable(tools, opts.columns));
      break;
    case "markdown":
      if (opts.tool !== undefined) {
        io.stderr("tradewarden tools: --format markdown prints the whole docs page; drop --tool\n");
        return EXIT.USAGE_OR_CONFIG;
      }
      io.stdout(renderMarkdown());
      break;
    case "anthropic":
      io.stdout(
        `${JSON.stringify(
          tools.map((t) => renderAnthropic(t)),
          null,
          2,
        )}\n`,
      );
      break;
    case "mcp":
      io.stdout(
        `${JSON.stringify(
          tools.map((t) => renderMcp(t)),
          null,
          2,
        )}\n`,
      );
      break;
    case "openai":
      io.stdout(
        `${JSON.stringify(
          tools.map((t) => renderOpenAI(t)),
          null,
          2,
        )}\n`,
      );
      break;
    default:
      io.stdout(`${JSON.stringify(opts.tool !== undefined ? tools.map((t) => renderCatalogueEntry(t)) : renderCatalogue(), null, 2)}\n`);
  }
  return EXIT.OK;
}
