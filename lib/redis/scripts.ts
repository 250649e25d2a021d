/**
 * The Lua scripts of the Redis HTTP session store. Each runs atomically: a sequence number taken
 * and its event stored and announced in one step, so every process sees one order; a check and
 * the write it guards in one step, so two processes cannot both act.
 *
 * Key names a script builds from a session's base (`<prefix>:s:{<id>}`) share that session's
 * hash tag. Events are Redis stream entries with explicit ids `0-<seq>` and one field `d` (the
 * message text); each is announced on the channel named like the stream key as `<seq> <data>`,
 * and a request stream's end as `end <last seq>`.
 */
import { LuaScript } from './lua.js';

/** Append `data` to the session's standalone stream under the next number; -1 when the session is gone. */
const APPEND_STANDALONE_BODY = `
local function append0(rec, data, maxlen)
  local seq = redis.call('HINCRBY', rec, 'seq0', 1)
  local key = rec .. ':e:0'
  redis.call('XADD', key, 'MAXLEN', '~', maxlen, '0-' .. seq, 'd', data)
  local ttl = redis.call('PTTL', rec)
  if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
  redis.call('PUBLISH', key, seq .. ' ' .. data)
  return seq
end
`;

/** KEYS: record. ARGV: data, maxlen. */
export const APPEND_STANDALONE = new LuaScript(
  `${APPEND_STANDALONE_BODY}
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
return append0(KEYS[1], ARGV[1], ARGV[2])`,
);

/**
 * One message to many sessions' standalone streams. KEYS: the set of candidate session ids (all
 * sessions, or a URI's subscribers). ARGV: mode (list | uri | log), the record key prefix
 * (`<prefix>:s:{`), the mode's argument (list kind, or the message's level), data, maxlen, the
 * default log level, "1" when the log access rule must have admitted the session.
 * Members whose record is gone are removed from the set. Returns how many were written.
 */
export const FAN_OUT = new LuaScript(
  `${APPEND_STANDALONE_BODY}
local RANK = { debug = 0, info = 1, notice = 2, warning = 3, error = 4, critical = 5, alert = 6, emergency = 7 }
local mode, pre, arg, data, maxlen = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local defaultRank, requireAccess = RANK[ARGV[6]] or 0, ARGV[7] == '1'
local n = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local rec = pre .. id .. '}'
  local f = redis.call('HMGET', rec, 'tag', 'lc', 'log', 'lvl', 'la')
  local ok = false
  if f[1] == false then
    redis.call('SREM', KEYS[1], id)
  elseif mode == 'list' then
    ok = f[2] ~= false and string.find(f[2], ' ' .. arg .. ' ', 1, true) ~= nil
  elseif mode == 'uri' then
    ok = true
  elseif mode == 'log' then
    local level = defaultRank
    if f[4] ~= false then level = RANK[f[4]] or defaultRank end
    ok = f[3] == '1' and RANK[arg] >= level and (not requireAccess or f[5] == '1')
  end
  if ok then
    append0(rec, data, maxlen)
    n = n + 1
  end
end
return n`,
);

/** KEYS: record, the set of all sessions. ARGV: id, ttl (0: none), then field/value pairs. */
export const CREATE_SESSION = new LuaScript(
  `redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
if tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
redis.call('SADD', KEYS[2], ARGV[1])
return 1`,
);

/**
 * Renew a session's time to live (its record, subscriptions, streams) and read its record; nil
 * when it is gone. KEYS: record, streams set, subscriptions set, standalone stream. ARGV: ttl (0:
 * none), "1" to allocate a request stream number, "1" to mark the standalone stream opened, "1"
 * to mark it initialized, "1" for the whole record (else only what changes: lvl, init, get, seq0).
 * Returns { stream number or 0, HGETALL or the four values }.
 */
