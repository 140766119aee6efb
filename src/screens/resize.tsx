/**
 * A clean frame after every resize, on every screen. A terminal re-wraps what is on screen when its
 * width changes, which Ink's line-by-line erase cannot account for (old headers and lines stay above
 * the new frame). So, once the resize has settled (Ink and the screens have laid out the new size),
 * the whole terminal is cleared through Ink's own write — which erases its tracked frame, writes the
 * clear and draws the current frame again from the top — and a new resize generation is published:
 * the live run keys its `<Static>` scrollback on it, so every finished item is printed again at the
 * new width instead of the old-width copies (the inline console clears the scrollback too).
 */
import { useStdout } from "ink";
import { createContext, type ReactNode, useContext, useEffect, useState } from "react";

/** Clears the visible screen and the scrollback, cursor home (the inline run console). */
const CLEAR_ALL = "\u001b[2J\u001b[3J\u001b[H";
/** Clears the visible screen, cursor home (full-screen views in the alternate screen). */
const CLEAR_SCREEN = "\u001b[2J\u001b[H";
/** Resize events arrive in bursts (a window drag, tmux): redraw once they stop. */
const SETTLE_MS = 80;

const ResizeGeneration = createContext(0);

/** How many settled resizes this screen has seen: a key that re-prints `<Static>` output at the new size. */
export function useResizeGeneration(): number {
  return useContext(ResizeGeneration);
}

/** Wraps a mounted tree: after each settled resize the terminal is cleared and the whole frame drawn again. */
export function ResizeFrame({ alternateScreen, children }: { alternateScreen: boolean; children: ReactNode }) {
  const { stdout, write } = useStdout();
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let timer: NodeJS.Timeout | undefined;
    const settled = () => {
      timer = undefined;
      write(alternateScreen ? CLEAR_SCREEN : CLEAR_ALL);
      setGeneration((g) => g + 1);
    };
    const onResize = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(settled, SETTLE_MS);
    };
    stdout.on("resize", onResize);
    return () => {
      if (timer) clearTimeout(timer);
      stdout.off("resize", onResize);
    };
  }, [stdout, write, alternateScreen]);
  return <ResizeGeneration.Provider value={generation}>{children}</ResizeGeneration.Provider>;
}
