/**
 * Layout measures display columns, not UTF-16 code units: a CJK character or an emoji takes two
 * columns, a combining mark none, and a cut never splits a character. Measured with `string-width`,
 * the measure Ink draws with, so a padded cell is as wide on the terminal as its column.
 */
import stringWidth from "string-width";
import { afterEach, describe, expect, it } from "vitest";
import { EventSink } from "../../src/run/event-sink.js";
import { cells, type Column } from "../../src/screens/columns.js";
import { ApprovalQueue } from "../../src/screens/approval-queue.js";
import { type Mounted, mountRunConsole } from "../../src/screens/run-app.js";
import { clip, fitSegments, padEnd, padStart, wrapLine } from "../../src/screens/text.js";
import { io } from "./fake-terminal.js";
import { fakeRequest, order, waitFor } from "./helpers.js";

const CJK = "日本語の決算発表は好調でした";
const EMOJI = "🚀👍🏽 rally";

describe("text helpers measure display columns", () => {
  it("pads and cuts wide characters to the exact column width, never splitting one", () => {
    for (const w of [1, 2, 3, 4, 5, 8, 12, 40]) {
      for (const s of [CJK, EMOJI, "plain ascii text", "café e\u0301"]) {
        expect(stringWidth(padEnd(s, w)), `${s} @ ${w}`).toBe(w);
        expect(stringWidth(padStart(s, w)), `${s} @ ${w}`).toBe(w);
        expect(stringWidth(clip(s, w)), `${s} @ ${w}`).toBeLessThanOrEqual(w);
        expect(clip(s, w)).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/); // no lone high surrogate
      }
    }
    expect(padEnd("日本", 6)).toBe("日本  ");
    expect(clip(CJK, 5)).toBe("日本…");
    expect(padStart("ABC", 5)).toBe("  ABC");
    expect(clip("abcdef", 4)).toBe("abc…");
  });

  it("wraps wide text so no line is wider than the width, and keeps every character", () => {
    for (const w of [2, 3, 7, 10]) {
      const lines = wrapLine(`${CJK} ${EMOJI} ${CJK}`, w);
      for (const l of lines) expect(stringWidth(l), `${l} @ ${w}`).toBeLessThanOrEqual(w);
      expect(lines.join("").replace(/ /g, "")).toBe(`${CJK}${EMOJI}${CJK}`.replace(/ /g, ""));
    }
    expect(wrapLine("hello world foo", 11)).toEqual(["hello world", "foo"]);
  });

  it("table cells and fitted segments line up in columns with wide symbols and names", () => {
    const cols: Column[] = [
      { id: "sym", header: "symbol", width: 8, align: "left", priority: Number.POSITIVE_INFINITY },
      { id: "qty", header: "qty", width: 6, align: "right", priority: 1 },
    ];
    const rows = [
      { sym: "7203.T", qty: "10" },
      { sym: "トヨタ自動車", qty: "5" },
      { sym: "🚀MOON", qty: "1" },
    ].map((r) => cells(cols, r));
    for (const r of rows) expect(stringWidth(r), r).toBe(14);
    expect(
      stringWidth(
        fitSegments(
          [
            { text: CJK, priority: 2 },
            { text: EMOJI, priority: 1 },
          ],
          20,
        ),
      ),
    ).toBeLessThanOrEqual(20);
  });
});

describe("the approval screen with a model's wide-character words", () => {
  const mounted: Mounted[] = [];
  afterEach(() => {
    for (const m of mounted.splice(0)) m.unmount();
  });

  it("draws no line wider than the terminal, and wraps the summary by columns instead of losing half of each line", async () => {
    const columns = 70;
    const t = io(columns, 40);
    const sink = new EventSink();
    sink.runId = "20260302T140000Z-abcdef";
    const queue = new ApprovalQueue();
    const app = mountRunConsole({ subscribe: (l) => sink.subscribe(l), replay: sink.events, queue, onInterrupt: () => {}, ...t.opts });
    mounted.push(app);
    const req = fakeRequest([order("AAPL", "BUY", 10, 100, `${CJK}${CJK}${EMOJI}`), order("MSFT", "SELL", 20, 201, CJK)], {
      summary: `${CJK}。${CJK}。${EMOJI}${CJK}\n${CJK}${CJK}${CJK}${CJK}\n${EMOJI}`,
    });
    void queue.decide(req);
    await waitFor(() => t.stdout.lastFrameWith("Approve orders?") !== "", 3000, "the approval screen");
    const lines = t.stdout.lastFrameWith("Approve orders?").split("\n");
    expect(lines.some((l) => l.includes("日本"))).toBe(true);
    for (const l of lines) expect(stringWidth(l.trimEnd()), l).toBeLessThanOrEqual(columns);
    // Wrapped by code units, the summary's first line was twice the terminal's width and Ink cut its
    // second half off: the two lines shown must read on from one to the other.
    const at = lines.findIndex((l) => l.startsWith("summary: "));
    const shown = `${lines[at]!.slice("summary: ".length).trim()}${lines[at + 1]!.trim().replace(/…$/, "")}`;
    expect(shown.length).toBeGreaterThan(2 * CJK.length);
    expect(`${CJK}。${CJK}。${EMOJI}${CJK}`.startsWith(shown), shown).toBe(true);
  });
});
