/**
 * The console's colours, in one place. Neither Ink nor chalk honours NO_COLOR by itself, so every
 * component takes its colours from here: with NO_COLOR set (to anything non-empty) every colour is
 * `undefined` and Ink draws plain text. Emphasis that carries meaning is always doubled by text
 * ("BLOCKED", "›", "✓"), never carried by colour alone.
 */
import { createContext, useContext } from "react";

export type Tone = "plain" | "dim" | "ok" | "warn" | "error" | "accent" | "value" | "peak" | "limit";

export interface Theme {
  readonly color: boolean;
  /** Ink `color` prop for a tone: undefined when colour is off. */
  c(tone: Tone): string | undefined;
  /** Ink `dimColor` prop for a tone (dim is an attribute, not a colour; kept under NO_COLOR). */
  dim(tone: Tone): boolean;
}

const COLORS: Record<Tone, string | undefined> = {
  plain: undefined,
  dim: undefined,
  ok: "green",
  warn: "yellow",
  error: "red",
  accent: "cyan",
  value: "green",
  peak: "cyan",
  limit: "red",
};

function colorDisabled(env: NodeJS.ProcessEnv): boolean {
  const v = env.NO_COLOR;
  return v !== undefined && v !== "";
}

export function createTheme(env: NodeJS.ProcessEnv = process.env): Theme {
  const color = !colorDisabled(env);
  return {
    color,
    c: (tone) => (color ? COLORS[tone] : undefined),
    dim: (tone) => tone === "dim",
  };
}

export const ThemeContext = createContext<Theme>(createTheme());

export function useTheme(): Theme {
  return useContext(ThemeContext);
}
