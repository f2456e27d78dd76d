import fs from "node:fs";

/**
 * Creates `dir` (and missing parents) readable by this user only, and tightens it to 0700 when it
 * already exists wider and is ours: DATA_DIR holds the database, the sign-in secret and the operator token.
 */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.statSync(dir);
  if ((stat.mode & 0o077) !== 0 && stat.uid === process.getuid?.()) fs.chmodSync(dir, 0o700);
}
