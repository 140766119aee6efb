/** `config check` applies the paper-only broker guard `run` applies: a non-paper Alpaca URL is refused by both, exit 2. */
import { afterAll, expect, test } from "vitest";
import { cleanupHomes, expectExit, freshHome, text, twIn } from "./helpers.js";

afterAll(cleanupHomes);

test("https://paper-api.alpaca.markets:8443 is refused by config check as by run; the paper URL passes", async () => {
  const bad = freshHome('[broker]\nkind = "alpaca"\n[broker.alpaca]\nbase_url = "https://paper-api.alpaca.markets:8443"\n');
  const [check, run] = await Promise.all([twIn(bad, ["config", "check"]), twIn(bad, ["run", "--yes"])]);
  expectExit(check, 2);
  expect(text(check)).toContain(
    "tradewarden.toml: broker.alpaca.base_url: refusing broker URL https://paper-api.alpaca.markets:8443: only https://paper-api.alpaca.markets (paper, port 443) is allowed",
  );
  expectExit(run, 2);
  expect(text(run)).toMatch(/refusing a non-paper broker endpoint \(alpaca https:\/\/paper-api\.alpaca\.markets:8443\)/);
  const good = freshHome('[broker]\nkind = "alpaca"\n[broker.alpaca]\nbase_url = "https://paper-api.alpaca.markets"\n');
  const ok = await twIn(good, ["config", "check"]);
  expectExit(ok, 0);
  expect(String(ok.stdout)).toContain("config ok");
}, 60_000);
