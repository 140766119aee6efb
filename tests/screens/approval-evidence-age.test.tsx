import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { TradingCalendar } from "../../src/market/calendar.js";
import { agesById, evidenceFromTranscript } from "../../src/run/evidence.js";
import { ApprovalScreen } from "../../src/screens/ApprovalScreen.js";
import { fakeRequest, KEY, order, sendInputAndWaitForChange } from "./helpers.js";

afterEach(() => cleanup());

// Sessions of January 2007 (Monday the 15th closed); the run trades Thursday 2007-01-18.
const calendar = new TradingCalendar(["2007-01-08", "2007-01-09", "2007-01-10", "2007-01-11", "2007-01-12", "2007-01-16", "2007-01-17", "2007-01-18"]);

/** What the tools returned in the run: an old news item, a fresh one, the price history (as the transcript carries them). */
const transcript = [
  {
    content: [
      {
        type: "tool_result",
        content: JSON.stringify({
          success: true,
          results: [
            { evidence_id: "news:old", title: "Alpha beats estimates", published: "2000-05-29" },
            { evidence_id: "news:fresh", title: "Alpha raises guidance", published: "2007-01-12" },
          ],
        }),
      },
      { type: "tool_result", content: JSON.stringify({ success: true, evidence_id: "hist:aapl", as_of: "2007-01-17" }) },
    ],
  },
];

function request() {
  const evidence = evidenceFromTranscript(transcript);
  const aapl = { ...order("AAPL", "BUY", 10, 100), evidence_ids: ["hist:aapl", "news:fresh", "news:old"] };
  return { ...fakeRequest([aapl]), tradingDay: "2007-01-18", evidence, evidenceAges: agesById(evidence, calendar, "2007-01-18", 30) };
}

describe("approval screen: evidence freshness", () => {
  it("the order's evidence line counts stale items; its details date each item and mark the old news stale with its age", async () => {
    const inst = render(<ApprovalScreen request={request()} onDecide={() => {}} onInterrupt={() => {}} maxRows={40} typeAheadGuardMs={0} />);
    expect(inst.lastFrame()).toContain("evidence: hist:aapl, news:fresh, news:old · 1 stale");
    const f = await sendInputAndWaitForChange(inst, KEY.enter);
    expect(f).toContain("hist:aapl · dated 2007-01-17 · 1 trading day old");
    // Friday's news on Thursday after a closed Monday: Tue, Wed, Thu.
    expect(f).toContain("news:fresh · dated 2007-01-12 · 3 trading days old");
    expect(f).toMatch(/news:old · dated 2000-05-29 · stale \(1,7\d\d trading days\)/);
  });

  it("nothing is marked stale when every cited item is within the configured age", () => {
    const req = { ...request(), evidenceAges: agesById(request().evidence, calendar, "2007-01-18", 5000) };
    const inst = render(<ApprovalScreen request={req} onDecide={() => {}} onInterrupt={() => {}} maxRows={40} typeAheadGuardMs={0} />);
    expect(inst.lastFrame()).not.toContain("stale");
  });
});
