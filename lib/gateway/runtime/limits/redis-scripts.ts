/** A Lua script and how many of its arguments are keys; `name` becomes an ioredis command. */
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
 * Checks and counts a token reservation in the key's token windows, all or none: the Lua twin of
 * decision.ts decideTokens (keep the two in step).
 * KEYS: minute bucket now, previous minute bucket, UTC day bucket.
 * ARGV: now (ms), minute limit (-1: none), day limit (-1: none), tokens, minute ms, day TTL ms.
 * Returns the counts before it and 1 when it was counted, 0 when refused.
 */
export const RESERVE_TOKENS: LuaScript = {
  name: "gwLimitReserveTokens",
  keys: 3,
  lua: `
local now = tonumber(ARGV[1])
local minuteLimit = tonumber(ARGV[2])
local dayLimit = tonumber(ARGV[3])
local tokens = tonumber(ARGV[4])
local minuteMs = tonumber(ARGV[5])
local minute = tonumber(redis.call("GET", KEYS[1]) or "0")
local previous = tonumber(redis.call("GET", KEYS[2]) or "0")
local day = tonumber(redis.call("GET", KEYS[3]) or "0")
local carried = math.floor((1 - (now % minuteMs) / minuteMs) * previous)
if (minuteLimit >= 0 and minute + carried + tokens > minuteLimit) or (dayLimit >= 0 and day + tokens > dayLimit) then
  return {minute, previous, day, 0}
end
redis.call("INCRBY", KEYS[1], tokens)
redis.call("PEXPIRE", KEYS[1], minuteMs * 2 + 1000)
redis.call("INCRBY", KEYS[3], tokens)
redis.call("PEXPIRE", KEYS[3], tonumber(ARGV[6]))
return {minute, previous, day, 1}`,
};

/**
 * Replaces a reservation with what was used: adds ARGV[1] (negative when less was used) to each bucket
 * the reservation went to that is still there, never below zero, keeping its expiry.
 */
export const SETTLE_TOKENS: LuaScript = {
  name: "gwLimitSettleTokens",
  keys: 2,
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
