/**
 * Terminal escapes from the model (issue #23), through the real CLI and a loopback fake Claude API:
 * a tool name and a stop reason carrying an OSC title, a CSI colour and bidi override/isolate
 * characters reach neither the headless lines (plain or --json) nor the console in a real pty; the
 * text around them is still shown.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pty from "node-pty";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeAnthropic, startFakeAnthropic } from "../agent/fake-anthropic-server.js";
import { terminalEnv } from "../pty/helpers.js";
import { BIN, ROOT, text, twIn } from "./helpers.js";

const TOOL = "get_\u202eportfolio\u001b]0;owned-tool\u0007\u001b[38;5;196mX";
const STOP = "end\u2066_\u001b]0;owned-stop\u0007turn\u001b[38;5;197mY\u202c";
const KEY = "sk-ant-test-escapes";

let fake: FakeAnthropic | null = null;
const homes: string[] = [];
afterEach(async () => {
  await fake?.close();
  fake = null;
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

async function homeWithHostileModel(): Promise<string> {
  fake = await startFakeAnthropic();
  const usage = { input_tokens: 100, output_tokens: 10 };
  fake.setResponder((_body, i) =>
    i === 0
      ? { kind: "message", content: [{ type: "tool_use", id: "t1", name: TOOL, input: {} }], stop_reason: "tool_use", usage }
      : { kind: "message", content: [{ type: "text", text: "Nothing to do." }], stop_reason: STOP, usage },
  );
  const home = mkdtempSync(join(tmpdir(), "tw-esc-"));
  homes.push(home);
  writeFileSync(join(home, "tradewarden.toml"), `[model]\nprovider = "anthropic"\nid = "claude-sonnet-5"\nbase_url = "${fake.url}"\n`);
  return home;
}

function expectNoPayload(out: string): void {
  for (const raw of ["\u202e", "\u2066", "\u202c", "]0;owned", "38;5;196", "38;5;197"]) expect(out, JSON.stringify(raw)).not.toContain(raw);
}

describe("escape codes in a tool name and a stop reason", () => {
  it("reach no headless line, plain or --json", async () => {
    const home = await homeWithHostileModel();
    const r = await twIn(home, ["run", "--yes"], { env: { ANTHROPIC_API_KEY: KEY } });
    expect(r.exitCode, text(r)).toBe(0);
    const out = text(r);
    expectNoPayload(out);
    expect(out).toContain("tool get_portfolioX rejected");
    expect(out).toContain("model stopped: end_turnY");
    const j = await twIn(home, ["run", "--yes", "--json"], { env: { ANTHROPIC_API_KEY: KEY } });
    expect(j.exitCode, text(j)).toBe(0);
    // JSON keeps the value (escaped, so a terminal cannot act on it) and parses back to it.
    for (const raw of ["\u001b", "\u0007", "\u202e", "\u2066", "\u202c"]) expect(String(j.stdout), JSON.stringify(raw)).not.toContain(raw);
    expect(String(j.stdout)).toContain("\\u2066");
  }, 120_000);

  it("reach nothing the console draws in a real terminal", async () => {
    const home = await homeWithHostileModel();
    const term = pty.spawn(process.execPath, [BIN, "--home", home, "run", "--yes"], {
      name: "xterm-256color",
      cols: 160,
      rows: 50,
      cwd: ROOT,
      env: { ...terminalEnv(home), ANTHROPIC_API_KEY: KEY },
    });
    let out = "";
    term.onData((d) => {
      out += d;
    });
    const code = await new Promise<number>((resolve) => term.onExit((e) => resolve(e.exitCode)));
    expect(code, out.slice(-3000)).toBe(0);
    expectNoPayload(out);
    expect(out).toContain("get_portfolioX");
  }, 120_000);
});
