/**
 * A Lua script and how many of its arguments are keys (-1: as many as the call gives); `name` becomes an
 * ioredis command.
 */
export type LuaScript = { name: string; keys: number; lua: string };

/**
 * Checks and counts one request in a single round trip, all or nothing.
 * KEYS: minute bucket now, previous minute bucket, UTC day bucket, concurrency slots.
 * ARGV: now (ms), minute limit, day limit, concurrency limit, minute ms, day TTL ms, slot TTL s.
 * Returns the counts before the request and 1 when it was counted: the caller's decide() turns
 * them into the same answer, so this must refuse exactly when decide() does.
 */
export const ADMIT: LuaScript = {
  name: "gwLimitAdmit",
  keys: 4,
  lua: `
local now = tonumber(ARGV[1])
local minuteMs = tonumber(ARGV[5])
local minute = tonumber(redis.call("GET", KEYS[1]) or "0")
local previous = tonumber(redis.call("GET", KEYS[2]) or "0")
local day = tonumber(redis.call("GET", KEYS[3]) or "0")
local inUse = tonumber(redis.call("GET", KEYS[4]) or "0")
local carried = math.floor((1 - (now % minuteMs) / minuteMs) * previous)
if minute + carried >= tonumber(ARGV[2]) or day >= tonumber(ARGV[3]) or inUse >= tonumber(ARGV[4]) then
  return {minute, previous, day, inUse, 0}
end
redis.call("INCR", KEYS[1])
redis.call("PEXPIRE", KEYS[1], minuteMs * 2 + 1000)
redis.call("INCR", KEYS[3])
redis.call("PEXPIRE", KEYS[3], tonumber(ARGV[6]))
redis.call("INCR", KEYS[4])
redis.call("EXPIRE", KEYS[4], tonumber(ARGV[7]))
return {minute, previous, day, inUse, 1}`,
};

/** Gives a concurrency slot back; never below zero, so a second release of one slot is harmless. */
export const RELEASE: LuaScript = {
  name: "gwLimitRelease",
  keys: 1,
  lua: `
local n = tonumber(redis.call("GET", KEYS[1]) or "0")
if n <= 1 then
  redis.call("DEL", KEYS[1])
  return 0
end
return redis.call("DECR", KEYS[1])`,
};

/**
 * Takes one request back out of a minute bucket (a response-cache hit, when the operator frees hits of
 * the minute limit); never below zero.
 */
export const FORGIVE: LuaScript = {
  name: "gwLimitForgive",
  keys: 1,
  lua: `
local n = tonumber(redis.call("GET", KEYS[1]) or "0")
if n <= 0 then return 0 end
return redis.call("DECR", KEYS[1])`,
};

/**
 * ADMIT with the levels above the key (decision.ts decideLevels; keep the two in step), in the same
 * round trip: the key's four keys as ADMIT's, then per level its minute bucket now, previous minute
 * bucket and UTC day bucket.
 * ARGV: ADMIT's seven, then per level its minute limit and day limit (-1: not limited there).
 * Returns the key's counts, each level's three, and 1 when counted (everywhere) or 0 (nowhere).
 */
