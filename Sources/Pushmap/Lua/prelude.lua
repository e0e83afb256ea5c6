-- prelude.lua: the pushmap host API, written in Lua on top of the host's primitives.
--
-- Runs once per Lua state, trusted, before the globals are sealed. Before it runs, the host has
-- made the global table `pushmap` with the primitives null, array, object, isarray, isobject, json
-- and date. This chunk adds the public API that template scripts use (version, color, androidColor,
-- linktype, action, reserved, customdata, warn, error, map, builtin) and returns the host table
-- (run, record, enter...), which no script can reach. The host's modules, run after it with that
-- table, add the rest: contract.lua register and pushmap.rules; paths.lua pushmap.get and
-- pushmap.path; intent.lua the intent's admission and strict access; apns.lua the APNS request
-- headers (and pushmap.pushtype); absent.lua names what the sandbox leaves out; trace.lua adds trace.
-- Its state (the registered templates, the diagnostics of the current run) lives in locals here, not in globals: the globals are read-only once this chunk returns.
-- The contract is described in docs/script-contract.md, the API in docs/lua-api.md.

local pushmap = pushmap

local null, object, json = pushmap.null, pushmap.object, pushmap.json
local type, error, tostring, pairs, next, xpcall = type, error, tostring, pairs, next, xpcall
local tonumber, rawequal = tonumber, rawequal
local getinfo = pushmap._hostdebug.getinfo
-- The host's message handler's placing of an error on the script line it belongs to (with no
-- traceback), for callLent's protected call.
local placed = pushmap._hostdebug.place
local byte, sub, upper, match, format, find = string.byte, string.sub, string.upper, string.match, string.format, string.find
local sort, concat, unpack = table.sort, table.concat, table.unpack

local VERSION = 1
-- Whether the run is of a team's template (the host runs those with strict access).
local teamRun = false
local PLATFORMS = { fcm = true, apns = true }

-- A value in a message: strings quoted, numbers and booleans as written, other values by type.
local function describe(value)
  local kind = type(value)
  if kind == "string" then return format("%q", value) end
  if kind == "number" or kind == "boolean" then return tostring(value) end
  if value == null then return "null" end
  return kind
end

-- A key as a message quotes it: whole, or its first 200 characters and "…" (a data key of
-- 900 KB made a finding of 1.8 MB). Keys come from JSON text, so they are valid UTF-8.
local function clipped(key)
  local cut = #key > 200 and utf8.offset(key, 201)
  if cut then return sub(key, 1, cut - 1) .. "…" end
  return key
end

-- Frames ---------------------------------------------------------------------------------------

-- Whether a frame's chunk is the host's own (this file and the modules run after it, loaded as
-- "=pushmap/NAME.lua", where a script's file is "@PATH": LuaState.load).
local function ownChunk(source)
  return find(source, "=pushmap/", 1, true) == 1
end

-- "file:line" of a script's frame (getinfo's "Sl"), or false for the host's frames and C's.
local function scriptLine(info)
  if info.currentline < 1 or byte(info.source, 1) ~= 64 then return false end -- '@'
  return sub(info.source, 2) .. ":" .. info.currentline
end

-- "file:line" of the script line that called an API function, for that function's errors;
-- `level` is the API function's frame, counted from the caller of this one (1). False when the
-- script called it as a tail call (`return pushmap.builtin(...)`), which leaves no frame to point at.
local function callerLine(level)
  local api = getinfo(level + 1, "t")
  if api == nil or api.istailcall then return false end
  local info = getinfo(level + 2, "Sl")
  return info ~= nil and scriptLine(info)
end

-- Raises for a non-string argument; `level` 3 (the default) blames the caller of the API function.
local function checkString(who, what, value, level)
  if type(value) ~= "string" then
    error(format("%s: %s must be a string, got %s", who, what, type(value)), level or 3)
  end
end

pushmap.version = VERSION

-- Colours ------------------------------------------------------------------------------------

-- A service sends the same few brand colours again and again: each conversion is kept, up to
-- COLOR_MEMO_LIMIT per function, so that a repeat costs one table read instead of four library
-- calls. Only strings are ever stored; anything else goes on to `convert`, which raises for it
-- (at level 4: the script that called the kept function).
local COLOR_MEMO_LIMIT = 256

