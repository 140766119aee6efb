/**
 * What an in-process command writes past its io: to the process's own stdout or stderr, through the
 * console, or as a process warning. A command run as a process would print these on its output
 * (unredacted: they bypass the io's redactor), so an in-process test of "stderr is empty" or "the
 * key is on no output" checks them too. Captured raw, in order, while `fn` runs.
 */
const CONSOLE = ["log", "info", "warn", "error", "debug", "trace"] as const;

export async function capturingProcessWrites<T>(fn: () => Promise<T>): Promise<{ value: T; writes: string }> {
  let writes = "";
  const take = (chunk: unknown) => {
    writes += typeof chunk === "string" ? chunk : Buffer.isBuffer(chunk) || chunk instanceof Uint8Array ? Buffer.from(chunk).toString("utf8") : String(chunk);
  };
  const streams = [process.stdout, process.stderr] as const;
  const writers = streams.map((s) => s.write);
  for (const s of streams)
    s.write = ((chunk: unknown, ...rest: unknown[]) => {
      take(chunk);
      const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      done?.();
      return true;
    }) as typeof s.write;
  const consoles = CONSOLE.map((m) => console[m]);
  for (const m of CONSOLE) console[m] = (...args: unknown[]) => take(`${args.map(String).join(" ")}\n`);
  const onWarning = (w: Error) => take(`(warning) ${w.name}: ${w.message}\n`);
  process.on("warning", onWarning);
  try {
    const value = await fn();
    // A warning is emitted on the next tick: one the command raised at its very end still counts.
    await new Promise((r) => setImmediate(r));
    return { value, writes };
  } finally {
    process.off("warning", onWarning);
    CONSOLE.forEach((m, i) => {
      console[m] = consoles[i] as (typeof console)[typeof m];
    });
    streams.forEach((s, i) => {
      s.write = writers[i] as typeof s.write;
    });
  }
}
