/**
 * The line editor every text field uses: keys that arrive together are handled one by one
 * ("\x7f\x7f" deletes two characters, a paste ending in a newline is the text then Enter), the
 * cursor moves, Ctrl+U / Ctrl+W / Home / End edit, and a cancelled confirmation says why.
 */
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ApprovalDecision } from "../../src/run/approval.js";
import { ApprovalScreen } from "../../src/screens/ApprovalScreen.js";
import { decodeKeys, describeKeys } from "../../src/screens/input.js";
import { JournalScreen } from "../../src/screens/JournalScreen.js";
import { KillSwitchScreen } from "../../src/screens/KillSwitchScreen.js";
import { cursorParts, EMPTY_LINE, editLine, type LineState, lineOf, visibleWindow } from "../../src/screens/line-editor-model.js";
import { source } from "./fixtures.js";
import { fakeRequest, KEY, order, sendInputAndWaitForChange, waitForFrame } from "./helpers.js";

afterEach(() => cleanup());

/** Feed a chunk through the decoder and the editor, as a screen does. */
function type(line: LineState, chunk: string): LineState {
  let l = line;
  for (const p of decodeKeys(chunk)) l = editLine(l, p.input, p.key).line;
  return l;
}

describe("decodeKeys: one terminal read, every key in it", () => {
  it("splits coalesced backspaces, text + Enter, control keys; keeps escape sequences whole", () => {
    expect(decodeKeys("\x7f\x7f").map((k) => k.key.backspace)).toEqual([true, true]);
    expect(decodeKeys("ab\r").map((k) => (k.key.return ? "⏎" : k.input))).toEqual(["a", "b", "⏎"]);
    expect(decodeKeys("y\r").map((k) => k.burst)).toEqual([2, 2]);
    expect(decodeKeys("\x15")[0]).toMatchObject({ input: "u", key: { ctrl: true } });
    expect(decodeKeys("\x1b[A")[0]?.key.upArrow).toBe(true);
    expect(decodeKeys("\x1b[H")[0]?.key.home).toBe(true);
    expect(decodeKeys("\x1b[4~")[0]?.key.end).toBe(true);
    expect(decodeKeys("\x1b[3~")[0]?.key).toMatchObject({ delete: true, backspace: false });
    expect(decodeKeys("\x1b")[0]?.key.escape).toBe(true);
    expect(decodeKeys("\x1b[F>").map((k) => (k.key.end ? "End" : k.input))).toEqual(["End", ">"]);
    expect(decodeKeys("a\r\nb").map((k) => (k.key.return ? "⏎" : k.input))).toEqual(["a", "⏎", "b"]);
    expect(describeKeys("y\r")).toBe('"y" and Enter');
  });
});

describe("editLine", () => {
  it("two backspaces in one chunk delete two characters", () => {
    expect(type(lineOf("momentum nameses"), "\x7f\x7f").text).toBe("momentum names");
  });

  it("inserts at the cursor; ←/→, Home/End move; Delete deletes forward", () => {
    let l = type(EMPTY_LINE, "ac");
    l = type(l, "\x1b[D");
    l = type(l, "b");
    expect(l).toEqual({ text: "abc", cursor: 2 });
    l = type(l, "\x1b[H");
    expect(l.cursor).toBe(0);
    l = type(l, "\x1b[3~");
    expect(l).toEqual({ text: "bc", cursor: 0 });
    l = type(l, "\x1b[F>");
    expect(l).toEqual({ text: "bc>", cursor: 3 });
  });

  it("Ctrl+W deletes the word before the cursor, Ctrl+U everything before it, Ctrl+K after it", () => {
    expect(type(lineOf("too risky today"), "\x17").text).toBe("too risky ");
    expect(type(lineOf("too risky today "), "\x17").text).toBe("too risky ");
    const l = type(lineOf("keep this"), "\x1b[D\x1b[D");
    expect(type(l, "\x15")).toEqual({ text: "is", cursor: 0 });
    expect(type(l, "\x0b")).toEqual({ text: "keep th", cursor: 7 });
  });

  it("a field that takes numbers drops everything else; paste keeps printable characters only", () => {
    let l = EMPTY_LINE;
    for (const p of decodeKeys("1a2.5")) l = editLine(l, p.input, p.key, { allowed: /[0-9.]/ }).line;
    expect(l.text).toBe("12.5");
    expect(type(EMPTY_LINE, "x\u0007y\u009bz").text).toBe("xyz");
  });

  it("draws the cursor and keeps it in view on a long line", () => {
    expect(cursorParts({ text: "abc", cursor: 1 })).toEqual({ before: "a", at: "b", after: "c" });
    expect(cursorParts({ text: "abc", cursor: 3 })).toEqual({ before: "abc", at: " ", after: "" });
    const w = visibleWindow({ text: "x".repeat(100), cursor: 100 }, 20);
    expect(w.clippedLeft).toBe(true);
    expect(w.cursor).toBeLessThanOrEqual(20);
  });
});

