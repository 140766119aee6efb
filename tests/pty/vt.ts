/**
 * A small terminal emulator for the pty tests: what a person sees in the window. It follows the
 * sequences Ink and the CLI write (cursor moves, erase in line/display, the alternate screen,
 * autowrap) and re-wraps the lines on a resize the way xterm and tmux do — the re-wrap is what leaves
 * old frames above a new one when a program does not clear on resize. Colours and modes are ignored.
 */
interface Line {
  cells: string[];
  /** The line continues on the next row (autowrap), so a resize re-joins them. */
  wrapped: boolean;
}

const blank = (): Line => ({ cells: [], wrapped: false });

export class VirtualTerminal {
  private lines: Line[] = [];
  private alt: { lines: Line[]; x: number; y: number } | null = null;
  private x = 0;
  private y = 0;
  private pending = "";

  constructor(
    private cols: number,
    private rows: number,
  ) {
    for (let i = 0; i < rows; i++) this.lines.push(blank());
  }

  private get top(): number {
    return this.lines.length - this.rows;
  }

  private row(y = this.y): Line {
    const line = this.lines[this.top + y];
    if (!line) throw new Error(`row ${y} outside the screen`);
    return line;
  }

  /** The visible rows, trailing blanks trimmed. */
  screen(): string[] {
    return this.lines.slice(this.top).map((l) =>
      Array.from({ length: l.cells.length }, (_, i) => l.cells[i] ?? " ")
        .join("")
        .trimEnd(),
    );
  }

  /** Visible rows that continue a longer line (a wider frame's leftover re-wrapped by the terminal). */
  wrappedRows(): number[] {
    return this.lines
      .slice(this.top)
      .map((l, i) => (l.wrapped ? i : -1))
      .filter((i) => i >= 0);
  }

  write(data: string): void {
    const s = this.pending + data;
    this.pending = "";
    let i = 0;
    while (i < s.length) {
      const ch = s[i] as string;
      if (ch === "\u001b") {
        const used = this.escape(s, i);
        if (used === 0) {
          this.pending = s.slice(i);
          return;
        }
        i += used;
        continue;
      }
      i++;
      if (ch === "\r") this.x = 0;
      else if (ch === "\n") this.lineFeed();
      else if (ch === "\b") this.x = Math.max(0, Math.min(this.x, this.cols - 1) - 1);
      else if (ch === "\t") this.x = Math.min(this.cols - 1, (Math.floor(this.x / 8) + 1) * 8);
      else if (ch >= " " && ch !== "\u007f") this.print(ch);
    }
  }

  private print(ch: string): void {
    if (this.x >= this.cols) {
      this.row().wrapped = true;
      this.x = 0;
      this.lineFeed();
    }
    const cells = this.row().cells;
    while (cells.length < this.x) cells.push(" ");
    cells[this.x] = ch;
    this.x++;
  }

  private lineFeed(): void {
    if (this.y < this.rows - 1) {
      this.y++;
      return;
    }
    this.lines.push(blank());
    if (this.alt) this.lines.shift();
  }

