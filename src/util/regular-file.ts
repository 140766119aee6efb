/**
 * Reading a user's state or config file safely: a path that does not exist at all is "absent"; a
 * broken symbolic link, a folder, a FIFO, a socket or a device is refused (naming the path and what
 * it is) rather than read as "no file" or blocking forever. The file is opened non-blocking and
 * checked with fstat on the open descriptor, so what is checked is what is read.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, type Stats } from "node:fs";

export type RegularFileRead = { kind: "absent" } | { kind: "ok"; text: string } | { kind: "refused"; reason: string };

function whatIs(st: Stats): string {
  if (st.isDirectory()) return "a folder";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

/** Does anything (even a broken symbolic link) exist at `path`? */
export function entryExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT" || (e as NodeJS.ErrnoException).code === "ENOTDIR") return false;
    return true;
  }
}

/** Read `path` as UTF-8 text if it is a regular file (symbolic links to one are followed). */
export function readRegularFile(path: string): RegularFileRead {
  if (!entryExists(path)) return { kind: "absent" };
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { kind: "refused", reason: `${path} is a symbolic link to a file that does not exist` };
    if (code === "ENXIO") return { kind: "refused", reason: `${path} is a socket or device, not a regular file` };
    return { kind: "refused", reason: `cannot open ${path}: ${(e as Error).message}` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { kind: "refused", reason: `${path} is ${whatIs(st)}, not a regular file` };
    return { kind: "ok", text: readFileSync(fd, "utf8") };
  } catch (e) {
    return { kind: "refused", reason: `cannot read ${path}: ${(e as Error).message}` };
  } finally {
    closeSync(fd);
  }
}