describe("text fields on the screens, with coalesced input", () => {
  const approval = (guard = 0, t = { now: 1_000 }) => {
    const decisions: ApprovalDecision[] = [];
    const req = fakeRequest([order("AAPL", "BUY", 10, 100), order("MSFT", "BUY", 5, 201)]);
    const inst = render(
      <ApprovalScreen request={req} onDecide={(d) => decisions.push(d)} onInterrupt={() => {}} maxRows={30} typeAheadGuardMs={guard} now={() => t.now} />,
    );
    return { inst, decisions, t };
  };

  it("reject reason: a paste, two backspaces in one chunk, then Enter records exactly the intended text", async () => {
    const { inst, decisions } = approval();
    await sendInputAndWaitForChange(inst, "r");
    await sendInputAndWaitForChange(inst, "momentum nameses");
    await sendInputAndWaitForChange(inst, "\x7f\x7f");
    expect(inst.lastFrame()).toContain("Reason (optional): momentum names");
    await sendInputAndWaitForChange(inst, KEY.enter);
    expect(decisions).toEqual([{ kind: "reject", by: "operator", reason: "momentum names" }]);
  });

  it("reject reason: pasted text with a newline is the text, then Enter", async () => {
    const { inst, decisions } = approval();
    await sendInputAndWaitForChange(inst, "r");
    await sendInputAndWaitForChange(inst, "crowded trade\nignored after Enter");
    expect(decisions).toEqual([{ kind: "reject", by: "operator", reason: "crowded trade" }]);
  });

  it("edit: three backspaces in one chunk clear the quantity; typing and Enter in one chunk applies it", async () => {
    const { inst } = approval();
    await sendInputAndWaitForChange(inst, "e");
    let f = await sendInputAndWaitForChange(inst, "\x7f\x7f\x7f");
    expect(f).toMatch(/▸quantity\s+limit 100/);
    f = await sendInputAndWaitForChange(inst, "4\r");
    expect(f).toContain("re-gated: the gate approves the edited order");
    expect(f).toMatch(/AAPL\s+4\s+100.00/);
  });

  it("a confirmation cancelled by y and Enter arriving together says so, and nothing is sent", async () => {
    const { inst, decisions, t } = approval(300);
    await sendInputAndWaitForChange(inst, "a");
    t.now += 1_000;
    const f = await sendInputAndWaitForChange(inst, "y\r");
    expect(f.replace(/\s+/g, " ")).toContain(
      'approval cancelled: "y" and Enter arrived together (typed ahead or pasted); press y, then Enter, one at a time; nothing sent',
    );
    expect(decisions).toHaveLength(0);
  });

  it("a confirmation cancelled by a wrong key or Enter before y names the key", async () => {
    const { inst, t } = approval(300);
    await sendInputAndWaitForChange(inst, "a");
    t.now += 1_000;
    let f = await sendInputAndWaitForChange(inst, KEY.enter);
    expect(f).toContain("approval cancelled: Enter came before y");
    t.now += 1_000;
    await sendInputAndWaitForChange(inst, "a");
    t.now += 1_000;
    f = await sendInputAndWaitForChange(inst, "n");
    expect(f).toContain('approval cancelled: "n" is not y');
  });

  it("journal filter: Ctrl+U clears it, a paste with Enter applies it", async () => {
    const inst = render(<JournalScreen source={source()} onExit={() => {}} />);
    await waitForFrame(inst, "run-0304");
    await sendInputAndWaitForChange(inst, "/");
    await sendInputAndWaitForChange(inst, "xyz");
    await sendInputAndWaitForChange(inst, "\x15");
    const f = await sendInputAndWaitForChange(inst, "run-0303\r");
    expect(f).toContain("Journal · 1 of 3 run(s) match");
    expect(f).not.toContain("run-0302");
  });

  it("kill-switch reset: the word and the reason pasted with Enter, a backspace chunk in between", async () => {
    const onReset = vi.fn(async (_a: { reason: string }) => {});
    const inst = render(
      <KillSwitchScreen
        facts={{ trading_state: "HALTED", liquidation: { status: "none" }, reducing_runs_after_reset: 1 }}
        onReset={onReset}
        onExit={() => {}}
      />,
    );
    await sendInputAndWaitForChange(inst, "RESETT\x7f\r");
    await sendInputAndWaitForChange(inst, "losses reviewedxx");
    await sendInputAndWaitForChange(inst, "\x7f\x7f\r");
    await waitForFrame(inst, "Kill switch reset");
    expect(onReset).toHaveBeenCalledWith({ reason: "losses reviewed" });
  });
});
