/**
 * `tradewarden tools [--json | --format json|anthropic|openai|markdown] [--tool NAME]`: a table of
 * the tools by default (name, kind, one-line purpose); the catalogue itself with --json / --format.
 */
import { CATALOGUE, CONTRACT_VERSION, contractOf } from "../tools/catalogue.js";
import { renderAnthropic, renderCatalogue, renderCatalogueEntry, renderMarkdown, renderOpenAI } from "../tools/render.js";
import { EXIT } from "../core/exit-codes.js";
import type { CommandIO } from "./io.js";

import { TOOL_FORMATS, type ToolFormat } from "../tools/formats.js";

export { TOOL_FORMATS, type ToolFormat };

const PURPOSE_MAX = 90;

/** A description's first sentence, up to its first colon or parenthesis, at most PURPOSE_MAX characters. */
function purposeOf(description: string): string {
  const first = (description.split(/(?<=\.)\s/)[0] ?? "").replace(/\.$/, "");
  const short = first.split(/: | \(/)[0] ?? first;
  if (short.length <= PURPOSE_MAX) return short;
  return `${short.slice(0, short.lastIndexOf(" ", PURPOSE_MAX - 1))}…`;
}

function toolTable(tools: readonly { name: string; kind: string; description: string }[]): string {
  const rows = [["tool", "kind", "purpose"], ...tools.map((t) => [t.name, t.kind, purposeOf(t.description)])];
  const w0 = Math.max(...rows.map((r) => (r[0] ?? "").length));
  const w1 = Math.max(...rows.map((r) => (r[1] ?? "").length));
  const lines = rows.map(([a = "", b = "", c = ""]) => `${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`);
  lines.push(
    "",
    `${tools.length} tool(s), contract ${CONTRACT_VERSION}; the catalogue as the model sees it: tradewarden tools --json (or --format anthropic|openai|markdown)`,
  );
  return `${lines.join("\n")}\n`;
}

export function cmdTools(opts: { format?: string; json?: boolean; tool?: string }, io: CommandIO): number {
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
      io.stdout(toolTable(tools));
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
