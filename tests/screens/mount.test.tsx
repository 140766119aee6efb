import { describe, expect, it, vi } from "vitest";
import { EventSink } from "../../src/run/event-sink.js";
import { ApprovalQueue } from "../../src/screens/approval-queue.js";
import { mountJournal, mountKillSwitch, mountRunConsole } from "../../src/screens/run-app.js";
import { io } from "./fake-terminal.js";
import { fakeRequest, KEY, order, waitFor } from "./helpers.js";

describe("mount functions", () => {
  it("mountRunConsole: replays, follows the sink, and Ctrl+C interrupts and settles a waiting approval", async () => {
    const { stdin, stdout, opts } = io();
    const sink = new EventSink();
    sink.runId = "run-9";
    sink.emit({ type: "run.note", level: "info", message: "before mount" });
    const queue = new ApprovalQueue();
    const onInterrupt = vi.fn();
    const app = mountRunConsole({ subscribe: (l) => sink.subscribe(l), replay: sink.events, queue, onInterrupt, ...opts });
    sink.emit({ type: "run.note", level: "info", message: "after mount" });
    await waitFor(() => stdout.all.includes("after mount"), 2000, "first frame");
    expect(stdout.all).toContain("before mount");
    const decided = queue.decide(fakeRequest([order("AAPL", "BUY", 1, 100)]));
    await waitFor(() => stdout.all.includes("Approve orders?"), 2000, "approval screen");
    stdin.send(KEY.ctrlC);
    await expect(decided).resolves.toMatchObject({ kind: "reject", reason: expect.stringContaining("interrupted") });
    expect(onInterrupt).toHaveBeenCalledTimes(1);
    app.unmount();
    await app.waitUntilExit();
  });

  it("mountKillSwitch and mountJournal unmount themselves on exit", async () => {
    const a = io();
    const onExit = vi.fn();
    const ks = mountKillSwitch(
      { facts: { trading_state: "ACTIVE", liquidation: { status: "none" }, reducing_runs_after_reset: 0 }, onReset: async () => {}, onExit },
      a.opts,
    );
    await waitFor(() => a.stdout.all.includes("nothing to reset"), 2000, "kill-switch screen");
    a.stdin.send("q");
    await ks.waitUntilExit();
    expect(onExit).toHaveBeenCalledTimes(1);

    const b = io();
    const onExitJ = vi.fn();
    const j = mountJournal(
      { source: { listRuns: () => [], runDetail: () => null, account: () => ({ points: [], max_drawdown_pct: 10 }) }, onExit: onExitJ },
      b.opts,
    );
    await waitFor(() => b.stdout.all.includes("no runs yet"), 2000, "journal screen");
    b.stdin.send("q");
    await j.waitUntilExit();
    expect(onExitJ).toHaveBeenCalledTimes(1);
  });

  it("full screen: the journal draws in the alternate screen, clears and redraws on resize, and restores the screen on exit", async () => {
    const t = io(120, 30);
    const j = mountJournal(
      { source: { listRuns: () => [], runDetail: () => null, account: () => ({ points: [], max_drawdown_pct: 10 }) }, onExit: () => {} },
      { ...t.opts, alternateScreen: true },
    );
    await waitFor(() => t.stdout.all.includes("no runs yet"), 2000, "journal screen");
    expect(t.stdout.writes[0]).toContain("\u001b[?1049h");
    const before = t.stdout.writes.length;
    t.stdout.columns = 70;
    t.stdout.emit("resize");
    const written = () => t.stdout.writes.slice(before).join("");
    // Once the resize settles: the screen cleared, then the whole frame drawn again.
    await waitFor(() => written().includes("\u001b[2J\u001b[H"), 2000, "the clear");
    expect(written().split("\u001b[2J\u001b[H").at(-1)).toContain("no runs yet");
    t.stdin.send("q");
    await j.waitUntilExit();
    await waitFor(() => t.stdout.all.includes("\u001b[?1049l"), 2000, "the screen restored");
  });

  it("the run console clears the screen and its scrollback on resize and prints its log again below the clear", async () => {
    const t = io(120, 30);
    const sink = new EventSink();
    sink.runId = "run-9";
    const queue = new ApprovalQueue();
    const app = mountRunConsole({ subscribe: (l) => sink.subscribe(l), replay: sink.events, queue, onInterrupt: () => {}, ...t.opts });
    sink.emit({ type: "run.note", level: "info", message: "hello" });
    await waitFor(() => t.stdout.all.includes("hello"), 2000, "first frame");
    const before = t.stdout.writes.length;
    t.stdout.columns = 80;
    t.stdout.emit("resize");
    const written = () => t.stdout.writes.slice(before).join("");
    await waitFor(() => written().includes("\u001b[2J\u001b[3J\u001b[H"), 2000, "the clear");
    // The <Static> log (printed once, append-only) is printed again after the clear, at the new width.
    await waitFor(() => written().split("\u001b[2J\u001b[3J\u001b[H").at(-1)?.includes("hello") === true, 2000, "the log again");
    expect(t.stdout.all).not.toContain("\u001b[?1049h"); // inline, not the alternate screen
    app.unmount();
    await app.waitUntilExit();
  });
});
