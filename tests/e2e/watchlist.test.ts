/**
 * `tradewarden watchlist [--json]` through the real CLI: empty on a fresh home (nothing written);
 * after a watch run, the entries the agent added, as text and as JSON, read only.
 */
import { existsSync, readdirSync } from "node:fs";
import { afterAll, expect, test } from "vitest";
import { cleanupHomes, expectExit, freshHome, twIn } from "./helpers.js";

afterAll(cleanupHomes);

interface Item {
  id: string;
  symbol: string;
  reason: string;
  status: string;
  expires_on: string;
}

test("empty on a fresh home; after a watch run, the live entries as text and JSON", async () => {
  const home = freshHome();
  const [empty, emptyJson] = await Promise.all([twIn(home, ["watchlist"]), twIn(home, ["watchlist", "--json"])]);
  expectExit(empty, 0);
  expect(String(empty.stdout)).toBe("the watchlist is empty");
  expectExit(emptyJson, 0);
  expect(JSON.parse(String(emptyJson.stdout))).toEqual({ as_of_trading_day: null, items: [] });
  expect(readdirSync(home).filter((f) => f !== "tradewarden.toml")).toEqual([]);

  expectExit(await twIn(home, ["run", "--mode", "watch"]), 0);
  const journal = JSON.parse(String((await twIn(home, ["journal", "--json"])).stdout)) as { watchlist: Item[] };
  const live = journal.watchlist.filter((i) => i.status === "live");
  expect(live.length).toBeGreaterThan(0);
  const [text, json] = await Promise.all([twIn(home, ["watchlist"]), twIn(home, ["watchlist", "--json"])]);
  expectExit(json, 0);
  const out = JSON.parse(String(json.stdout)) as { as_of_trading_day: string; items: Item[] };
  expect(out.as_of_trading_day).toMatch(/^\d{4}-\d\d-\d\d$/);
  expect(out.items.map((i) => i.id)).toEqual(live.filter((i) => i.expires_on >= out.as_of_trading_day).map((i) => i.id));
  expectExit(text, 0);
  expect(String(text.stdout)).toContain(`watchlist as of ${out.as_of_trading_day}: ${out.items.length} entr`);
  for (const i of out.items) {
    expect(String(text.stdout)).toMatch(new RegExp(`^${i.id}  ${i.symbol}  added \\d{4}-\\d\\d-\\d\\d`, "m"));
    expect(String(text.stdout)).toContain(`\n    ${i.reason}`);
  }
  expect(existsSync(home)).toBe(true);
}, 90_000);
