import { EventEmitter } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { EventSink } from "../../src/run/event-sink.js";
import { ApprovalQueue } from "../../src/screens/approval-queue.js";
import { mountJournal, mountKillSwitch, mountRunConsole } from "../../src/screens/run-app.js";
import { fakeRequest, KEY, order, waitFor } from "./helpers.js";

class FakeStdout extends EventEmitter {
  columns = 100;
  rows = 30;
  isTTY = true;
  last = "";
  all = "";
  write = (s: string) => {
    this.last = s;
    this.all += s;
    return true;
  };
}
class FakeStdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  setRawMode() {}
  setEncoding() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read = () => {
    const d = this.data;
    this.data = null;
    return d;
  };
  send(s: string) {
    this.data = s;
    this.emit("readable");
  }
}
const io = () => {
  const stdout = new FakeStdout();
  const stdin = new FakeStdin();
  return { stdout, stdin, opts: { stdout: stdout as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, env: { NO_COLOR: "1" } } };
};

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
    const ks = mountKillSwitch({ facts: { trading_state: "ACTIVE", liquidation: { status: "none" }, reducing_runs_after_reset: 0 }, onReset: async () => {}, onExit }, a.opts);
    await waitFor(() => a.stdout.all.includes("nothing to reset"), 2000, "kill-switch screen");
    a.stdin.send("q");
    await ks.waitUntilExit();
    expect(onExit).toHaveBeenCalledTimes(1);

    const b = io();
    const onExitJ = vi.fn();
    const j = mountJournal({ source: { listRuns: () => [], runDetail: () => null, account: () => ({ points: [], max_drawdown_pct: 10 }) }, onExit: onExitJ }, b.opts);
    await waitFor(() => b.stdout.all.includes("no runs yet"), 2000, "journal screen");
    b.stdin.send("q");
    await j.waitUntilExit();
    expect(onExitJ).toHaveBeenCalledTimes(1);
  });
});