  /** Consumes one escape sequence at s[i]; 0 when it is incomplete. */
  private escape(s: string, i: number): number {
    const next = s[i + 1];
    if (next === undefined) return 0;
    if (next === "[") {
      const m = /^\u001b\[([0-9;?<=>]*)([ -/]*)([@-~])/.exec(s.slice(i));
      if (!m) return s.length - i > 64 ? 2 : 0;
      this.csi(m[1] ?? "", m[3] ?? "");
      return m[0].length;
    }
    if (next === "]" || next === "P" || next === "_") {
      const end = s.slice(i).search(/\u0007|\u001b\\/);
      if (end < 0) return 0;
      return end + (s[i + end] === "\u0007" ? 1 : 2);
    }
    if (next === "(" || next === ")") return s.length > i + 2 ? 3 : 0;
    return 2;
  }

  private csi(params: string, final: string): void {
    if (params.startsWith("?")) {
      if (params.slice(1).split(";").includes("1049")) this.altScreen(final === "h");
      return;
    }
    if (/[<=>]/.test(params)) return;
    const p = params.split(";").map((v) => (v === "" ? Number.NaN : Number(v)));
    const n = (k: number, d = 1) => (Number.isNaN(p[k] ?? Number.NaN) || (p[k] ?? 0) === 0 ? d : (p[k] as number));
    const clampX = (v: number) => Math.max(0, Math.min(this.cols - 1, v));
    const clampY = (v: number) => Math.max(0, Math.min(this.rows - 1, v));
    const x = Math.min(this.x, this.cols - 1);
    switch (final) {
      case "A":
        this.y = clampY(this.y - n(0));
        this.x = x;
        break;
      case "B":
        this.y = clampY(this.y + n(0));
        this.x = x;
        break;
      case "C":
        this.x = clampX(x + n(0));
        break;
      case "D":
        this.x = clampX(x - n(0));
        break;
      case "E":
        this.y = clampY(this.y + n(0));
        this.x = 0;
        break;
      case "F":
        this.y = clampY(this.y - n(0));
        this.x = 0;
        break;
      case "G":
        this.x = clampX(n(0) - 1);
        break;
      case "d":
        this.y = clampY(n(0) - 1);
        break;
      case "H":
      case "f":
        this.y = clampY(n(0) - 1);
        this.x = clampX(n(1) - 1);
        break;
      case "J":
        this.eraseDisplay(Number.isNaN(p[0] ?? Number.NaN) ? 0 : (p[0] as number));
        break;
      case "K":
        this.eraseLine(Number.isNaN(p[0] ?? Number.NaN) ? 0 : (p[0] as number));
        break;
    }
  }

  private eraseLine(mode: number): void {
    const line = this.row();
    const x = Math.min(this.x, this.cols);
    if (mode === 0) line.cells.length = Math.min(line.cells.length, x);
    else if (mode === 1) for (let i = 0; i <= x && i < line.cells.length; i++) line.cells[i] = " ";
    else line.cells = [];
    if (mode !== 1) line.wrapped = false;
  }

  private eraseDisplay(mode: number): void {
    if (mode === 3) {
      this.lines.splice(0, this.top);
      return;
    }
    const from = mode === 0 ? this.y + 1 : 0;
    const to = mode === 1 ? this.y - 1 : this.rows - 1;
    if (mode === 0) this.eraseLine(0);
    if (mode === 1) this.eraseLine(1);
    for (let y = from; y <= to; y++) this.lines[this.top + y] = blank();
  }

  private altScreen(on: boolean): void {
    if (on && !this.alt) {
      this.alt = { lines: this.lines, x: this.x, y: this.y };
      this.lines = Array.from({ length: this.rows }, blank);
    } else if (!on && this.alt) {
      ({ lines: this.lines, x: this.x, y: this.y } = this.alt);
      this.alt = null;
    }
  }

  /** A window resize: the normal screen re-wraps its lines to the new width; the alternate screen is cut. */
  resize(cols: number, rows: number): void {
    if (this.alt) {
      this.alt.lines = this.reflow(this.alt.lines, this.alt.y + this.alt.lines.length - this.rows, this.alt.x, cols, rows).lines;
      this.lines = this.lines.slice(-this.rows).map((l) => ({ cells: l.cells.slice(0, cols), wrapped: false }));
      while (this.lines.length < rows) this.lines.push(blank());
      this.lines = this.lines.slice(0, rows);
      this.cols = cols;
      this.rows = rows;
      this.x = Math.min(this.x, cols - 1);
      this.y = Math.min(this.y, rows - 1);
      return;
    }
    const r = this.reflow(this.lines, this.top + this.y, this.x, cols, rows);
    this.lines = r.lines;
    this.cols = cols;
    this.rows = rows;
    this.x = r.x;
    this.y = r.abs - this.top;
  }

  private reflow(lines: Line[], cursorAbs: number, cursorX: number, cols: number, rows: number) {
    const out: Line[] = [];
    let abs = 0;
    let x = 0;
    let i = 0;
    while (i < lines.length) {
      const cells: string[] = [];
      let offset = -1;
      for (;;) {
        const line = lines[i] as Line;
        if (i === cursorAbs) offset = cells.length + cursorX;
        cells.push(...Array.from({ length: line.wrapped ? this.cols : line.cells.length }, (_, k) => line.cells[k] ?? " "));
        i++;
        if (!line.wrapped || i >= lines.length) break;
      }
      let end = cells.length;
      while (end > 0 && cells[end - 1] === " " && end > offset) end--;
      const first = out.length;
      for (let k = 0; k === 0 || k < end; k += cols) out.push({ cells: cells.slice(k, Math.min(end, k + cols)), wrapped: k + cols < end });
      if (offset >= 0) {
        const r = Math.min(Math.floor(offset / cols), out.length - 1 - first);
        abs = first + r;
        x = Math.min(offset - r * cols, cols);
      }
    }
    while (out.length > abs + 1 && (out.at(-1) as Line).cells.length === 0) out.pop();
    while (out.length < rows) out.push(blank());
    return { lines: out, abs, x };
  }
}
