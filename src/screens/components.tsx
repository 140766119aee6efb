/** Small hand-written Ink components shared by the screens (no ink-spinner / @inkjs/ui / tables). */
import { Box, Text } from "ink";
import { useEffect, useState } from "react";
import { helpEntries, type KeyTable } from "./keys.js";
import { useTheme } from "./theme.js";

/** The help line, drawn from the same table that binds the keys. */
export function KeyHelp({ table, width }: { table: KeyTable; width?: number }) {
  const th = useTheme();
  const entries = helpEntries(table);
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

/** A one-line text prompt with a visible cursor. */
export function PromptLine({ label, value, hint, tone }: { label: string; value: string; hint?: string; tone?: "warn" | "error" | "accent" }) {
  const th = useTheme();
  return (
    <Box>
      <Text bold color={th.c(tone ?? "accent")}>
        {label}{" "}
      </Text>
      <Text>{value}</Text>
      <Text inverse> </Text>
      {hint ? <Text dimColor> {hint}</Text> : null}
    </Box>
  );
}
