import { SMTPServer } from "smtp-server";
import { listen } from "./listen.ts";

export type CapturedMail = { to: string[]; raw: string; text: string };

export type TestSmtp = {
  url: string;
  mails: CapturedMail[];
  /** Resolves with the first mail to `to` that matches, among those from index `since` on (received or still to come). */
  waitFor(to: string, match?: RegExp, options?: { since?: number; timeoutMs?: number }): Promise<CapturedMail>;
  close(): Promise<void>;
};

// Enough of quoted-printable for test assertions: soft line breaks and =XX escapes.
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** An SMTP server on loopback that accepts every message and keeps it, for sign-in and notification tests. */
export async function startTestSmtp(): Promise<TestSmtp> {
  const mails: CapturedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (d: Buffer) => (raw += d.toString("utf8")));
      stream.on("end", () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw,
          text: decodeQuotedPrintable(raw),
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  // SMTPServer.listen is its net.Server's; closing stays SMTPServer's own, which also ends open sessions.
  const { port } = await listen(server.server);
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor(to, match = /./, { since = 0, timeoutMs = 30_000 } = {}) {
      const find = () => mails.slice(since).find((m) => m.to.includes(to.toLowerCase()) && match.test(m.text));
      return new Promise((resolve, reject) => {
        const check = () => {
          const mail = find();
          if (!mail) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no mail to ${to} matching ${match} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
