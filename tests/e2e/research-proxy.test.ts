/**
 * A proxy that drops the connection (HTTPS_PROXY/HTTP_PROXY pointing at a loopback proxy that
 * closes every tunnel and request unanswered). The HTTP client
 * then neither answers nor fails; before the fix `research search` exited 13 (an unsettled
 * top-level await) without a word, and a run exited 0 without "run finished", left "running" in the
 * journal. Now: a named error (research_unreachable), exit 4, and a run that finishes and closes.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupHomes, expectExit, freshHome, recordedEvents, runIds, tw, twIn } from "./helpers.js";

let proxy: Server;
let proxyUrl = "";
const dropped: string[] = [];

beforeAll(async () => {
  proxy = createServer((req) => {
    dropped.push(`${req.method} ${req.url}`);
    req.resume();
    req.on("end", () => req.socket.destroy());
  });
  proxy.on("connect", (req, socket) => {
    dropped.push(`CONNECT ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  cleanupHomes();
  await new Promise<void>((r) => proxy.close(() => r()));
});

const TOML = '[broker]\nkind = "sim"\n\n[research]\nprovider = "tavily"\n';
// Tavily's own https address, reached only through the loopback proxy (which answers nothing and
// forwards nothing): no connection leaves the machine. (A plain-http base URL through the same
// proxy fails at once with "socket hang up"; the https request through it is the one left hanging.)
const env = () => ({
  TAVILY_API_KEY: "tvly-proxytest-0123456789",
  HTTP_PROXY: proxyUrl,
  HTTPS_PROXY: proxyUrl,
  http_proxy: proxyUrl,
  https_proxy: proxyUrl,
  NO_PROXY: "",
  no_proxy: "",
});

describe("research through a proxy that drops the connection", () => {
  it("`research search`: exit 4 with a named error, never an unsettled exit 13", async () => {
    const r = await tw(freshHome(TOML), ["research", "search", "Fed rates", "--as-of", "2020-03-16"], { env: env() });
    expectExit(r, 4);
    expect(String(r.stderr)).toMatch(/tavily search failed: Tavily gave no answer: the connection \(or a proxy's tunnel, HTTPS_PROXY\) was dropped/);
    expect(dropped.length).toBeGreaterThan(0);
  }, 60_000);

  it("a run: the searches fail by name, the run finishes and is closed in the journal (not left running)", async () => {
    const home = freshHome(TOML);
    const r = await tw(home, ["run", "--yes"], { env: env() });
    expectExit(r, 0);
    expect(String(r.stdout)).toMatch(/tool search_news failed \(search_failed\): .*Tavily gave no answer/);
    expect(String(r.stdout)).toMatch(/^run finished: /m);
    const [runId] = runIds(home);
    expect(recordedEvents(home, runId as string).at(-1)).toMatchObject({ type: "run.finished", exit_code: 0 });
    const journal = await twIn(home, ["journal", "--json"]);
    expect((JSON.parse(String(journal.stdout)) as { runs: { status: string }[] }).runs.map((x) => x.status)).toEqual(["completed"]);
  }, 90_000);
});
