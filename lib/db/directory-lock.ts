import fs from "node:fs";
import path from "node:path";

/** What a lock file records about the process that holds it. */
export type LockHolder = { pid: number; since: string };

export type DirectoryLock = { file: string; release(): void };

/** Another live process (or this one, a second time) holds the directory. */
export class DirectoryLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
    hint: string,
  ) {
    const who = holder.pid === process.pid ? "this process already" : `process ${holder.pid} (since ${holder.since})`;
    super(`${dir} is in use: ${who} holds it (lock file ${dir}.lock). ${hint}`);
  }
}

/** True while `pid` runs; EPERM means it runs under another user. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

// Lock files this process wrote (on globalThis: Next's bundles each carry their own copy of this module).
const g = globalThis as typeof globalThis & { __heldLocks?: Set<string> };
const held = (g.__heldLocks ??= new Set());

/**
 * Whether the holder still runs. Our own pid counts only for a lock this process took: after a
 * container restart the new process often gets the pid of the one that left the lock behind.
 */
function holderAlive(file: string, holder: LockHolder): boolean {
  return holder.pid === process.pid ? held.has(file) : isProcessAlive(holder.pid);
}

function readHolder(file: string): LockHolder | null {
  try {
    const holder = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<LockHolder>;
    return Number.isInteger(holder.pid) && holder.pid! > 0 ? { pid: holder.pid!, since: String(holder.since) } : null;
  } catch {
    return null;
  }
}

/**
 * Takes the exclusive lock on `dir` (the file `<dir>.lock`, holding our pid), or throws
 * DirectoryLockedError naming the live holder, with `hint` saying how to reach it instead. A lock
 * whose process has died (killed, crashed) is stale and taken over. The file is written whole under
 * a temporary name and hard-linked into place, which fails atomically when the lock exists, so a
 * reader never sees a half-written holder.
 */
export function lockDirectory(dir: string, hint: string): DirectoryLock {
  const file = `${dir}.lock`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const me: LockHolder = { pid: process.pid, since: new Date().toISOString() };
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(me), { mode: 0o600 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        fs.linkSync(temp, file);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 2) throw err;
      }
      const holder = readHolder(file);
      if (holder && holderAlive(file, holder)) throw new DirectoryLockedError(dir, holder, hint);
      fs.rmSync(file, { force: true });
    }
  } finally {
    fs.rmSync(temp, { force: true });
  }
  held.add(file);
  const release = () => {
    process.off("exit", release);
    held.delete(file);
    // Only our own lock: after a stale takeover the file may be another process's.
    if (readHolder(file)?.pid === process.pid) fs.rmSync(file, { force: true });
  };
  // A process that exits without closing the database (process.exit, an uncaught error) frees it too.
  process.on("exit", release);
  return { file, release };
}
