/**
 * `tradewarden mcp --http PORT`: Streamable HTTP on 127.0.0.1 only, driven by the official SDK's
 * client: the same tools as `tools --format mcp`, a research → check → submit session whose
 * proposal waits for the operator, the read-only resources, a foreign Host header refused (DNS
 * rebinding), and a SIGTERM that closes an open run as interrupted. Also the MCP Inspector's CLI
 * listing the tools and calling one over stdio.
 */
import { request } from "node:http";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, ROOT, childEnv, cleanupHomes, expectExit, freshHome, tw, twIn, journalJson } from "../e2e/helpers.js";
import { type Json, call, groundedOrder } from "./helpers.js";

afterAll(cleanupHomes);

/** The URL the server says it serves, from its stderr. */
function servedUrl(child: ReturnType<typeof tw>): Promise<string> {
  return new Promise((resolve, reject) => {
    let err = "";
    child.stderr?.on("data", (b: Buffer) => {
      err += b.toString();
      const m = /serving Streamable HTTP on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      if (m?.[1]) resolve(m[1]);
    });
    void child.then((r) => reject(new Error(`mcp --http exited ${r.exitCode} before serving: ${err}`)));
  });
}

/** A POST to the endpoint with a Host header of another site (a DNS-rebinding page): its status. */
function foreignHostStatus(url: string): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: "POST",
        headers: { host: "evil.example", "content-type": "application/json", accept: "application/json, text/event-stream" },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      }),
    );
  });
}

// The two cases share nothing (their own homes and processes): they run at the same time.
describe.concurrent("tradewarden mcp over Streamable HTTP", () => {
  it("serves on 127.0.0.1: tools, a session to a proposal awaiting approval, resources; SIGTERM closes an open run as interrupted", async () => {
    const home = freshHome();
    const home2 = freshHome();
    // Both servers start at once (the second is for the SIGTERM check at the end).
    const child = tw(home, ["mcp", "--http", "0"], { timeoutMs: 170_000 });
    const child2 = tw(home2, ["mcp", "--http", "0"], { timeoutMs: 170_000 });
    const [url, url2] = await Promise.all([servedUrl(child), servedUrl(child2)]);
    expect(await foreignHostStatus(url)).toBe(403);
    const client = new Client({ name: "http-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const listed = (await client.listTools()).tools;
    const printed = await twIn(home, ["tools", "--format", "mcp"]);
    expect(listed).toEqual(JSON.parse(String(printed.stdout)));
    const order = await groundedOrder(client, "ALFA", 3);
    expect((await call(client, "check_orders", { orders: [order] })).env.all_approved).toBe(true);
    const sub = await call(client, "submit_orders", { orders: [order], summary: "a small buy" });
    expect(JSON.parse(String((sub.raw as { content: { text: string }[] }).content[1]?.text))).toMatchObject({ status: "awaiting_approval" });

    const resources = (await client.listResources()).resources.map((r) => r.uri);
    expect(resources).toEqual(["tradewarden://portfolio", "tradewarden://runs", "tradewarden://killswitch", "tradewarden://tools"]);
    const read = async (uri: string) => {
      const content = (await client.readResource({ uri })).contents[0];
      return JSON.parse(content && "text" in content ? content.text : "{}") as Json;
    };
    expect((await read("tradewarden://tools")).contract_version).toBe("tw-tools/3");
    expect((await read("tradewarden://runs")).latest_proposal).toMatchObject({ status: "awaiting_approval" });
    expect(await read("tradewarden://killswitch")).toMatchObject({ trading_state: "ACTIVE" });
    expect(await read("tradewarden://portfolio")).toMatchObject({ success: true, cash: 100_000 });
    await client.close();

    // A second client whose run is open when the server is stopped: the run closes as interrupted.
    const second = new Client({ name: "http-test-2", version: "1.0.0" });
    await second.connect(new StreamableHTTPClientTransport(new URL(url2)));
    expect((await call(second, "get_portfolio", {})).env.success).toBe(true);
    child2.kill("SIGTERM");
    child.kill("SIGTERM");
    expect((await child2).exitCode).toBe(130);
    expect((await child).exitCode).toBe(130);
    expect((await journalJson(home2)).runs.map((r) => r.outcome)).toEqual(["interrupted"]);
    expect((await journalJson(home)).runs.map((r) => r.outcome)).toEqual(["awaiting_approval"]);
  }, 180_000);

  it("the MCP Inspector's CLI lists the tools and calls one", async () => {
    const home = freshHome();
    // Run from bin/: the inspector finds its own package.json relative to the working directory.
    const inspect = (method: string[]) =>
      execa(join(ROOT, "node_modules/.bin/mcp-inspector-cli"), ["--cli", process.execPath, BIN, "--home", home, "mcp", ...method], {
        cwd: join(ROOT, "bin"),
        env: childEnv(),
        extendEnv: false,
        reject: false,
        timeout: 120_000,
      });
    const list = await inspect(["--method", "tools/list"]);
    expectExit(list, 0);
    const tools = (JSON.parse(String(list.stdout)) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(tools).toContain("submit_orders");
    expect(tools).toContain("get_proposal_status");
    const called = await inspect(["--method", "tools/call", "--tool-name", "get_proposal_status"]);
    expectExit(called, 0);
    const first = (JSON.parse(String(called.stdout)) as { content: { text: string }[] }).content[0]?.text;
    expect(JSON.parse(String(first))).toMatchObject({ success: true, status: "none" });
  }, 180_000);
});
