import type { Browser, Cookie } from "@playwright/test";
import { startFakeOpenAICompatible, type FakeLlm } from "../test/fakes/llm.ts";
import { backendEnv } from "../test/support/backends.ts";
import { startTestSmtp, type TestSmtp } from "../test/support/mail.ts";
import { runKeysCli, startServerProcess, type ServerProcess } from "../test/support/server-process.ts";
import { signInThroughMail } from "./sign-in.ts";

/** A portal whose one language-model provider is xAI's fake, answering 1,000 prompt and 500 completion tokens a call. */
export type XaiPortal = {
  server: ServerProcess;
  xai: FakeLlm;
  smtp: TestSmtp;
  /** Makes a key for `email` with the keys CLI (`flags` added to its create) and returns it. */
  keyFor(email: string, name: string, ...flags: string[]): Promise<string>;
  /** Runs the keys CLI through the server's operator endpoint: its JSON lines. */
  cli(args: string[]): Promise<unknown[]>;
  /** Signs `email` in through the mailed link in a context of its own; the session's cookies, for each test's context. */
  sessionOf(browser: Browser, email: string): Promise<Cookie[]>;
  stop(): Promise<void>;
};

const OTHER_PROVIDERS = Object.fromEntries(
  ["OPENAI", "ANTHROPIC", "MISTRAL", "GROQ", "PERPLEXITY", "GEMINI", "COHERE"].map((n) => [`${n}_API_KEY`, ""]),
);

/** Starts the fake, a mail catcher and the gateway on an embedded database, with `env` on top. */
export async function startXaiPortal(reply: string, env: Record<string, string> = {}): Promise<XaiPortal> {
  const b = await backendEnv("pglite");
  const smtp = await startTestSmtp();
  const xai = await startFakeOpenAICompatible({
    key: "xai-test",
    reply,
    usage: { prompt_tokens: 1000, completion_tokens: 500 },
  });
  const server = await startServerProcess({
    ...b.env,
    ...OTHER_PROVIDERS,
    XAI_API_KEY: "xai-test",
    UPSTREAM_XAI_URL: xai.url,
    SMTP_URL: smtp.url,
    EMAIL_FROM: "Gateway <gateway@example.test>",
    ...env,
  });
  return {
    server,
    xai,
    smtp,
    async keyFor(email, name, ...flags) {
      const made = await runKeysCli(["create", "--name", name, "--email", email, ...flags], b.env);
      if (made.code !== 0) throw new Error(`keys create failed: ${made.stderr}`);
      return (made.lines[0] as { key: string }).key;
    },
    async cli(args) {
      const ran = await runKeysCli(args, b.env);
      if (ran.code !== 0) throw new Error(`keys ${args[0]} failed: ${ran.stderr}`);
      return ran.lines;
    },
    async sessionOf(browser, email) {
      const context = await browser.newContext();
      await signInThroughMail(await context.newPage(), server.url, smtp, email);
      const cookies = await context.cookies();
      await context.close();
      return cookies;
    },
    async stop() {
      await server.stop();
      await xai.close();
      await smtp.close();
      await b.cleanup();
    },
  };
}
