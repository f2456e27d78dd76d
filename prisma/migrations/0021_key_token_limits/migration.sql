-- A key's model tokens (prompt and completion) per minute and per UTC day: reserved when a model call is
-- admitted (its prompt's estimated size and its maximum output), settled with what it used. Null: no
-- token limit, as before.
ALTER TABLE "api_keys" ADD COLUMN "token_minute_limit" INTEGER;
ALTER TABLE "api_keys" ADD COLUMN "token_day_limit" INTEGER;