export const ADMIT_LEVELS: LuaScript = {
  name: "gwLimitAdmitLevels",
  keys: -1,
  lua: `
local now = tonumber(ARGV[1])
local minuteMs = tonumber(ARGV[5])
local carry = 1 - (now % minuteMs) / minuteMs
local out = {}
for i = 1, #KEYS do out[i] = tonumber(redis.call("GET", KEYS[i]) or "0") end
local ok = out[1] + math.floor(carry * out[2]) < tonumber(ARGV[2]) and out[3] < tonumber(ARGV[3]) and out[4] < tonumber(ARGV[4])
local levels = (#KEYS - 4) / 3
for l = 1, levels do
  if not ok then break end
  local k = 4 + (l - 1) * 3
  local minuteLimit = tonumber(ARGV[7 + (l - 1) * 2 + 1])
  local dayLimit = tonumber(ARGV[7 + (l - 1) * 2 + 2])
  if (minuteLimit >= 0 and out[k + 1] + math.floor(carry * out[k + 2]) >= minuteLimit) or (dayLimit >= 0 and out[k + 3] >= dayLimit) then
    ok = false
  end
end
if not ok then
  out[#KEYS + 1] = 0
  return out
end
local dayTtl = tonumber(ARGV[6])
for l = 0, levels do
  local k = l == 0 and 0 or 4 + (l - 1) * 3
  local d = l == 0 and 3 or k + 3
  redis.call("INCR", KEYS[k + 1])
  redis.call("PEXPIRE", KEYS[k + 1], minuteMs * 2 + 1000)
  redis.call("INCR", KEYS[d])
  redis.call("PEXPIRE", KEYS[d], dayTtl)
end
redis.call("INCR", KEYS[4])
redis.call("EXPIRE", KEYS[4], tonumber(ARGV[7]))
out[#KEYS + 1] = 1
return out`,
};

/**
 * Checks and counts a token reservation in each subject's token windows (the key's, its levels'), all or
 * none: the Lua twin of decision.ts decideTokens (keep the two in step).
 * KEYS: per subject its minute bucket now, previous minute bucket and UTC day bucket.
 * ARGV: now (ms), tokens, minute ms, day TTL ms, then per subject its minute limit and day limit (-1: none).
 * Returns every subject's counts before it, then 1 when it was counted, 0 when refused.
 */
export const RESERVE_TOKENS: LuaScript = {
  name: "gwLimitReserveTokens",
  keys: -1,
  lua: `
local now = tonumber(ARGV[1])
local tokens = tonumber(ARGV[2])
local minuteMs = tonumber(ARGV[3])
local carry = 1 - (now % minuteMs) / minuteMs
local out = {}
for i = 1, #KEYS do out[i] = tonumber(redis.call("GET", KEYS[i]) or "0") end
local subjects = #KEYS / 3
for s = 0, subjects - 1 do
  local minuteLimit = tonumber(ARGV[5 + s * 2])
  local dayLimit = tonumber(ARGV[6 + s * 2])
  if (minuteLimit >= 0 and out[s * 3 + 1] + math.floor(carry * out[s * 3 + 2]) + tokens > minuteLimit) or (dayLimit >= 0 and out[s * 3 + 3] + tokens > dayLimit) then
    out[#KEYS + 1] = 0
    return out
  end
end
for s = 0, subjects - 1 do
  redis.call("INCRBY", KEYS[s * 3 + 1], tokens)
  redis.call("PEXPIRE", KEYS[s * 3 + 1], minuteMs * 2 + 1000)
  redis.call("INCRBY", KEYS[s * 3 + 3], tokens)
  redis.call("PEXPIRE", KEYS[s * 3 + 3], tonumber(ARGV[4]))
end
out[#KEYS + 1] = 1
return out`,
};

/**
 * Replaces a reservation with what was used: adds ARGV[1] (negative when less was used) to each bucket
 * the reservation went to that is still there, never below zero, keeping its expiry.
 */
export const SETTLE_TOKENS: LuaScript = {
  name: "gwLimitSettleTokens",
  keys: -1,
  lua: `
local delta = tonumber(ARGV[1])
for _, key in ipairs(KEYS) do
  local n = redis.call("GET", key)
  if n then
    local left = tonumber(n) + delta
    if left < 0 then left = 0 end
    redis.call("SET", key, left, "KEEPTTL")
  end
end
return 1`,
};

/** Reads counters without touching them (a missing key reads as 0). */
export const PEEK: LuaScript = {
  name: "gwLimitPeek",
  keys: 2,
  lua: `
return {tonumber(redis.call("GET", KEYS[1]) or "0"), tonumber(redis.call("GET", KEYS[2]) or "0")}`,
};
