/**
 * Loopback receivers for the notification channels: a node:http server that records every request
 * (path, headers, body) and answers 200, 500, or never (a hanging receiver); and a command channel
 * (node writing its stdin to a file, one file per message).
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves when `n` requests have arrived. */
  waitFor(n: number): Promise<void>;
  close(): Promise<void>;
}

export type Mode = "ok" | "fail" | "hang";

export async function startReceiver(mode: Mode = "ok"): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      for (const w of waiters.filter((x) => received.length >= x.n)) w.resolve();
      if (mode === "hang") hanging.push(res);
      else if (mode === "fail") res.writeHead(500).end("receiver is down");
      else res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    waitFor: (n) => (received.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    close: async () => {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A command channel: `node -e …` writing its stdin to a new file in a folder; the messages it got, parsed. */
export function commandReceiver(): { argv: string[]; messages: () => Record<string, unknown>[] } {
  const dir = mkdtempSync(join(tmpdir(), "tw-notify-cmd-"));
  const script = "const fs=require('fs');fs.writeFileSync(require('path').join(process.argv[1],Date.now()+'-'+process.pid+'.json'),fs.readFileSync(0))";
  return {
    argv: [process.execPath, "-e", script, dir],
    messages: () =>
      readdirSync(dir)
        .sort()
        .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as Record<string, unknown>),
  };
}

/** The [notify] TOML of one channel of each kind pointing at the receivers (the secrets as given). */
export function notifyToml(r: { webhook: string; ntfy: string; slack: string; discord: string; command: string[] }, secret: string, timeout = 5): string {
  const toml = (a: string[]) => `[${a.map((x) => JSON.stringify(x)).join(", ")}]`;
  return [
    "[notify]",
    `timeout_s = ${timeout}`,
    "[[notify.channels]]",
    'kind = "webhook"',
    `url = "${r.webhook}/hook/${secret}"`,
    `headers = { Authorization = "Bearer ${secret}-h", X-Source = "tradewarden-test" }`,
    "[[notify.channels]]",
    'kind = "ntfy"',
    `server = "${r.ntfy}"`,
    'topic = "tw-alerts"',
    `token = "${secret}-tok"`,
    "[[notify.channels]]",
    'kind = "slack"',
    'url_env = "TW_TEST_SLACK_URL"',
    "[[notify.channels]]",
    'kind = "discord"',
    `url = "${r.discord}/discord/${secret}"`,
    "[[notify.channels]]",
    'kind = "command"',
    `command = ${toml(r.command)}`,
    "",
  ].join("\n");
}
