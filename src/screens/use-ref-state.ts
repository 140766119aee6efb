import { useCallback, useRef, useState } from "react";

/**
 * State that input handlers read synchronously: keystrokes that arrive before React re-renders
 * (fast typing, a paste) still see the result of the previous keystroke.
 */
export function useRefState<T>(initial: T | (() => T)): [() => T, (next: T | ((prev: T) => T)) => void] {
  const ref = useRef<T | undefined>(undefined);
  const [, setTick] = useState(0);
  if (ref.current === undefined) ref.current = typeof initial === "function" ? (initial as () => T)() : initial;
  const get = useCallback(() => ref.current as T, []);
  const set = useCallback((next: T | ((prev: T) => T)) => {
    ref.current = typeof next === "function" ? (next as (p: T) => T)(ref.current as T) : next;
    setTick((n) => n + 1);
  }, []);
  return [get, set];
}
