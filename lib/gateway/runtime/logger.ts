import pino, { type Logger } from "pino";

/**
 * JSON logs. Anything that could carry a key is redacted by path, and request logs are built from
 * route templates and ids, never from raw URLs (the api_key query parameter) or auth headers.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: "gateway" },
    redact: {
      paths: [
        "key",
        "apiKey",
        "headers.authorization",
        'headers["x-api-key"]',
        "req.headers.authorization",
        'req.headers["x-api-key"]',
      ],
      censor: "[redacted]",
    },
  });
}
