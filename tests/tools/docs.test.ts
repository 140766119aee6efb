/**
 * The docs page is generated from the contracts and kept current; `tradewarden tools` prints the
 * catalogue in each format.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { CommandIO } from "../../src/commands/io.js";
import { cmdTools, TOOL_FORMATS } from "../../src/commands/tools.js";
import { EXIT } from "../../src/core/exit-codes.js";
import { CATALOGUE, CONTRACT_VERSION, TOOL_NAMES } from "../../src/tools/catalogue.js";
import { TOOL_ERROR_CODE_LIST, TOOL_ERROR_CODES } from "../../src/core/tool-error-codes.js";
import { ERROR_CONTRACT } from "../../src/agent/prompt.js";
import { cleanupHomes, expectExit, freshHome, twIn } from "../e2e/helpers.js";
import { renderAnthropic, renderCatalogue, renderMarkdown, renderMcp, renderOpenAI } from "../../src/tools/render.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const DOCS = join(ROOT, "docs", "tools.md");

function capture(): { io: CommandIO; out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} }, out: () => out.join(""), err: () => err.join("") };
}

function run(opts: { format?: string; json?: boolean; tool?: string }) {
  const c = capture();
  const code = cmdTools(opts, c.io);
  return { code, stdout: c.out(), stderr: c.err() };
}

describe("docs/tools.md", () => {
  it("is current (run npm run docs:tools when this fails)", () => {
    const committed = readFileSync(DOCS, "utf8");
    if (committed !== renderMarkdown()) {
      expect.fail("docs/tools.md is stale: run npm run docs:tools and commit the result");
    }
  });

  it("documents every tool, every argument and every error code", () => {
    const md = renderMarkdown();
    expect(md).toContain(`\`${CONTRACT_VERSION}\``);
    for (const t of CATALOGUE) {
      expect(md).toContain(`## ${t.name}`);
      expect(md).toContain(t.successSummary);
      expect(md).toContain(JSON.stringify(t.example, null, 2));
    }
    for (const path of ["`orders[].evidence_ids`", "`orders[].side`", "`abandon_explanation`", "`lookback_days`", "`supersedes`"]) {
      expect(md).toContain(path);
    }
    for (const code of TOOL_ERROR_CODE_LIST) {
      expect(md).toContain(`| \`${code}\` | ${TOOL_ERROR_CODES[code].retryable ? "yes" : "no"} |`);
    }
    expect(md).toContain(ERROR_CONTRACT);
  });

  it("is what the docs script writes", () => {
    const script = readFileSync(join(ROOT, "scripts", "write-tool-docs.ts"), "utf8");
    expect(script).toContain("renderMarkdown()");
    expect(script).toContain("docs/tools.md");
  });
});

describe("cmdTools", () => {
  it("offers the five formats", () => {
    expect([...TOOL_FORMATS]).toEqual(["json", "anthropic", "openai", "mcp", "markdown"]);
  });

  it("prints the JSON catalogue with --json, exactly as --format json", () => {
    const r = run({ json: true });
    expect(r.code).toBe(EXIT.OK);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(JSON.stringify(renderCatalogue())));
    expect(r.stdout.endsWith("\n")).toBe(true);
    expect(run({ format: "json" }).stdout).toBe(r.stdout);
    expect(run({ json: true, format: "openai" }).code).toBe(EXIT.USAGE_OR_CONFIG);
  });

  it("prints the Anthropic tools", () => {
    const r = run({ format: "anthropic" });
    expect(r.code).toBe(EXIT.OK);
    expect(JSON.parse(r.stdout)).toEqual(CATALOGUE.map((t) => renderAnthropic(t)));
  });

  it("prints the OpenAI tools", () => {
    const r = run({ format: "openai" });
    expect(r.code).toBe(EXIT.OK);
    expect(JSON.parse(r.stdout)).toEqual(CATALOGUE.map((t) => renderOpenAI(t)));
  });

  it("prints the MCP tools: the same descriptions and schemas as the Anthropic form, reads and dry runs marked read-only", () => {
    const r = run({ format: "mcp" });
    expect(r.code).toBe(EXIT.OK);
    const mcp = JSON.parse(r.stdout) as { name: string; description: string; inputSchema: unknown; annotations: Record<string, boolean> }[];
    expect(mcp).toEqual(CATALOGUE.map((t) => renderMcp(t)));
    const anthropic = CATALOGUE.map((t) => renderAnthropic(t));
    expect(mcp.map((t) => [t.name, t.description, t.inputSchema])).toEqual(anthropic.map((t) => [t.name, t.description, t.input_schema]));
    for (const t of CATALOGUE) {
      const a = mcp.find((m) => m.name === t.name)?.annotations;
      expect(a?.readOnlyHint, t.name).toBe(t.kind === "read" || t.kind === "dry_run");
      expect(a?.readOnlyHint, t.name).toBe(!t.mutates);
    }
  });

  it("prints the markdown docs page", () => {
    const r = run({ format: "markdown" });
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toBe(renderMarkdown());
  });

  it.each(TOOL_NAMES)("prints one tool with --tool %s in each JSON format", (name) => {
    const json = run({ format: "json", tool: name });
    expect(json.code).toBe(EXIT.OK);
    const entries = JSON.parse(json.stdout);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toEqual(renderCatalogue().tools.find((t) => t.name === name));

    const anthropic = JSON.parse(run({ format: "anthropic", tool: name }).stdout);
    expect(anthropic.map((t: { name: string }) => t.name)).toEqual([name]);
    const openai = JSON.parse(run({ format: "openai", tool: name }).stdout);
    expect(openai.map((t: { function: { name: string } }) => t.function.name)).toEqual([name]);
    expect(anthropic[0].description).toBe(openai[0].function.description);
    expect(anthropic[0].input_schema).toEqual(openai[0].function.parameters);
    expect(anthropic[0].description).toBe(entries[0].description);
    expect(anthropic[0].input_schema).toEqual(entries[0].input_schema);
  });

  it("exits 2 on an unknown format, naming the formats", () => {
    const r = run({ format: "yaml" });
    expect(r.code).toBe(EXIT.USAGE_OR_CONFIG);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain('unknown format "yaml"');
    for (const f of TOOL_FORMATS) expect(r.stderr).toContain(f);
  });

  it("exits 2 on an unknown tool, naming the tools", () => {
    const r = run({ format: "anthropic", tool: "place_order" });
    expect(r.code).toBe(EXIT.USAGE_OR_CONFIG);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain('no tool named "place_order"');
    for (const n of TOOL_NAMES) expect(r.stderr).toContain(n);
  });

  it("exits 2 for --tool with the markdown page", () => {
    const r = run({ format: "markdown", tool: "recall" });
    expect(r.code).toBe(EXIT.USAGE_OR_CONFIG);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/drop --tool/);
  });
});

describe("tradewarden tools (through the CLI's entry, src/cli.tsx main)", () => {
  const home = freshHome();
  afterAll(cleanupHomes);
  const cli = async (...args: string[]) => {
    const r = await twIn(home, ["tools", ...args]);
    return { ...r, out: `${r.stdout}\n` };
  };
  const ok = async (...args: string[]) => {
    const r = await cli(...args);
    expectExit(r, 0);
    return r.out;
  };

  it("prints one OpenAI tool", async () => {
    const out = await ok("--format", "openai", "--tool", "get_portfolio");
    expect(JSON.parse(out)).toEqual([renderOpenAI(CATALOGUE[0])]);
  });

  it("prints a table by default: every tool with its kind and a one-line purpose; --json is the catalogue", async () => {
    const out = await ok();
    const lines = out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^tool +kind +purpose$/);
    for (const t of CATALOGUE) expect(out).toMatch(new RegExp(`^${t.name} +${t.kind} +\\S.{5,90}$`, "m"));
    expect(lines.length).toBeLessThan(CATALOGUE.length + 5);
    expect(out).toContain(`${CATALOGUE.length} tool(s), contract ${CONTRACT_VERSION}`);
    expect(out).toContain("Read the account this run manages\n");
    const json = await ok("--json");
    expect(json).toBe(await ok("--format", "json"));
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(renderCatalogue())));
    const one = await ok("--tool", "recall");
    expect(one).toMatch(/^recall +read +/m);
    expect(one).toContain("1 tool(s)");
  });

  it("exits 2 on an unknown format or tool", async () => {
    const badFormat = await cli("--format", "yaml");
    expect(badFormat.exitCode).toBe(EXIT.USAGE_OR_CONFIG);
    const badTool = await cli("--tool", "nope");
    expect(badTool.exitCode).toBe(EXIT.USAGE_OR_CONFIG);
    expect(badTool.stderr).toContain('no tool named "nope"');
  });
});
