/**
 * `tradewarden mcp [--http PORT] [--idle-minutes N]`: tradewarden as an MCP server (src/mcp/), over
 * stdio by default, or Streamable HTTP on 127.0.0.1 only. Before it serves: `--yes` is refused
 * (unattended placement through a client is not offered), and the configuration and the account's
 * services are checked (the paper guard refuses a live endpoint before any broker I/O). Signals
 * stop it safely: an open run closes as interrupted. Stdout carries the protocol only; what a person
 * reads goes to stderr.
 */
import { noticeTo } from "../journal/load.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { requireConfig } from "../config/require.js";
import { createAccountServices } from "../run/services.js";
import { serveHttp, serveStdio } from "../mcp/serve.js";
import type { CommandIO } from "./io.js";
import { claimInterrupts } from "./interrupts.js";

export interface McpCommandOptions {
  home: string;
  http?: string;
  yes: boolean;
  idleMinutes: string;
}

function usage(message: string): TwError {
  return new TwError("usage", message, EXIT.USAGE_OR_CONFIG);
}

/** The options, checked: a port on loopback, an idle limit in minutes. */
function checked(opts: McpCommandOptions): { port: number | null; idleMs: number } {
  if (opts.yes)
    throw new TwError(
      "mcp_yes_refused",
      "mcp --yes is refused: unattended placement through an MCP client is not offered. A proposal made through MCP waits for the operator (`tradewarden approve RUN`).",
      EXIT.USAGE_OR_CONFIG,
    );
  const idle = Number(opts.idleMinutes);
  if (!Number.isFinite(idle) || idle <= 0 || idle > 24 * 60)
    throw usage(`--idle-minutes must be a number of minutes from 0 to 1440 (got "${opts.idleMinutes}")`);
  if (opts.http === undefined) return { port: null, idleMs: idle * 60_000 };
  const port = Number(opts.http);
  if (!/^\d+$/.test(opts.http) || port > 65_535)
    throw usage(`--http takes a port number from 0 to 65535 (got "${opts.http}"); the server binds 127.0.0.1 only`);
  return { port, idleMs: idle * 60_000 };
}

export async function cmdMcp(opts: McpCommandOptions, io: CommandIO): Promise<number> {
  const { port, idleMs } = checked(opts);
  // Refused before serving, as `run` would refuse: the configuration (a live endpoint among it) and the account's services.
  requireConfig(opts.home);
  await createAccountServices(opts.home, io.env, { readOnly: true, notice: noticeTo(io.stderr) });
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  let signalled = false;
  const release = claimInterrupts((name) => {
    if (!signalled) io.stderr(`\n${name}: stopping the MCP server — an open run closes as interrupted; nothing is placed\n`);
    signalled = true;
    stop();
  });
  try {
    const serve = { home: opts.home, env: io.env, idleMs, stopped, say: (line: string) => io.stderr(`${line}\n`), notice: noticeTo(io.stderr) };
    const channel = io.channel ?? { input: process.stdin, output: process.stdout };
    await (port === null ? serveStdio({ ...serve, channel }) : serveHttp({ ...serve, port }));
  } finally {
    release();
  }
  return signalled ? EXIT.INTERRUPTED : EXIT.OK;
}
