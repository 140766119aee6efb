/** Terminal size that follows resizes (Ink redraws on the state change). */
import { useStdout } from "ink";
import { useEffect, useState } from "react";

export interface TerminalSize {
  columns: number;
  rows: number;
}

const DEFAULT_SIZE: TerminalSize = { columns: 80, rows: 24 };

function read(stdout: NodeJS.WriteStream | undefined): TerminalSize {
  const columns = stdout?.columns;
  const rows = stdout?.rows;
  return {
    columns: typeof columns === "number" && columns > 0 ? columns : DEFAULT_SIZE.columns,
    rows: typeof rows === "number" && rows > 0 ? rows : DEFAULT_SIZE.rows,
  };
}

export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => read(stdout));
  useEffect(() => {
    const onResize = () => {
      const next = read(stdout);
      setSize((prev) => (prev.columns === next.columns && prev.rows === next.rows ? prev : next));
    };
    onResize();
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
  }, [stdout]);
  return size;
}
