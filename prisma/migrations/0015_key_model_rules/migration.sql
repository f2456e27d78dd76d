-- Per-key model rules: the aliases or provider/model patterns a key may call (allow) or never (deny).
-- Empty lists, the default, leave every model open as before.
ALTER TABLE "api_keys" ADD COLUMN "model_allow" TEXT[] DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "api_keys" ADD COLUMN "model_deny" TEXT[] DEFAULT ARRAY[]::TEXT[];
