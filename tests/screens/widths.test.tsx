/**
 * Width rules at 70, 80, 120 and 200 columns, drawn by the console as the CLI mounts it. Stated
 * column priority: the side, symbol and verdict of an order and the day and outcome of a run never
 * go; wall-clock columns (a run's start) and reference prices go first. No line is wider than the
 * terminal (a wrapped line is what leaves redraw leftovers). Snapshots hold the key rows and headers.
 */
import { afterEach, describe, expect, it } from "vitest";
import { EventSink } from "../../src/run/event-sink.js";
import { type Mounted, mountJournal } from "../../src/screens/run-app.js";
import { io } from "./fake-terminal.js";
import { approvalOnScreen, source } from "./fixtures.js";
import { waitFor } from "./helpers.js";

const WIDTHS = [70, 80, 120, 200] as const;
const mounted: Mounted[] = [];
afterEach(async () => {
  for (const m of mounted.splice(0)) m.unmount();
});

async function approvalAt(columns: number): Promise<string[]> {
  const t = io(columns, 40);
  const sink = new EventSink();
  sink.runId = "20260302T140000Z-abcdef";
  sink.emit({
    type: "run.started",
    run_id: sink.runId,
    mode: "paper",
    trading_day: "2026-03-02",
    model: { provider: "scripted", id: "momentum" },
    broker: { kind: "sim", account_id: "SIM-000001", endpoint: "sim:x" },
    base_currency: "USD",
  });
  const frame = await approvalOnScreen(sink, t, mounted);
  return frame.split("\n").map((l) => l.trimEnd());
}

async function journalAt(columns: number): Promise<string[]> {
  const t = io(columns, 30);
  const app = mountJournal({ source: source(), onExit: () => {} }, t.opts);
  mounted.push(app);
  await waitFor(() => t.stdout.lastFrameWith("run-0304") !== "", 3000, "the runs list");
  return t.stdout
    .lastFrameWith("run-0304")
    .split("\n")
    .map((l) => l.trimEnd());
}

describe.each(WIDTHS)("at %i columns", (columns) => {
  it("approval: header, order rows and keys fit; side, symbol and verdict always shown", async () => {
    const lines = await approvalAt(columns);
    for (const l of lines) expect(l.length, l).toBeLessThan(columns);
    const header = lines.slice(0, 2);
    expect(header[1]).toContain("value 101,234.56 USD");
    expect(header[1]).toContain("orders left 7");
    const tableHead = lines.find((l) => l.includes("verdict")) ?? "";
    const rows = lines.filter((l) => /^[› ] /.test(l) && /AAPL|MSFT|TSLA/.test(l) && /ok|BLOCKED/.test(l));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/BUY\s+AAPL.*ok$/);
    expect(rows[2]).toMatch(/BUY\s+TSLA.*BLOCKED price_band/);
    if (columns >= 120) expect(tableHead).toMatch(/#\s+side\s+symbol\s+qty\s+limit\s+ref\s+notional(\s+USD)?\s+after\s+verdict/);
    if (columns <= 80) expect(tableHead).not.toContain("ref");
    expect(lines.some((l) => l.includes("cash 12,345.67 USD →"))).toBe(true);
    const keys = lines.slice(lines.findIndex((l) => l.startsWith("↑/↓ j/k")));
    expect({ header, tableHead, firstRow: rows[0], keys }).toMatchSnapshot();
  });

  it("journal: the runs list keeps the day, outcome and run id; the wall-clock start goes first", async () => {
    const lines = await journalAt(columns);
    for (const l of lines) expect(l.length, l).toBeLessThan(columns);
    const head = lines.find((l) => l.includes("outcome")) ?? "";
    const row = lines.find((l) => l.includes("run-0302")) ?? "";
    expect(row).toMatch(/2026-03-02.*executed.*run-0302/);
    if (columns < 100) expect(head).not.toContain("started");
    else expect(head).toContain("started");
    const keys = lines.slice(lines.findIndex((l) => l.startsWith("↑/↓ j/k")));
    expect({ head, row, keys }).toMatchSnapshot();
  });
});
