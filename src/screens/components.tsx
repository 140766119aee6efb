/** Small hand-written Ink components shared by the screens (no ink-spinner / @inkjs/ui / tables). */
import { Box, Text } from "ink";
import { useEffect, useState } from "react";
import { helpEntries, type KeyTable } from "./keys.js";
import { clip } from "./text.js";
import { type Tone, useTheme } from "./theme.js";

export interface Line {
  text: string;
  tone: Tone;
}

/** A window of pre-wrapped lines (clipped to `width` when given: a line as wide as the terminal wraps). */
export function ScrollLines({ lines, offset, height, width }: { lines: readonly Line[]; offset: number; height: number; width?: number }) {
  const th = useTheme();
  const shown = lines.slice(offset, offset + height);
  return (
    <Box flexDirection="column">
      {shown.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: positions in a scrolling window
        <Text key={i} wrap="truncate-end" color={th.c(l.tone)} dimColor={th.dim(l.tone)}>
          {l.text === "" ? " " : width !== undefined ? clip(l.text, width) : l.text}
        </Text>
      ))}
    </Box>
  );
}

/** How many rows the help line takes at `width` (its entries wrap as whole boxes). */
export function keyHelpRows(table: KeyTable, width: number): number {
  const entries = helpEntries(table);
  if (entries.length === 0) return 0;
  let rows = 1;
  let used = 0;
  for (const e of entries) {
    const w = e.label.length + 1 + e.help.length + 2;
    if (used > 0 && used + w > width) {
      rows++;
      used = 0;
    }
    used += w;
  }
  return rows;
}

/** The help line, drawn from the same table that binds the keys. */
export function KeyHelp({ table, width }: { table: KeyTable; width?: number }) {
  const th = useTheme();
  const entries = helpEntries(table);
  if (entries.length === 0) return null;
  return (
    <Box flexWrap="wrap" {...(width ? { width } : {})}>
      {entries.map((e) => (
        <Box key={`${e.label}:${e.help}`} marginRight={2}>
          <Text bold color={th.c("accent")}>
            {e.label}
          </Text>
          <Text dimColor> {e.help}</Text>
        </Box>
      ))}
    </Box>
  );
}

/**
 * The `?` overlay: every key of the screen's current table (the help line shows only the
 * essentials), in two columns. Any key closes it.
 */
export function HelpOverlay({ title, table, width }: { title: string; table: KeyTable; width: number }) {
  const th = useTheme();
  const entries = helpEntries(table, true);
  const labelW = Math.min(18, Math.max(...entries.map((e) => e.label.length), 4) + 2);
  return (
    <Box flexDirection="column" borderStyle="round" width={Math.min(width, 72)} paddingX={1}>
      <Text bold color={th.c("accent")}>
        Keys · {title}
      </Text>
      {entries.map((e) => (
        <Text key={`${e.label}:${e.help}`} wrap="truncate-end">
          <Text bold color={th.c("accent")}>
            {e.label.padEnd(labelW)}
          </Text>
          {e.help}
        </Text>
      ))}
      <Text dimColor>any key closes this help</Text>
    </Box>
  );
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** A spinner; re-renders itself only. `onTick` lets a parent refresh a clock at the same pace. */
export function Spinner({ intervalMs = 100 }: { intervalMs?: number }) {
  const th = useTheme();
  const [i, setI] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setI((n) => (n + 1) % FRAMES.length), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return <Text color={th.c("accent")}>{FRAMES[i]}</Text>;
}

/** Re-render every `ms` while `active` (for clocks). */
export function useTicker(active: boolean, ms = 1000): number {
  const [n, setN] = useState(0);
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setN((x) => x + 1), ms);
    return () => clearInterval(t);
  }, [active, ms]);
  return n;
}