export const TOUCH_SESSION = new LuaScript(
  `if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local ttl = tonumber(ARGV[1])
if ttl > 0 then
  for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ttl) end
  for _, s in ipairs(redis.call('SMEMBERS', KEYS[2])) do
    redis.call('PEXPIRE', KEYS[1] .. ':e:' .. s, ttl)
    redis.call('PEXPIRE', KEYS[1] .. ':m:' .. s, ttl)
  end
end
local n = 0
if ARGV[2] == '1' then n = redis.call('HINCRBY', KEYS[1], 'nstream', 1) end
if ARGV[3] == '1' then redis.call('HSET', KEYS[1], 'get', '1') end
if ARGV[4] == '1' then redis.call('HSET', KEYS[1], 'init', '1') end
if ARGV[5] == '1' then return { n, redis.call('HGETALL', KEYS[1]) } end
return { n, redis.call('HMGET', KEYS[1], 'lvl', 'init', 'get', 'seq0') }`,
);

/**
 * Delete a session and everything of it. KEYS: record, streams set, subscriptions set, standalone
 * stream, the set of all sessions. ARGV: id, the subscribers key prefix (`<prefix>:subs:`).
 * Returns 1 when the session existed.
 */
export const END_SESSION = new LuaScript(
  `local existed = redis.call('EXISTS', KEYS[1])
for _, s in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  redis.call('DEL', KEYS[1] .. ':e:' .. s, KEYS[1] .. ':m:' .. s)
end
for _, uri in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  redis.call('SREM', ARGV[2] .. uri, ARGV[1])
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
redis.call('SREM', KEYS[5], ARGV[1])
return existed`,
);

/** KEYS: record, subscriptions set, the URI's subscribers set. ARGV: uri, id, max. -1 gone, -2 too many, 1 done. */
export const SUBSCRIBE = new LuaScript(
  `if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 0 and redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[3]) then return -2 end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return 1`,
);

/** KEYS: record, field. ARGV: field, value. Sets a field of a record that exists; 0 when it is gone. */
export const SET_FIELD = new LuaScript(
  `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1`,
);

/**
 * A request stream opened on a process. KEYS: record, stream meta, streams set. ARGV: owner
 * process, request ids (JSON), stream id.
 */
export const OPEN_STREAM = new LuaScript(
  `redis.call('HSET', KEYS[2], 'owner', ARGV[1], 'ids', ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
redis.call('SADD', KEYS[3], ARGV[3])
return 1`,
);

/**
 * Keep event `seq` of a request stream, unless the stream was ended for a dead owner. KEYS:
 * record, events, meta. ARGV: seq, data, maxlen. Returns 0 when refused.
 */
export const APPEND_EVENT = new LuaScript(
  `if redis.call('HEXISTS', KEYS[3], 'done') == 1 then return 0 end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], '0-' .. ARGV[1], 'd', ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
redis.call('PUBLISH', KEYS[2], ARGV[1] .. ' ' .. ARGV[2])
return 1`,
);

/** A request stream's last event is ARGV[1]. KEYS: meta, events. */
export const END_STREAM = new LuaScript(
  `if redis.call('HEXISTS', KEYS[1], 'done') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'done', ARGV[1])
redis.call('PUBLISH', KEYS[2], 'end ' .. ARGV[1])
return 1`,
);

/**
 * End a request stream whose owner died: append ARGV[2..] (error responses) after its last
 * event, which must still be ARGV[1] (else -1: look again), mark it done, announce the end.
 * KEYS: meta, events. Returns 0 when it had ended already.
 */
export const FAIL_STREAM = new LuaScript(
  `if redis.call('HEXISTS', KEYS[1], 'done') == 1 then return 0 end
local top = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
local last = 0
if #top > 0 then last = tonumber(string.match(top[1][1], '^0%-(%d+)$')) or 0 end
if last ~= tonumber(ARGV[1]) then return -1 end
local seq = last
for i = 2, #ARGV do
  seq = seq + 1
  redis.call('XADD', KEYS[2], '0-' .. seq, 'd', ARGV[i])
  redis.call('PUBLISH', KEYS[2], seq .. ' ' .. ARGV[i])
end
redis.call('HSET', KEYS[1], 'done', seq)
redis.call('PUBLISH', KEYS[2], 'end ' .. seq)
return 1`,
);
