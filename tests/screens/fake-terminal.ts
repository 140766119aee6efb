/** A fake terminal for mounting the console as the CLI does (any size), and reading what it drew. */
import { EventEmitter } from "node:events";

export class FakeStdout extends EventEmitter {
  columns = 100;
  rows = 30;
  isTTY = true;
  last = "";
  all = "";
  writes: string[] = [];
  write = (s: string) => {
    this.last = s;
    this.all += s;
    this.writes.push(s);
    return true;
  };
  /** The last write that contains `needle`, as text. */
  lastFrameWith(needle: string): string {
    for (let i = this.writes.length - 1; i >= 0; i--) {
      const t = screenText(this.writes[i] ?? "");
      if (t.includes(needle)) return t;
    }
    return "";
  }
}
export class FakeStdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  setRawMode() {}
  setEncoding() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read = () => {
    const d = this.data;
    this.data = null;
    return d;
  };
  send(s: string) {
    this.data = s;
    this.emit("readable");
  }
}
export const io = (columns = 100, rows = 30) => {
  const stdout = new FakeStdout();
  stdout.columns = columns;
  stdout.rows = rows;
  const stdin = new FakeStdin();
  return { stdout, stdin, opts: { stdout: stdout as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, env: { NO_COLOR: "1" } } };
};

/** The text of the last frame Ink wrote (escape sequences removed). */
export const screenText = (s: string) => s.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g, "");
