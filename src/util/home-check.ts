/**
 * Whether a folder can be a home, checked before any command reads or writes in it: a path too
 * long for the system, a file (or a file on the way), a system folder (/proc, /sys, /dev) or a
 * place this user cannot write is refused with a sentence naming the home and what is wrong —
 * never an "internal error: ENAMETOOLONG / EACCES / ENOENT" from deep inside a command. Pure
 * checks against the file system; nothing is created.
 */
import { accessSync, constants, realpathSync, statSync, statfsSync } from "node:fs";
import { dirname, sep } from "node:path";

/** Linux NAME_MAX: the longest folder or file name, in bytes. */
const NAME_MAX = 255;
/** The longest home path, in bytes: PATH_MAX (4096) less room for the deepest file a home holds. */
const MAX_HOME_PATH_BYTES = 3072;

/** Pseudo file systems (statfs f_type) that hold no user files: proc, sysfs, cgroup2, debugfs, securityfs, devpts. */
const PSEUDO_FS = new Set([0x9fa0, 0x62656572, 0x63677270, 0x27e0eb, 0x64626720, 0x73636673, 0x1cd1]);
const SYSTEM_ROOTS = ["/proc", "/sys"];

function errCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException).code;
}

/** The nearest folder on the way to `path` that exists (the path itself when it does). */
function nearestExisting(path: string): { dir: string; exists: boolean } | { problem: string } {
  let p = path;
  for (;;) {
    try {
      const st = statSync(p);
      if (!st.isDirectory()) return { problem: p === path ? "is not a folder" : `cannot be created: ${p} is a file, not a folder` };
      return { dir: p, exists: p === path };
    } catch (e) {
      const code = errCode(e);
      if (code === "ENAMETOOLONG") return { problem: "is too long a path for this system" };
      if (code === "ELOOP") return { problem: "goes round a loop of symbolic links" };
      if (code === "EACCES") return { problem: `cannot be reached: permission denied on the way (${p})` };
      if (code === "ENOTDIR") return { problem: "cannot be created: a part of the path is a file, not a folder" };
      if (code !== "ENOENT") return { problem: `cannot be checked: ${(e as Error).message}` };
    }
    const up = dirname(p);
    if (up === p) return { problem: "has no existing folder on its path" };
    p = up;
  }
}

function isSystemFolder(dir: string): boolean {
  try {
    if (PSEUDO_FS.has(Number(statfsSync(dir).type))) return true;
  } catch {
    // statfs unsupported: fall back to the path.
  }
  let real = dir;
  try {
    real = realpathSync(dir);
  } catch {
    // keep the path as given
  }
  return SYSTEM_ROOTS.some((r) => real === r || real.startsWith(`${r}${sep}`));
}

/** What is wrong with `home` as a home folder (a phrase after the path), or undefined when it can be one. */
export function homeProblem(home: string): string | undefined {
  const bytes = Buffer.byteLength(home, "utf8");
  if (bytes > MAX_HOME_PATH_BYTES)
    return `is too long a path (${bytes} bytes; a home may have at most ${MAX_HOME_PATH_BYTES}, so the files inside it fit the system's limit)`;
  const longName = home.split(sep).find((part) => Buffer.byteLength(part, "utf8") > NAME_MAX);
  if (longName !== undefined) return `has a folder name longer than ${NAME_MAX} bytes (${longName.slice(0, 24)}…)`;
  const found = nearestExisting(home);
  if ("problem" in found) return found.problem;
  if (isSystemFolder(found.dir)) return `is ${found.exists ? "" : "under "}${found.dir}, a system folder that holds no files of yours`;
  try {
    accessSync(found.dir, constants.W_OK | constants.X_OK);
  } catch (e) {
    const why = errCode(e) === "EROFS" ? "it is on a read-only file system" : "permission denied";
    return found.exists ? `is not writable: ${why}` : `cannot be created in ${found.dir}: ${why}`;
  }
  return undefined;
}
