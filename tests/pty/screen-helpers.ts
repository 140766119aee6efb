/** A CLI in a real pty whose output feeds a VirtualTerminal: the frame a person sees, resizable. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pty from "node-pty";
import { onTestFinished } from "vitest";
import { BIN, terminalEnv } from "./helpers.js";
import { VirtualTerminal } from "./vt.js";

const running: { term: pty.IPty; exited: Promise<void> }[] = [];
const homes: string[] = [];
let armed = false;

/** As in ./helpers.ts: armed from inside the test, so it holds in files that share this module. */
function cleanUpAfterThisTest(): void {
  if (armed) return;
  armed = true;
  onTestFinished(async () => {
    armed = false;
    for (const { term, exited } of running.splice(0)) {
      try {
        term.kill();
      } catch {
        // already gone
      }
      await Promise.race([exited, pause(3000)]);
    }
    for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true, maxRetries: 3 });
  });
}

/** A fresh TRADEWARDEN_HOME, removed after the test (once its programs have exited). */
export function screenHome(): string {
  cleanUpAfterThisTest();
  const home = mkdtempSync(join(tmpdir(), "tw-pty-resize-"));
  homes.push(home);
  return home;
}

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Spawns `tradewarden --home <home> <args>` in a cols×rows terminal. */
export function spawnScreen(home: string, args: readonly string[], cols = 120, rows = 40) {
  const term = pty.spawn(process.execPath, [BIN, "--home", home, ...args], { name: "xterm-256color", cols, rows, cwd: process.cwd(), env: terminalEnv(home) });
  cleanUpAfterThisTest();
  let exited: () => void = () => {};
  running.push({ term, exited: new Promise<void>((r) => (exited = r)) });
  const vt = new VirtualTerminal(cols, rows);
  let exit: number | null = null;
  let lastData = Date.now();
  let lastResize = 0;
  // A resize not yet answered by output: the program's redraw is still to come.
  let redrawDue = false;
  term.onData((d) => {
    vt.write(d);
    lastData = Date.now();
    redrawDue = false;
  });
  term.onExit((e) => {
    exit = e.exitCode;
    exited();
  });
  const screen = () => vt.screen();
  const waitFor = async (pred: () => boolean, what: string, ms = 30_000) => {
    const end = Date.now() + ms;
    while (!pred()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; the screen:\n${screen().join("\n")}`);
      await pause(40);
    }
  };
  return {
    term,
    vt,
    screen,
    exitCode: () => exit,
    /** Whether the last resize has had no output yet (its redraw is still to come). */
    awaitingRedraw: () => redrawDue,
    waitFor,
    waitForText: (needle: string, ms?: number) => waitFor(() => screen().some((l) => l.includes(needle)), JSON.stringify(needle), ms),
    /**
     * Waits until the program has written nothing for `quietMs` (its redraws are done); after a
     * resize, first for its redraw to begin (a loaded machine may take longer than `quietMs` to answer).
     */
    settle: (quietMs = 300) =>
      waitFor(() => !redrawDue && Date.now() - Math.max(lastData, lastResize) >= quietMs, "the screen to settle (after a resize: its redraw)", 10_000),
    /** Resizes the window (the terminal re-wraps first, as xterm and tmux do), then the program redraws. */
    resize: (c: number, r = rows) => {
      lastResize = Date.now();
      redrawDue = true;
      vt.resize(c, r);
      term.resize(c, r);
    },
  };
}

/** How many visible rows contain `needle`. */
export const count = (lines: readonly string[], needle: string) => lines.filter((l) => l.includes(needle)).length;
