/**
 * `tradewarden simulate --from D [--to D] [--name N]`: the daily run over historical days in a
 * simulation of its own (`<home>/simulations/<name>/`), never the home's account. On a terminal a
 * live progress line; otherwise one plain line per day, or JSONL with --json. The first Ctrl+C
 * stops after the day in progress (a second one interrupts it); the report is written for the
 * days done either way.
 *
 * Exit: 0 when every day ran (kill-switch trips are results, in the summary), the failing day's
 * code when a day failed otherwise (3 reconciliation, 4 data/broker, 1 internal), 2 on bad input,
 * 130 when interrupted.
 */
import { EXIT } from "../core/exit-codes.js";
import { simulationPaths } from "../simulation/paths.js";
import { dayJson, liveLine, plainLine, summaryJson, summaryText, Tally } from "../simulation/progress.js";
import { buildReport } from "../simulation/report.js";
import { runSimulation, type SimulationRequest } from "../simulation/runner.js";
import { TwError } from "../core/errors.js";
import { noticeTo } from "../journal/load.js";
import { claimInterrupts } from "./interrupts.js";
import type { CommandIO } from "./io.js";
import { wrapText } from "../screens/text.js";

export interface SimulateOptions extends Omit<SimulationRequest, "env"> {
  json: boolean;
  /** Draw the live line (stdout is a terminal and not --json). */
  live: boolean;
  columns?: number;
}

/** SIGINT/SIGTERM/SIGHUP: the first stops after the day in progress, the second interrupts it. */
function stopHandlers(io: CommandIO) {
  const controller = new AbortController();
  let count = 0;
  const onSignal = (name: string) => {
    count++;
    if (count === 1) io.stderr(`\n${name}: stopping after the day in progress; the report covers the days done (again to interrupt the day)\n`);
    else controller.abort(new TwError("interrupted", `${name} received twice`, EXIT.INTERRUPTED));
  };
  const release = claimInterrupts(onSignal);
  return {
    signal: controller.signal,
    stopRequested: () => count > 0,
    dispose: release,
  };
}

export async function cmdSimulate(opts: SimulateOptions, io: CommandIO): Promise<number> {
  const stop = stopHandlers(io);
  const tally = new Tally();
  let lastDraw = 0;
  let liveShown = false;
  const clearLive = () => {
    if (liveShown) io.stdout("\r\x1b[2K");
    liveShown = false;
  };
  try {
    const { json, live, columns, ...request } = opts;
    const result = await runSimulation(
      { ...request, env: io.env, notice: noticeTo(io.stderr) },
      {
        stopRequested: stop.stopRequested,
        signal: stop.signal,
        onStart: (meta) => {
          tally.limit = meta.max_drawdown_pct / 100;
          tally.currency = meta.base_currency;
          const head = {
            type: "simulation",
            name: meta.name,
            dir: simulationPaths(opts.home, meta.name).dir,
            from: meta.from,
            to: meta.to,
            days: meta.days_total,
            model: meta.model,
          };
          if (json) io.stdout(`${JSON.stringify(head)}\n`);
          else
            io.stdout(
              onWords(
                `simulation ${meta.name}: ${meta.days_total} trading day(s) ${meta.from} → ${meta.to}, model ${meta.model.id}, in ${head.dir}\n`,
                live ? columns : undefined,
              ),
            );
        },
        onDay: (day, progress) => {
          tally.add(day);
          if (json) io.stdout(`${JSON.stringify(dayJson(day, progress))}\n`);
          else if (live) {
            if (day.trip || day.reset || day.exit_code !== EXIT.OK) {
              clearLive();
              if (day.exit_code !== EXIT.OK && day.exit_code !== EXIT.HALTED_OR_TRIPPED) io.stdout(`${plainLine(day, tally)}\n`);
              if (day.trip) io.stdout(onWords(`${day.day}  KILL SWITCH TRIPPED: ${day.trip.reason}\n`, columns));
              if (day.reset) io.stdout(onWords(`${day.day}  reset: ${day.reset.reason}\n`, columns));
            }
            const t = Date.now();
            if (t - lastDraw > 100 || progress.done === progress.total) {
              io.stdout(`\r\x1b[2K${liveLine(day, progress, tally, columns)}`);
              liveShown = true;
              lastDraw = t;
            }
          } else io.stdout(`${plainLine(day, tally)}\n`);
        },
      },
    );
    clearLive();
    const dir = simulationPaths(opts.home, result.meta.name).dir;
    const report = buildReport(result.meta, result.days);
    if (json) io.stdout(`${JSON.stringify(summaryJson(result.meta, report, dir, result.exitCode))}\n`);
    else io.stdout(`\n${onWords(summaryText(result.meta, report, dir), live ? columns : undefined)}`);
    return result.exitCode;
  } catch (e) {
    clearLive();
    if (opts.json && e instanceof TwError)
      io.stdout(`${JSON.stringify({ type: "simulation.refused", code: e.code, message: e.message, exit_code: e.exitCode })}\n`);
    throw e;
  } finally {
    stop.dispose();
  }
}

/** Text wrapped on words to a terminal's `columns` (a summary line never breaks mid-word); as is without a terminal. */
function onWords(text: string, columns: number | undefined): string {
  if (!columns || columns < 20) return text;
  return `${wrapText(text.replace(/\n$/, ""), columns - 1).join("\n")}\n`;
}