local function kept(convert)
  local memo, size = {}, 0
  return function(s)
    local known = memo[s]
    if known then return known end
    local converted = convert(s)
    if size < COLOR_MEMO_LIMIT then
      memo[s] = converted
      size = size + 1
    end
    return converted
  end
end

-- "#ff8800" -> "FF8800". No validation here: the payload checks do that.
local color = kept(function(s)
  checkString("pushmap.color", "the colour", s, 4)
  if byte(s, 1) == 35 then s = sub(s, 2) end -- '#'
  return upper(s)
end)
pushmap.color = color

-- Intent colours are RRGGBB or RRGGBBAA (alpha last); Android reads 8 digits as AARRGGBB.
pushmap.androidColor = kept(function(s)
  checkString("pushmap.androidColor", "the colour", s, 4)
  if byte(s, 1) == 35 then s = sub(s, 2) end
  s = upper(s)
  -- Only eight hex digits move: anything else goes out as given for the payload checks to report
  -- (moving bytes could cut a multi-byte character in two, which no payload can carry).
  if #s == 8 and match(s, "^%x+$") then s = sub(s, 7, 8) .. sub(s, 1, 6) end
  return s
end)

-- Links ----------------------------------------------------------------------------------------

function pushmap.linktype(uri)
  checkString("pushmap.linktype", "the uri", uri)
  -- Only whether the scheme is http or https matters, so the first six bytes decide, read as
  -- numbers in one call (ORing 32 lowers an ASCII letter): no pattern, no new string, and a uri
  -- of any length costs the same.
  local h, t1, t2, p, c5, c6 = byte(uri, 1, 6)
  if h and (h | 32) == 104 and t1 and (t1 | 32) == 116 and t2 and (t2 | 32) == 116 and p and (p | 32) == 112 then
    if c5 == 58 or (c5 and (c5 | 32) == 115 and c6 == 58) then return "WEBURL" end -- "http:", "https:"
  end
  return "DEEPLINK"
end

