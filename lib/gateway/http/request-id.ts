import { randomUUID } from "node:crypto";

const MAX_LENGTH = 255;
const UNSAFE = /[^\w\-=]/;

/** The caller's own id when it is at most 255 word characters, `-` or `=`; else a fresh UUID. */
export function requestIdOf(sent: string | undefined): string {
  return sent && sent.length <= MAX_LENGTH && !UNSAFE.test(sent) ? sent : randomUUID();
}
