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

// The level and token scripts build their counters' names from ids (`<prefix>:<kind>:<id>:<bucket>`)
// rather than take them as KEYS, and take the levels as one argument, `id|minute|day;…` (made once per
// key's level list: redis-store.ts levelSpec): encoding a script call's arguments is most of what the
// levels cost on the gateway's CPU (bench/limit-levels.ts). Every counter is on the one Redis the limits
// use, as the other scripts' are (their keys share no hash slot either).
const LEVEL_PATTERN = `"([^|;]+)|(%-?%d+)|(%-?%d+)"`;

/**
 * ADMIT with the levels above the key (decision.ts decideLevels; keep the two in step), in the same
 * round trip. KEYS: ADMIT's four. ARGV: ADMIT's seven, then the prefix, the minute bucket now, the
 * previous minute bucket and the UTC day bucket, then the levels as `id|minute limit|day limit;…` (-1:
 * not limited there). Returns the key's counts, each level's three (minute, previous minute, day), and 1
 * when counted (everywhere) or 0 (nowhere).
 */
export const ADMIT_LEVELS: LuaScript = {
  name: "gwLimitAdmitLevels",
  keys: 4,
  lua: `
local now = tonumber(ARGV[1])
local minuteMs = tonumber(ARGV[5])
local prefix, minuteBucket, previousBucket, dayBucket = ARGV[8], ARGV[9], ARGV[10], ARGV[11]
local carry = 1 - (now % minuteMs) / minuteMs
local out = {}
for i = 1, 4 do out[i] = tonumber(redis.call("GET", KEYS[i]) or "0") end
local ok = out[1] + math.floor(carry * out[2]) < tonumber(ARGV[2]) and out[3] < tonumber(ARGV[3]) and out[4] < tonumber(ARGV[4])
local counters = {}
local levels = 0
for id, minuteLimit, dayLimit in string.gmatch(ARGV[12], ${LEVEL_PATTERN}) do
  levels = levels + 1
  minuteLimit, dayLimit = tonumber(minuteLimit), tonumber(dayLimit)
  local minute = prefix .. ":minute:" .. id .. ":"
  counters[levels] = {minute .. minuteBucket, prefix .. ":day:" .. id .. ":" .. dayBucket}
  local m = tonumber(redis.call("GET", counters[levels][1]) or "0")
  local p = tonumber(redis.call("GET", minute .. previousBucket) or "0")
  local d = tonumber(redis.call("GET", counters[levels][2]) or "0")
  out[#out + 1], out[#out + 2], out[#out + 3] = m, p, d
  if (minuteLimit >= 0 and m + math.floor(carry * p) >= minuteLimit) or (dayLimit >= 0 and d >= dayLimit) then
    ok = false
  end
end
if not ok then
  out[#out + 1] = 0
  return out
end
local dayTtl = tonumber(ARGV[6])
counters[0] = {KEYS[1], KEYS[3]}
for l = 0, levels do
  redis.call("INCR", counters[l][1])
  redis.call("PEXPIRE", counters[l][1], minuteMs * 2 + 1000)
  redis.call("INCR", counters[l][2])
  redis.call("PEXPIRE", counters[l][2], dayTtl)
end
redis.call("INCR", KEYS[4])
redis.call("EXPIRE", KEYS[4], tonumber(ARGV[7]))
out[#out + 1] = 1
return out`,
};

/**
 * Checks and counts a token reservation in each subject's token windows (the key's, its levels'), all or
 * none: the Lua twin of decision.ts decideTokens (keep the two in step).
 * ARGV: now (ms), tokens, minute ms, day TTL ms, the prefix, the minute bucket now, the previous minute
 * bucket and the UTC day bucket, then the subjects as `id|minute limit|day limit;…` (-1: none).
 * Returns every subject's counts before it (minute, previous minute, day), then 1 when it was counted,
 * 0 when refused.
 */
export const RESERVE_TOKENS: LuaScript = {
  name: "gwLimitReserveTokens",
  keys: 0,
  lua: `
local now = tonumber(ARGV[1])
local tokens = tonumber(ARGV[2])
local minuteMs = tonumber(ARGV[3])
local prefix, minuteBucket, previousBucket, dayBucket = ARGV[5], ARGV[6], ARGV[7], ARGV[8]
local carry = 1 - (now % minuteMs) / minuteMs
local out = {}
local counters = {}
local ok = true
local subjects = 0
for id, minuteLimit, dayLimit in string.gmatch(ARGV[9], ${LEVEL_PATTERN}) do
  subjects = subjects + 1
  minuteLimit, dayLimit = tonumber(minuteLimit), tonumber(dayLimit)
  local minute = prefix .. ":tokens-minute:" .. id .. ":"
  counters[subjects] = {minute .. minuteBucket, prefix .. ":tokens-day:" .. id .. ":" .. dayBucket}
  local m = tonumber(redis.call("GET", counters[subjects][1]) or "0")
  local p = tonumber(redis.call("GET", minute .. previousBucket) or "0")
  local d = tonumber(redis.call("GET", counters[subjects][2]) or "0")
  out[#out + 1], out[#out + 2], out[#out + 3] = m, p, d
  if (minuteLimit >= 0 and m + math.floor(carry * p) + tokens > minuteLimit) or (dayLimit >= 0 and d + tokens > dayLimit) then
    ok = false
  end
end
if not ok then
  out[#out + 1] = 0
  return out
end
for s = 1, subjects do
  redis.call("INCRBY", counters[s][1], tokens)
  redis.call("PEXPIRE", counters[s][1], minuteMs * 2 + 1000)
  redis.call("INCRBY", counters[s][2], tokens)
  redis.call("PEXPIRE", counters[s][2], tonumber(ARGV[4]))
end
out[#out + 1] = 1
return out`,
};

/**
 * Replaces a reservation with what was used: adds the delta (negative when less was used) to each token
 * bucket the reservation went to that is still there, never below zero, keeping its expiry.
 * ARGV: the delta, the prefix, the minute bucket and the UTC day bucket it was counted in, then the
 * subjects as RESERVE_TOKENS took them.
 */
export const SETTLE_TOKENS: LuaScript = {
  name: "gwLimitSettleTokens",
  keys: 0,
  lua: `
local delta = tonumber(ARGV[1])
local prefix, minuteBucket, dayBucket = ARGV[2], ARGV[3], ARGV[4]
for id in string.gmatch(ARGV[5], ${LEVEL_PATTERN}) do
  for _, key in ipairs({prefix .. ":tokens-minute:" .. id .. ":" .. minuteBucket, prefix .. ":tokens-day:" .. id .. ":" .. dayBucket}) do
    local n = redis.call("GET", key)
    if n then
      local left = tonumber(n) + delta
      if left < 0 then left = 0 end
      redis.call("SET", key, left, "KEEPTTL")
    end
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
