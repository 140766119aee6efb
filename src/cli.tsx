/**
 * tradewarden's entry: parses arguments with commander, builds the services, and hands each
 * command to its module. Commands return exit codes; only this file calls process.exit.
 */
import { Command, CommanderError, Option } from "commander";
import { cmdTools, TOOL_FORMATS } from "./commands/tools.js";
import { processIO } from "./commands/io.js";
import { EXIT, EXIT_TABLE } from "./run/exit-codes.js";
import { TwError } from "./util/errors.js";
import { packageVersion, resolveHome } from "./util/paths.js";

const io = processIO();

function homeOf(cmd: Command): string {
  const opts = cmd.optsWithGlobals() as { home?: string };
  return resolveHome(opts.home, io.env);
}

let exitCode: number = EXIT.OK;
const setExit = (code: number) => {
  exitCode = code;
};

const program = new Command("tradewarden")
  .description("An operator console in which an LLM trades a paper account only through strict tool contracts, a deterministic risk gate and a human.")
  .version(packageVersion(), "-V, --version")
  .option("--home <dir>", "folder holding your config, journal, simulated broker and run artifacts (default: $TRADEWARDEN_HOME or ~/.tradewarden)")
  .showHelpAfterError()
  .addHelpText(
    "after",
    `\nExit codes:\n${EXIT_TABLE.map((e) => `  ${String(e.code).padStart(3)}  ${e.meaning}`).join("\n")}\n`,
  );
program.exitOverride();
program.configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) });

program
  .command("tools")
  .description("print the tool catalogue the model sees")
  .addOption(new Option("--format <format>", "output format").choices([...TOOL_FORMATS]).default("json"))
  .option("--tool <name>", "only this tool")
  .action((opts: { format: string; tool?: string }) => setExit(cmdTools(opts, io)));

async function main(argv: string[]): Promise<number> {
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.code === "commander.help") return EXIT.OK;
      return EXIT.USAGE_OR_CONFIG;
    }
    if (e instanceof TwError) {
      io.stderr(`tradewarden: ${e.message}\n`);
      return e.exitCode;
    }
    io.stderr(`tradewarden: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    if (io.env.TRADEWARDEN_DEBUG && e instanceof Error && e.stack) io.stderr(`${e.stack}\n`);
    return EXIT.INTERNAL_ERROR;
  }
}

// Keep a reference so later commands can read the home of a subcommand.
export { homeOf };

const code = await main(process.argv);
process.exitCode = code;
