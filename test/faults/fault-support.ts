import fs from "node:fs";
import net from "node:net";
import { createParser } from "eventsource-parser";

/** The pids of a process's children, from every thread's list (Linux). */
export function childrenOf(pid: number): string[] {
  return fs
    .readdirSync(`/proc/${pid}/task`)
    .flatMap((tid) => fs.readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").split(" "))
    .filter(Boolean);
}

export function commandLine(pid: number): string[] {
  return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
}

/**
 * Reads a server-sent event stream: `firstEvent` once one arrived, `events` (parsed JSON data lines,
 * raw text for non-JSON ones such as `[DONE]`) when the stream ends; `events` rejects when it is cut.
 */
export function readStream(res: Response): {
  firstEvent: Promise<void>;
  events: Promise<Array<Record<string, unknown>>>;
} {
  let first!: () => void;
  const firstEvent = new Promise<void>((resolve) => (first = resolve));
  const events = (async () => {
    const seen: Array<Record<string, unknown>> = [];
    const parser = createParser({
      onEvent: (e) => {
        try {
          seen.push(JSON.parse(e.data) as Record<string, unknown>);
        } catch {
          seen.push({ raw: e.data });
        }
        first();
      },
    });
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
      parser.feed(decoder.decode(chunk, { stream: true }));
    first();
    return seen;
  })();
  return { firstEvent, events };
}

/** What a fault scenario prints: what clients saw and what was lost (the suite requires nothing). */
export function report(scenario: string, figures: Record<string, unknown>): void {
  const lines = Object.entries(figures).map(([k, v]) => `  ${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`);
  console.log(`[fault] ${scenario}\n${lines.join("\n")}`);
}

/** A free loopback port (for daemons that take a port number, not 0). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** How long each fault scenario's load runs: short in `npm test`, longer in `npm run test:faults`. */
export const LOAD_MS = Number(process.env.FAULTS_LOAD_MS) || 2_000;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
