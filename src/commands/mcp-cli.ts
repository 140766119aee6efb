/** `tradewarden mcp [--http PORT] [--idle-minutes N]`: registered here, its module loaded on demand. */
import type { Command } from "commander";
import type { CliContext } from "./simulate-cli.js";

export function registerMcp(program: Command, { io, homeOf, setExit }: CliContext): void {
  program
    .command("mcp")
    .description("serve the tools to an MCP client (stdio, or Streamable HTTP on 127.0.0.1 with --http); proposals wait for the operator")
    .option("--http <port>", "serve Streamable HTTP on 127.0.0.1:PORT instead of stdio (0: any free port, said on stderr)")
    .option("--idle-minutes <n>", "close an open run after this many minutes without a tool call", "30")
    .option("-y, --yes", "refused: unattended placement through an MCP client is not offered", false)
    .action(async (opts: { http?: string; idleMinutes: string; yes: boolean }, cmd: Command) => {
      setExit(await (await import("./mcp.js")).cmdMcp({ home: homeOf(cmd), ...opts }, io));
    });
}
