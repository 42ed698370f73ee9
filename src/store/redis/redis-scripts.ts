// The Lua scripts of the Redis store. Redis runs a script alone, start to end, so each operation
// (seed on first touch, assign an id, check the limits, write, account) is atomic across every
// replica. Key names are built inside the scripts from a prefix: one Redis server, not a Cluster.
//
// Keys, under the prefix P (`kennel:`):
//   P seed                          the current seed
//   P bytes                         memory of the items created in every tenant (estimated)
//   P tenants                       set of tenant ids (hashes of API keys) that hold state
//   P tpl:<seed>:<path>             seeded items of a top-level collection (hash key -> JSON),
//                                   with :order (list of keys) and :next (first free integer)
//   P t:<tenant>:bytes              memory of the items created in that tenant
//   P t:<tenant>:colls              set of the tenant's collection names
//   P t:<tenant>:c:<name>:items     hash key -> JSON; :order list of keys in creation order;
//                                   :cost hash key -> bytes charged (created items only);
//                                   :next the next integer key (its presence: "seeded already");
//                                   :uuids the count of UUID keys drawn

/** Seeds a tenant's collection on first touch, exactly once across replicas; returns its key base. */
const PRELUDE = `
local P, tenant, name, path, sub = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local T = P .. 't:' .. tenant
local C = T .. ':c:' .. name
local function ensure()
  if redis.call('EXISTS', C .. ':next') == 1 then return end
  if sub == '1' then
    redis.call('SET', C .. ':next', 1)
  else
    local seed = redis.call('GET', P .. 'seed')
    if not seed then return redis.error_reply('KENNEL_NOSEED') end
    local tpl = P .. 'tpl:' .. seed .. ':' .. path
    local first = redis.call('GET', tpl .. ':next')
    if not first then return redis.error_reply('KENNEL_NOSEED') end
    redis.call('COPY', tpl, C .. ':items', 'REPLACE')
    redis.call('COPY', tpl .. ':order', C .. ':order', 'REPLACE')
    redis.call('SET', C .. ':next', first)
  end
  redis.call('SADD', T .. ':colls', name)
  redis.call('SADD', P .. 'tenants', tenant)
end
local seeding = ensure()
if seeding then return seeding end
`;

/** Charges `growth` bytes to the tenant and to every tenant, or returns why it does not fit. */
const CHARGE = `
local function charge(growth, storeBytes, totalBytes)
  local tenantUsed = tonumber(redis.call('GET', T .. ':bytes') or '0')
  if tenantUsed + growth > storeBytes then return {'full', 'store-bytes'} end
  local totalUsed = tonumber(redis.call('GET', P .. 'bytes') or '0')
  if totalUsed + growth > totalBytes then return {'full', 'total-bytes'} end
  redis.call('INCRBY', T .. ':bytes', growth)
  redis.call('INCRBY', P .. 'bytes', growth)
  return nil
end
local function bytesOf(json, adjust)
  return 4 * (#json + adjust) + 160
end
local function put(key, json, bytes)
  redis.call('HSET', C .. ':items', key, json)
  redis.call('HSET', C .. ':cost', key, bytes)
end
`;

/** ARGV[6..]: key. Returns the JSON or nil. */
export const GET_SCRIPT = `${PRELUDE}
return redis.call('HGET', C .. ':items', ARGV[6])`;

/**
 * ARGV[6..]: limit (-1: no limit), order (newest-first | oldest-first), filters as JSON
 * ([[property, value], ...], '' for none). Returns {key, json, key, json, ...}.
 */
export const LIST_SCRIPT = `${PRELUDE}
local limit, order, filters = tonumber(ARGV[6]), ARGV[7], ARGV[8]
local size = redis.call('LLEN', C .. ':order')
if limit < 0 or limit > size then limit = size end
if limit == 0 then return {} end
local out = {}
if filters == '' then
  local keys
  if order == 'newest-first' then
    keys = redis.call('LRANGE', C .. ':order', -limit, -1)
    local reversed = {}
    for index = #keys, 1, -1 do reversed[#reversed + 1] = keys[index] end
    keys = reversed
  else
    keys = redis.call('LRANGE', C .. ':order', 0, limit - 1)
  end
  -- In slices: unpack has a limit (Lua's C stack) far below a collection's capacity.
  for first = 1, #keys, 1000 do
    local last = math.min(first + 999, #keys)
    local values = redis.call('HMGET', C .. ':items', unpack(keys, first, last))
    for index = first, last do
      out[#out + 1] = keys[index]
      out[#out + 1] = values[index - first + 1]
    end
  end
  return out
end
local wanted = cjson.decode(filters)
local keys = redis.call('LRANGE', C .. ':order', 0, -1)
local from, to, step = 1, #keys, 1
if order == 'newest-first' then from, to, step = #keys, 1, -1 end
local found = 0
for index = from, to, step do
  local json = redis.call('HGET', C .. ':items', keys[index])
  local item = cjson.decode(json)
  local matches = true
  for _, filter in ipairs(wanted) do
    if item[filter[1]] ~= filter[2] then matches = false break end
  end
  if matches then
    out[#out + 1] = keys[index]
    out[#out + 1] = json
    found = found + 1
    if found >= limit then break end
  end
end
return out`;

/**
 * ARGV[6..]: sent key ('' to assign the next integer or a UUID), on-taken (conflict | replace), JSON,
 * the sentinel text standing for the key in the JSON, key kind, UTF-16 minus UTF-8 length of the
 * JSON, capacity, store bytes, total bytes. Returns {'ok', key, json} | {'taken'} | {'full', reason}.
 */
