/**
 * The Redis task store's keys and its Lua scripts: each step that touches a record and its
 * indexes runs as one script, so every process sees it whole. The task machine's rules stay in
 * TypeScript (`applyTaskEvent`): a transition is a compare-and-set on the record's version
 * (`APPLY`), retried by the store when another process changed the record first.
 *
 * Keys under the store's prefix P (`mcp-actors:` by default):
 *   P task:<id>            hash: rec (the record's JSON without seq), seq, ver, owner
 *   P task-gone:<id>       the owner, kept past the TTL: "expired" rather than "not found"
 *   P tasks:seq            creation counter (list order, cursors)
 *   P tasks:expiries       zset expiresAt → id: every task, for the TTL sweep and the total
 *   P tasks:terminal       zset seq → id: finished tasks, oldest first (evicted when full)
 *   P tasks:leases         zset deadline → id: live tasks, renewed by the process running them
 *   P tasks:owner:<sha1>   zset seq → id: an owner's tasks (tasks/list)
 *   P tasks:live:<sha1>    set: an owner's live tasks (the per-owner limit)
 *   channel P tasks        changes and input responses for every process
 *
 * One Redis (or a primary with replicas): the scripts name keys they compute, which a Redis
 * Cluster would refuse across slots.
 */
import { LuaScript } from './lua.js';

/** Every script starts with the prefix, the channel and this process's origin id in ARGV[1..3]. */
const PRELUDE = `
local P, CHANNEL, ORIGIN = ARGV[1], ARGV[2], ARGV[3]
-- Forget a task everywhere and tell every process (the machine's TTL_EXPIRED: abort, purge).
local function purge(id)
  local tkey = P .. 'task:' .. id
  local owner = redis.call('HGET', tkey, 'owner')
  if not owner then owner = redis.call('GET', P .. 'task-gone:' .. id) end
  redis.call('DEL', tkey)
  redis.call('ZREM', P .. 'tasks:expiries', id)
  redis.call('ZREM', P .. 'tasks:terminal', id)
  redis.call('ZREM', P .. 'tasks:leases', id)
  if not owner then return false end
  local h = redis.sha1hex(owner)
  redis.call('SREM', P .. 'tasks:live:' .. h, id)
  redis.call('ZREM', P .. 'tasks:owner:' .. h, id)
  redis.call('PUBLISH', CHANNEL, cjson.encode({k = 'c', o = ORIGIN, v = -1, c = {taskId = id, owner = owner, effects = {'abortExecution', 'purge'}}}))
  return owner
end
`;

/**
 * Create a task under the limits. ARGV[4..]: id, owner, rec, expiresAt, keyTtl, maxLive,
 * maxTasks, leaseDeadline, goneTtl, indexTtl. Returns {'ok', seq, evictedId, evictedOwner},
 * {'owner-limit'} or {'full'}.
 */
export const CREATE = new LuaScript(`${PRELUDE}
local id, owner, rec = ARGV[4], ARGV[5], ARGV[6]
local h = redis.sha1hex(owner)
local live = P .. 'tasks:live:' .. h
if redis.call('SCARD', live) >= tonumber(ARGV[9]) then return {'owner-limit'} end
local evicted, evictedOwner = '', ''
if redis.call('ZCARD', P .. 'tasks:expiries') >= tonumber(ARGV[10]) then
  local oldest = redis.call('ZRANGE', P .. 'tasks:terminal', 0, 0)
  if #oldest == 0 then return {'full'} end
  evicted = oldest[1]
  evictedOwner = purge(evicted) or ''
end
local seq = redis.call('INCR', P .. 'tasks:seq')
local tkey = P .. 'task:' .. id
redis.call('HSET', tkey, 'rec', rec, 'seq', seq, 'ver', 1, 'owner', owner)
redis.call('PEXPIRE', tkey, ARGV[8])
redis.call('SET', P .. 'task-gone:' .. id, owner, 'PX', ARGV[12])
redis.call('ZADD', P .. 'tasks:expiries', ARGV[7], id)
redis.call('ZADD', P .. 'tasks:leases', ARGV[11], id)
redis.call('SADD', live, id)
redis.call('PEXPIRE', live, ARGV[13])
local owned = P .. 'tasks:owner:' .. h
redis.call('ZADD', owned, seq, id)
redis.call('PEXPIRE', owned, ARGV[13])
return {'ok', seq, evicted, evictedOwner}
`);

/** Read a task. ARGV[4]: id. Returns {'t', rec, seq, owner, ver} or {'g', goneOwner or ''}. */
export const GET = new LuaScript(`${PRELUDE}
local id = ARGV[4]
local r = redis.call('HMGET', P .. 'task:' .. id, 'rec', 'seq', 'owner', 'ver')
if r[1] then return {'t', r[1], r[2], r[3], r[4]} end
return {'g', redis.call('GET', P .. 'task-gone:' .. id) or ''}
`);

/**
 * Compare-and-set a record. ARGV[4..]: id, expected ver, rec, terminal ('1' when the task just
 * became terminal), owner, seq, leaseCheckNow ('' or a time: only while the lease has run out by
 * then), message to publish. Returns 1 done, 0 gone, -1 lease renewed, -2 changed meanwhile.
 */
export const APPLY = new LuaScript(`${PRELUDE}
local id = ARGV[4]
local tkey = P .. 'task:' .. id
local ver = redis.call('HGET', tkey, 'ver')
if not ver then return 0 end
if ver ~= ARGV[5] then return -2 end
if ARGV[10] ~= '' then
  local deadline = redis.call('ZSCORE', P .. 'tasks:leases', id)
  if (not deadline) or tonumber(deadline) > tonumber(ARGV[10]) then return -1 end
end
redis.call('HSET', tkey, 'rec', ARGV[6], 'ver', tonumber(ver) + 1)
if ARGV[7] == '1' then
  redis.call('SREM', P .. 'tasks:live:' .. redis.sha1hex(ARGV[8]), id)
  redis.call('ZADD', P .. 'tasks:terminal', ARGV[9], id)
  redis.call('ZREM', P .. 'tasks:leases', id)
end
redis.call('PUBLISH', CHANNEL, ARGV[11])
return 1
`);

/** Purge one task now (an explicit TTL_EXPIRED). ARGV[4]: id. Returns its owner or false. */
export const PURGE = new LuaScript(`${PRELUDE}
return purge(ARGV[4])
`);

/** Purge every task whose TTL ran out by ARGV[4] (at most ARGV[5]). Returns {id, owner, ...}. */
export const SWEEP_EXPIRED = new LuaScript(`${PRELUDE}
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. 'tasks:expiries', '-inf', ARGV[4], 'LIMIT', 0, tonumber(ARGV[5]))) do
  local owner = purge(id)
  if owner then
    out[#out + 1] = id
    out[#out + 1] = owner
  end
end
return out
`);

/**
 * One page of an owner's tasks after seq ARGV[5] (exclusive), at most ARGV[6] ids. ARGV[4]: the
 * owner's sha1. Returns {id, seq, rec or false, ...} in creation order.
 */
export const LIST = new LuaScript(`${PRELUDE}
local ids = redis.call('ZRANGEBYSCORE', P .. 'tasks:owner:' .. ARGV[4], '(' .. ARGV[5], '+inf', 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[6]))
local out = {}
for i = 1, #ids, 2 do
  out[#out + 1] = ids[i]
  out[#out + 1] = ids[i + 1]
  out[#out + 1] = redis.call('HGET', P .. 'task:' .. ids[i], 'rec') or false
end
return out
`);