-- The action type of a link, button, icon or star (any table with `type` and `uri`): its own
-- type, else WEBURL or DEEPLINK from its uri, else `fallback`. The second result is true when the
-- type opens a uri the action does not give: the caller says what the phone does then.
function pushmap.action(action, fallback)
  local kind, uri = action.type, action.uri
  if kind == nil then
    if uri ~= nil then return pushmap.linktype(uri), false end
    -- A string indexes as a table would (its fields are the string library's): said here, on
    -- the one path it reaches, for a team's run alone. pushmap's own scripts pass the intent's
    -- tables, and the test (a call of type) cost their batch line about 500 instructions.
    if teamRun and type(action) ~= "table" then
      error(format("pushmap.action: the action must be a table with type and uri (a link, a button), got %s", describe(action)), 2)
    end
    return fallback, false
  end
  return kind, uri == nil and (kind == "WEBURL" or kind == "DEEPLINK")
end

-- Custom keys ----------------------------------------------------------------------------------

-- Why `key` cannot be a custom key: the SDK's namespace (adb_*) belongs to the mappings, as does
-- the APNS dictionary (aps) in an APNS payload (an FCM data map may carry an aps key: nothing
-- there writes or reads one), and FCM reserves a few keys of its own. Prefixes are tested on the
-- first byte, then by `sub`: most keys start with neither 'a' nor 'g', and no pattern runs.
local function findReserved(key, fcm)
  local first = byte(key, 1)
  if first == 97 then -- 'a'
    if sub(key, 1, 4) == "adb_" then return "collides with the keys pushmap writes (adb_*)" end
    if key == "aps" and not fcm then return "collides with the aps dictionary pushmap writes" end
  end
  if fcm then
    if key == "from" or key == "message_type" then return "is reserved by FCM" end
    if first == 103 and (sub(key, 1, 7) == "google." or sub(key, 1, 17) == "gcm.notification.") then -- 'g'
      return "is reserved by FCM"
    end
  end
  return nil
end

-- A service sends the same custom keys again and again: each verdict (false for a usable key)
-- is kept, up to VERDICT_LIMIT keys per platform, so that a repeat costs one table read.
local VERDICT_LIMIT = 256
local verdicts = { fcm = {}, apns = {} }
local verdictCounts = { fcm = 0, apns = 0 }

function pushmap.reserved(key, platform)
  local known = verdicts[platform]
  if known == nil then
    error(format("pushmap.reserved: the platform must be \"fcm\" or \"apns\", got %s", describe(platform)), 2)
  end
  local why = known[key]
  if why ~= nil then return why or nil end
  checkString("pushmap.reserved", "the key", key)
  why = findReserved(key, platform == "fcm")
  if verdictCounts[platform] < VERDICT_LIMIT then
    known[key] = why or false
    verdictCounts[platform] = verdictCounts[platform] + 1
  end
  return why
end

-- Copies the intent's custom data (`data`, a map) into `into`, with an error at $.data.KEY for
-- each key pushmap.reserved refuses, or that the mapping wrote in `into` already (Campaign
-- Classic's _mId, from campaignClassic: the forty-fifth audit, translate H1, found data's
-- replacing it). FCM data values are strings, so other JSON values go JSON-encoded. Walked with
-- `next`: the result does not depend on the order, and the refused keys are reported sorted.
local WRITTEN = "is a key the mapping writes from another field: data may not replace it"
function pushmap.customdata(data, into, platform)
  if data == nil then return end
  local reserved, fcm = pushmap.reserved, platform == "fcm"
  local bad
  for key, value in next, data do
    if reserved(key, platform) or into[key] ~= nil then
      bad = bad or {}
      bad[#bad + 1] = key
    elseif fcm and type(value) ~= "string" then
      into[key] = json(value)
    else
      into[key] = value
    end
  end
  if bad then
    sort(bad)
    for i = 1, #bad do
      local key = bad[i]
      pushmap.error(pushmap.path("$.data", key), format("data key '%s' %s", clipped(key), reserved(key, platform) or WRITTEN))
    end
  end
end

-- Diagnostics ----------------------------------------------------------------------------------

-- The findings of the current run, nil until the first: severity, path, message and platform
-- (false outside a run) of each, one after another. A flat list costs no table per finding, and
-- the host reads it without sorting any keys.
local diagnostics = nil
local diagnosticCount = 0
local runPlatform = nil         -- the platform whose payload the current run is making

local function record(severity, who, path, message)
  if type(path) ~= "string" or byte(path, 1) ~= 36 then -- '$'
    error(format("%s: the path must be a JSON path starting with '$' (like \"$.link.uri\"), got %s", who, describe(path)), 3)
  end
  checkString(who, "the message", message, 4)
  -- Text no JSON can hold: said here, at the line that called, not as the host's reading of the
  -- findings fails later (the forty-sixth audit, scripts F5). For a team's run alone: pushmap's
  -- own scripts write literals and the intent's text, and the test cost their batch line 2,500
  -- instructions (basic's iOS warning about buttons).
  if teamRun and (utf8.len(message) == nil or utf8.len(path) == nil) then
    error(format("%s: the %s is not valid UTF-8", who, utf8.len(path) == nil and "path" or "message"), 3)
  end
  local platform = runPlatform or false
  if diagnostics == nil then
    diagnostics = { severity, path, message, platform }  -- a constructor sizes it at once
  else
    local n = diagnosticCount
    diagnostics[n + 1], diagnostics[n + 2], diagnostics[n + 3], diagnostics[n + 4] = severity, path, message, platform
  end
  diagnosticCount = diagnosticCount + 4
end

-- A finding is about an intent, which only a mapping has: one made as a script loads went
-- nowhere, without a word (the twenty-sixth audit, F18).
local function outsideRun(who)
  error(format("%s is for a mapping: call it while your fcm or apns function runs, not as the script loads", who), 3)
end

function pushmap.warn(path, message)
  if runPlatform == nil then outsideRun("pushmap.warn") end
  record("warning", "pushmap.warn", path, message)
end

function pushmap.error(path, message)
  if runPlatform == nil then outsideRun("pushmap.error") end
  record("error", "pushmap.error", path, message)
end

-- Templates ------------------------------------------------------------------------------------

-- name -> { name, path, layer, fcm = function, apns = function, platforms = "fcm, apns" }
local winners = {}   -- the last registered layer of each name: what pushmap.map runs
local builtins = {}  -- the built-in layer: what pushmap.builtin runs
local active = {}    -- entries whose mapping is running, to catch a template that calls itself
local running = nil  -- the entry whose mapping is running, to name its file in errors

-- Where an error of pushmap.map or pushmap.builtin is the script's: the line that called it,
-- else (a tail call) the file of the mapping that called it, else nothing (the host's run).
-- Made only for an error: a call that goes through makes no string.
local function callerOf(caller)
  local line = callerLine(3)
  if line then return line .. ": " end
  return caller and (caller.path .. ": ") or ""
end

-- A table's keys sorted (strings and numbers in order, then by type): messages list them so.
local function sortedKeys(t)
  local keys, n = {}, 0
  for key in pairs(t) do
    n = n + 1
    keys[n] = key
  end
  sort(keys, function(a, b)
    if type(a) == type(b) and (type(a) == "string" or type(a) == "number") then return a < b end
    return type(a) < type(b)
  end)
  return keys
end

-- The intent the run hands the mappings, as `handed.intent` (run sets it). A table's field, not
-- an upvalue: a young intent written to an old closure's upvalue is aged by the collector's
-- barrier with all it holds (measured: about 10,000 instructions a batch line of collector
-- work); written to a table, only the table is looked at again.
local handed = {}

-- Whether a mapping of `entry` is running: on the stack, not just marked active by a call that
-- raised into a script's pcall, which left the mark (the twenty-sixth audit, F12: the next call
-- said the template "calls itself"). Walked only when the mark is there, which is rare.
local function onStack(entry)
  local level = 2
  while true do
    local info = getinfo(level, "f")
    if info == nil then return false end
    if info.func == entry.fcm or info.func == entry.apns then return true end
    level = level + 1
  end
end

-- While a built-in runs on a table a script built and passed as the intent (a copy it changed),
-- not the intent the run handed it: the script line that passed it (file:line, or the file for a
-- tail call), and that table. The trace puts what the built-in writes from it on that line.
local lentLine, lentIntent = nil, nil

-- The value at a finding's path ("$.link.uri", "$.buttons[0].uri") in `t`, read as a mapping
-- reads it; UNREAD for a step this does not read (a quoted key), or past a value not a table.
local UNREAD = {}
local function valueAt(t, path)
  local value, i = t, 2
  while i <= #path do
    if type(value) ~= "table" then return UNREAD end
    local key, stop = match(path, "^%.([%a_][%w_]*)()", i)
    if key == nil then
      local index
      index, stop = match(path, "^%[(%d+)%]()", i)
      if index == nil then return UNREAD end
      key = tonumber(index) + 1
    end
    value = value[key]
    i = stop
  end
  return value
end

-- The findings a built-in recorded from `from` on, run on the table `lent` that the script line
-- `line` passed as the intent: one on a value the table changed (not the intent's there) is the
-- script's. An error fails the translation at that line; a warning says which table it is about.
-- One on a value the table kept as the sender gave it stays the sender's.
local function claimFindings(from, line, lent, entry, platform, who)
  local intent = handed.intent
  for i = from + 1, diagnosticCount, 4 do
    local severity, path, message = diagnostics[i], diagnostics[i + 1], diagnostics[i + 2]
    local mine = valueAt(lent, path)
    if mine ~= UNREAD and not rawequal(mine, valueAt(intent, path)) then
      if severity == "error" then
        error(format("%s: %s: the built-in %s template's %s mapping refused the table passed as the intent: %s: %s",
          line, who, entry.name, platform, path, message), 0)
      end
      diagnostics[i + 2] = message .. " (in the table passed as the intent at " .. line .. ")"
    end
  end
end

-- The built-in's mapping on a table the script made: what fails there fails at the script's line
-- that passed the table, as the values in it are the script's (the twenty-sixth audit, F7: the
-- built-in's own line was named, in a file not in the team's folder). A protected call, on this
-- path only: the intent the run handed on never comes here.
local function callLent(entry, platform, intent, ctx, who, caller)
  -- Frames: 1 callerLine, 2 this function, 3 call, 4 the API function, 5 the script.
  local line = callerLine(3) or (caller and caller.path) or "?"
  active[entry] = true
  running = entry
  lentLine, lentIntent = line, intent
  local recorded = diagnosticCount
  local ok, payload = xpcall(entry[platform], placed, intent, ctx)
  lentLine, lentIntent = nil, nil
  running = caller
  active[entry] = nil
  if not ok then
    if type(payload) ~= "string" then error(payload, 0) end
    error(format("%s: %s: the built-in %s template's %s mapping failed on the table passed as the intent (%s)",
      line, who, entry.name, platform, payload), 0)
  end
  if diagnosticCount > recorded then claimFindings(recorded, line, intent, entry, platform, who) end
  return payload
end

-- Calls an entry's mapping for `platform`. The API function that calls it (map, builtin) is the
-- next frame up, the script that called that the one after.
local function call(entry, name, platform, intent, ctx, who, entries)
  local caller = running
  local mapping = entry and entry[platform]
  -- A mark whose mapping is not on the stack is stale: the call goes on (looked at only when
  -- the mark is there, which is rare).
  if mapping == nil or active[entry] and onStack(entry) then
    local where = callerOf(caller)
    if entry == nil then
      error(format("%s%s: no template named %s; the templates are %s", where, who, describe(name),
        concat(sortedKeys(entries), ", ")), 0)
    end
    if mapping == nil then
      if not PLATFORMS[platform] then
        error(format("%s%s: the platform must be \"fcm\" or \"apns\", got %s", where, who, describe(platform)), 0)
      end
      error(format("%s%s: template '%s' (%s) has no %s mapping (its platforms: %s)", where, who, entry.name, entry.path, platform, entry.platformList), 0)
    end
    error(format("%s%s: template '%s' calls itself; to build on the built-in template use pushmap.builtin", where, who, entry.name), 0)
  end
  -- Else the mapping fails on its first read of the intent, at a line of its own, not the caller's
  -- (or, given text, reads nothing and blames the intent's fields). The intent the run handed
  -- the mappings, which is what they pass on, is not looked at: type() on every nested call
  -- costs about 400 instructions, 0.7% of a batch line (measured).
  local lent = false
  if intent ~= handed.intent then
    if type(intent) ~= "table" then
      error(format("%s%s: pass the intent (a table) as the 3rd argument, got %s", callerOf(caller), who, describe(intent)), 0)
    end
    lent = lentLine == nil and builtins[entry.name] == entry
  end
  local payload
  if lent then
    payload = callLent(entry, platform, intent, ctx, who, caller) -- callLent counts the frames above
  else
    active[entry] = true
    running = entry
    payload = mapping(intent, ctx)
    running = caller
    active[entry] = nil
  end
  if type(payload) ~= "table" then
    error(format("%s: the %s mapping returned %s, expected a table", entry.path, platform,
      payload == nil and "nothing" or "a " .. type(payload)), 0)
  end
  return payload
end

-- The ctx a nested call gets: the caller's, or a copy naming the other platform.
local function ctxFor(who, ctx, platform)
  if type(ctx) ~= "table" then
    error(format("%s%s: pass the ctx your mapping received as the 4th argument, got %s",
      callerOf(running), who, describe(ctx)), 0)
  end
  if ctx.platform == platform or not PLATFORMS[platform] then return ctx end
  local copy = {}
  for key, value in pairs(ctx) do copy[key] = value end
  copy.platform = platform
  return copy
end

-- Not tail calls: call's errors look two frames up for the script line that called these.
-- A finding of a mapping run for the other platform is that platform's: an fcm mapping that
-- builds an apns payload gets its warnings as apns ones (the twenty-sixth audit, F22).
function pushmap.map(name, platform, intent, ctx)
  ctx = ctxFor("pushmap.map", ctx, platform)
  local outer = runPlatform
  if platform ~= outer then runPlatform = platform end
  local payload = call(winners[name], name, platform, intent, ctx, "pushmap.map", winners)
  runPlatform = outer
  return payload
end

function pushmap.builtin(name, platform, intent, ctx)
  ctx = ctxFor("pushmap.builtin", ctx, platform)
  local outer = runPlatform
  if platform ~= outer then runPlatform = platform end
  local payload = call(builtins[name], name, platform, intent, ctx, "pushmap.builtin", builtins)
  runPlatform = outer
  return payload
end

-- Host-only: run -------------------------------------------------------------------------------

-- What the host's modules add before any script loads: contract.lua the contract's check
-- (register) and the templates' rules (rules), intent.lua the intent's admission and strict
-- access (admit, guard, written, holdWritten), apns.lua the APNS request headers a template
-- without apnsHeaders gets (apnsHeaders). They report through `record`.
local host = {
  record = record, ownChunk = ownChunk, scriptLine = scriptLine, checkString = checkString,
  describe = describe, clipped = clipped, sortedKeys = sortedKeys, version = VERSION,
}

-- For the trace: the script line and table of a built-in's run on a table a script made (nil
-- outside one).
function host.lent()
  return lentLine, lentIntent
end

-- Stores a template the contract accepted: the last layer's entry is what pushmap.map runs, the
-- built-in layer's what pushmap.builtin runs.
function host.enter(entry, builtin)
  winners[entry.name] = entry
  if builtin then builtins[entry.name] = entry end
end

-- The template that writes a template's APNS request headers: itself, else the template it
-- builds on (and so on); nil when none has apnsHeaders (the host's then write them). A built-in
-- template builds on the built-in layer, as its mappings do (pushmap.builtin): a team's override
-- of its base does not write its headers, or that team's code would run in a translation the
-- host runs as pushmap's own, with no instruction count (the twenty-sixth audit, F1: a loop
-- there never ended).
local function headersOf(entry)
  local layer = entry ~= nil and builtins[entry.name] == entry and builtins or winners
  local seen = {}
  while entry ~= nil and not seen[entry] do
    if entry.apnsHeaders ~= nil then return entry end
    seen[entry] = true
    entry = entry.base and layer[entry.base]
  end
  return nil
end

-- The APNS request headers for the payload the apns mapping of `entry` wrote.
local function headersFor(entry, intent, payload, ctx)
  local owner = headersOf(entry)
  running = owner
  local headers = (owner and owner.apnsHeaders or host.apnsHeaders)(intent, payload, ctx)
  running = nil
  if type(headers) ~= "table" then
    error(format("%s: apnsHeaders returned %s, expected a table of header name = string", owner and owner.path or "pushmap",
      headers == nil and "nothing" or "a " .. type(headers)), 0)
  end
  return headers
end

-- Runs template `name` for each platform in `platforms`. Returns the diagnostics the mappings
-- recorded (the flat list above, or nil), then each platform's payload in the order asked:
-- separate results, so that a payload's nesting is counted from the payload itself. With
-- `request`, the APNS request headers follow the payloads, as one more result (an empty table
-- when apns is not among the platforms). With `strict`, the intent is read-only and reading a
-- field nothing declares is reported (intent.lua says how, and what it costs).
local function run(name, platforms, intent, now, request, strict)
  diagnostics, diagnosticCount = nil, 0
  teamRun = strict and true or false
  if next(active) ~= nil then active = {} end -- left over by a run that raised
  running = nil
  if strict == true then host.guard(intent) end
  local entry = winners[name]
  local asked = request
  -- What the templates declare of each other, applied here (intent.lua's admit).
  local admitted, notes = host.admit(intent, name, strict)
  handed.intent = admitted
  -- A constructor sizes the table for the items it lists: room for both platforms at once.
  local payloads = { false, false }
  for i = 1, #platforms do
    local platform = platforms[i]
    runPlatform = platform
    local ctx = { platform = platform, template = name, now = now, api = VERSION }
    if notes then host.note(notes, platform) end
    payloads[i] = call(entry, name, platform, admitted, ctx, "pushmap", winners)
    if request and platform == "apns" then request = headersFor(entry, admitted, payloads[i], ctx) end
  end
  runPlatform = nil
  handed.intent = nil -- not kept past the run
  if strict == true and host.written() then
    -- A mapping wrote a field the intent has, which no metamethod sees: run again with those
    -- fields held apart, so that the write raises at its line. Once: a write the second run
    -- makes again unseen (table.sort) is said without its line, not run again until the
    -- instruction count ends it (the twenty-sixth audit, F2).
    host.holdWritten()
    run(name, platforms, intent, now, asked, "again")
    error(format("%s: %s", entry.path, host.writtenMessage()), 0)
  end
  if request then
    payloads[#platforms + 1] = request == true and object({}) or request
    return diagnostics, unpack(payloads, 1, #platforms + 1)
  end
  return diagnostics, unpack(payloads, 1, #platforms)
end

host.run = run

return host
