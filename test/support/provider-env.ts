/** The providers whose key the gateway reads from the environment at start. */
const PROVIDERS = ["XAI", "OPENAI", "ANTHROPIC", "MISTRAL", "GROQ", "PERPLEXITY", "GEMINI", "COHERE"] as const;

/**
 * An environment where only xAI is configured, at a fake's URL (every other provider's key unset), with
 * the mail settings of a loopback SMTP server: what a budget test's gateway needs to spend and to alert.
 */
export function xaiAndMailEnv(xai: { url: string; key: string }, smtpUrl: string): Record<string, string | undefined> {
  return {
    ...Object.fromEntries(PROVIDERS.map((name) => [`${name}_API_KEY`, undefined])),
    XAI_API_KEY: xai.key,
    UPSTREAM_XAI_URL: xai.url,
    SMTP_URL: smtpUrl,
    SMTP_HOST: undefined,
    EMAIL_FROM: "Gateway <gateway@example.test>",
  };
}
