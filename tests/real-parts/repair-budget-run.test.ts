/**
 * The repair budget through the CLI's commands (in-process): `tradewarden run --yes` with the real Anthropic SDK against
 * a loopback fake Messages API. A clean model reads the account and holds (sending
 * `abandon_error_codes: []`, which many models send for an empty optional list: accepted). A
 * looping model reads the account, then sends the same invalid submit_orders every turn: the run
 * stops after the budget (two identical refusals) instead of at the turn limit, says why on the
 * headless log, records it (agent outcome `repair_budget`), audits clean and replays, and costs at
 * most three requests more than the clean run.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { type Behaviour, type FakeAnthropic, startFakeAnthropic } from "../agent/fake-anthropic-server.js";
import { twIn } from "../e2e/helpers.js";

const KEY = "sk-ant-test-0123456789abcdef";
const usage = { input_tokens: 1200, output_tokens: 80, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
let fake: FakeAnthropic | null = null;
const homes: string[] = [];
afterEach(async () => {
  await fake?.close();
  fake = null;
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

const call = (id: string, name: string, input: unknown): Behaviour => ({
  kind: "message",
  content: [{ type: "tool_use", id, name, input }],
  stop_reason: "tool_use",
  usage,
});

function home(url: string): string {
  const dir = mkdtempSync(join(tmpdir(), "tw-repair-"));
  homes.push(dir);
  writeFileSync(join(dir, "tradewarden.toml"), `[model]\nprovider = "anthropic"\nid = "claude-sonnet-5"\nbase_url = "${url}"\n`);
  return dir;
}

/**
 * In-process (no process of its own is under test). A run's stderr must stay empty: the command's
 * own, and whatever it wrote past its io (`stray`, as a process would have printed it).
 */
const cliIn = (dir: string, args: string[]) => twIn(dir, args, { env: { ANTHROPIC_API_KEY: KEY, NO_COLOR: "1" } });

function onlyRun(dir: string): { id: string; events: Record<string, unknown>[] } {
  const id = readdirSync(join(dir, "runs"))[0] as string;
  const text = readFileSync(join(dir, "runs", id, "events.jsonl"), "utf8");
  return {
    id,
    events: text
      .split("\n")
      .filter((l) => l.length > 0)
      .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

test("a model repeating a refused call: the run stops after the repair budget, says why, and costs at most three requests more than a clean run", async () => {
  fake = await startFakeAnthropic();
  const hold = { orders: [], summary: "Nothing worth buying today.", abandon_error_codes: [] };

  // The clean run: read the account, then hold (with abandon_error_codes: [], accepted as absent).
  fake.setResponder((_body, i) => (i === 0 ? call("tu_p", "get_portfolio", {}) : call(`tu_s${i}`, "submit_orders", hold)));
  const clean = home(fake.url);
  const c = await cliIn(clean, ["run", "--yes", "--json"]);
  expect(c.stderr).toBe("");
  expect(c.stray).toBe("");
  expect(c.exitCode).toBe(0);
  const cleanRequests = fake.requests.length;
  expect(cleanRequests).toBe(2);
  const cleanEvents = c.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(cleanEvents).toContainEqual(expect.objectContaining({ type: "agent.finished", outcome: "hold" }));
  expect(cleanEvents.filter((e) => e.type === "tool.rejected")).toEqual([]);

  // The looping run: read the account, then the same invalid submit (an empty summary) every turn, forever.
  fake.requests.length = 0;
  const invalid = { orders: [], summary: "" };
  fake.setResponder((_body, i) => (i === 0 ? call("tu_p", "get_portfolio", {}) : call(`tu_s${i}`, "submit_orders", invalid)));
  const looping = home(fake.url);
  const r = await cliIn(looping, ["run", "--yes"]);
  expect(r.stderr).toBe("");
  expect(r.stray).toBe("");
  expect(r.exitCode).toBe(0); // no proposal, nothing placed: as after the turn limit
  expect(fake.requests.length).toBeLessThanOrEqual(cleanRequests + 3);
  expect(fake.requests.length).toBe(3); // the account, the refused submit, its unchanged repeat: no 20-request loop
  // The headless log says why the run ended.
  expect(r.stdout).toContain(
    "agent finished: repair_budget (the model repeated a refused call unchanged: submit_orders was refused 2 times (the last on turn 3) with the same arguments and the same error (invalid_tool_arguments: 1 problem in the arguments of submit_orders: $.summary",
  );
  expect(r.stdout).toMatch(/no proposal: the model repeated a refused call unchanged/);

  // Recorded: both refusals, the second saying it is a repeat, and the agent's outcome.
  const run = onlyRun(looping);
  const rejected = run.events.filter((e) => e.type === "tool.rejected");
  expect(rejected).toHaveLength(2);
  expect(String(rejected[1]?.error)).toContain("this exact call was refused 2 times with the same error; the run ends");
  expect(run.events).toContainEqual(expect.objectContaining({ type: "agent.finished", outcome: "repair_budget", turns: 3 }));
  const cycle = JSON.parse(readFileSync(join(looping, "runs", run.id, "research-cycle.json"), "utf8")) as { model: { agent_outcome: string } };
  expect(cycle.model.agent_outcome).toBe("repair_budget");

  // The run audits clean and replays with identical requests to the same outcome.
  const audit = await cliIn(looping, ["audit", run.id]);
  expect(audit.stdout + audit.stderr).not.toMatch(/finding/i);
  expect(audit.exitCode).toBe(0);
  const replay = await cliIn(looping, ["replay", run.id]);
  expect(replay.stdout).toContain("3 model call(s) replayed with identical requests; outcome repair_budget (recorded repair_budget)");
  expect(replay.exitCode).toBe(0);
}, 90_000);