export const CREATE_SCRIPT = `${PRELUDE}${CHARGE}
local sent, onTaken, json, sentinel, kind = ARGV[6], ARGV[7], ARGV[8], ARGV[9], ARGV[10]
local adjust, capacity = tonumber(ARGV[11]), tonumber(ARGV[12])
local storeBytes, totalBytes = tonumber(ARGV[13]), tonumber(ARGV[14])
local key = sent
if sent ~= '' and redis.call('HEXISTS', C .. ':items', sent) == 1 then
  if onTaken == 'conflict' then return {'taken'} end
  local bytes = bytesOf(json, adjust)
  local old = tonumber(redis.call('HGET', C .. ':cost', sent) or '0')
  local refused = charge(bytes - old, storeBytes, totalBytes)
  if refused then return refused end
  put(sent, json, bytes)
  return {'ok', sent, json}
end
if redis.call('LLEN', C .. ':order') >= capacity then return {'full', 'items'} end
local next = tonumber(redis.call('GET', C .. ':next'))
if sent == '' then
  local literal
  if kind == 'uuid' then
    -- The same seed gives the same keys: a version-4-shaped UUID from a hash of the seed, the
    -- tenant, the collection and a counter, drawn again in the unlikely case it is taken.
    local seed = redis.call('GET', P .. 'seed') or ''
    repeat
      local count = redis.call('INCR', C .. ':uuids')
      local h = redis.sha1hex(seed .. '/' .. tenant .. '/' .. name .. '/' .. count)
      local variant = tonumber(string.sub(h, 17, 17), 16) % 4 + 1
      key = string.sub(h, 1, 8) .. '-' .. string.sub(h, 9, 12) .. '-4' .. string.sub(h, 14, 16) .. '-'
        .. string.sub('89ab', variant, variant) .. string.sub(h, 18, 20) .. '-' .. string.sub(h, 21, 32)
    until redis.call('HEXISTS', C .. ':items', key) == 0
    literal = '"' .. key .. '"'
  else
    while redis.call('HEXISTS', C .. ':items', tostring(next)) == 1 do next = next + 1 end
    key = tostring(next)
    literal = key
    if kind ~= 'integer' then literal = '"' .. key .. '"' end
  end
  local from, to = string.find(json, '"' .. sentinel .. '"', 1, true)
  if from then json = string.sub(json, 1, from - 1) .. literal .. string.sub(json, to + 1) end
end
local bytes = bytesOf(json, adjust)
local refused = charge(bytes, storeBytes, totalBytes)
if refused then return refused end
put(key, json, bytes)
redis.call('RPUSH', C .. ':order', key)
-- The sequence moves on only for the keys it gave; keys clients chose are skipped when met.
if key == tostring(next) then redis.call('SET', C .. ':next', next + 1) end
return {'ok', key, json}`;

/** ARGV[6..]: key, JSON, adjust, store bytes, total bytes. Returns {'ok', key, json} | {'gone'} | {'full', reason}. */
export const REPLACE_SCRIPT = `${PRELUDE}${CHARGE}
local key, json, adjust = ARGV[6], ARGV[7], tonumber(ARGV[8])
if redis.call('HEXISTS', C .. ':items', key) == 0 then return {'gone'} end
local bytes = bytesOf(json, adjust)
local old = tonumber(redis.call('HGET', C .. ':cost', key) or '0')
local refused = charge(bytes - old, tonumber(ARGV[9]), tonumber(ARGV[10]))
if refused then return refused end
put(key, json, bytes)
return {'ok', key, json}`;

/** ARGV[6..]: key. Returns {'ok', key, json} | {'gone'}. */
export const REMOVE_SCRIPT = `${PRELUDE}
local key = ARGV[6]
local json = redis.call('HGET', C .. ':items', key)
if not json then return {'gone'} end
local cost = tonumber(redis.call('HGET', C .. ':cost', key) or '0')
redis.call('HDEL', C .. ':items', key)
redis.call('HDEL', C .. ':cost', key)
redis.call('LREM', C .. ':order', 1, key)
redis.call('DECRBY', T .. ':bytes', cost)
redis.call('DECRBY', P .. 'bytes', cost)
return {'ok', key, json}`;

/** Forgets one tenant's keys; returns the bytes its created items took. */
const DROP_TENANT = `
local function dropTenant(P, tenant)
  local T = P .. 't:' .. tenant
  for _, name in ipairs(redis.call('SMEMBERS', T .. ':colls')) do
    local C = T .. ':c:' .. name
    redis.call('DEL', C .. ':items', C .. ':order', C .. ':cost', C .. ':next', C .. ':uuids')
  end
  local bytes = tonumber(redis.call('GET', T .. ':bytes') or '0')
  redis.call('DEL', T .. ':colls', T .. ':bytes')
  redis.call('SREM', P .. 'tenants', tenant)
  return bytes
end
`;

/** ARGV: prefix, tenant ('' for every tenant), new seed ('' to keep it). */
export const RESET_SCRIPT = `${DROP_TENANT}
local P, tenant, seed = ARGV[1], ARGV[2], ARGV[3]
if tenant ~= '' then
  redis.call('DECRBY', P .. 'bytes', dropTenant(P, tenant))
  return 1
end
for _, each in ipairs(redis.call('SMEMBERS', P .. 'tenants')) do dropTenant(P, each) end
redis.call('SET', P .. 'bytes', 0)
if seed ~= '' then redis.call('SET', P .. 'seed', seed) end
return 1`;
