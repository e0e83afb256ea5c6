-- trace.lua: which line of which script wrote each key of a translation's payloads.
--
-- Runs once per Lua state, trusted, after the prelude and before the globals are sealed. The host
-- calls this chunk with the prelude's host table; it takes the three debug functions the host lends
-- it in `pushmap._hostdebug` (removing them, so no script can reach them) and returns `trace`,
-- which no script can reach either. The host calls `trace` only for a run whose payload failed a
-- check, running the same intent again (with the APNS request headers when the run wrote them):
-- never on the way of a run that passes.
--
-- A line hook compares, at every line, the tables the scripts' frames can reach with what they
-- held at the line before, and puts each change down to the line that ran in between; a return
-- hook does the same for what a function returns, and hands the blame back to the line that
-- called it. See "Inside the prelude" in docs/script-contract.md.

local host = ...
local run, ownChunk, scriptLine, lent = host.run, host.ownChunk, host.scriptLine, host.lent
local pushmap = pushmap
local hostdebug = pushmap._hostdebug
pushmap._hostdebug = nil

local sethook, getinfo, getlocal = hostdebug.sethook, hostdebug.getinfo, hostdebug.getlocal
local type, error, next, rawequal, rawget, getmetatable = type, error, next, rawequal, rawget, getmetatable
local mathtype = math.type
local format = string.format
local array, path = pushmap.array, pushmap.path

-- The hook's work: entries and locals read, and events seen.
local TRACE_BUDGET = 2000000

local function trace(name, platforms, intent, now, request)
  -- The intent's tables are never payload tables; its values, by identity for tables and by
  -- value for strings and numbers, give the intent path a payload value came from unchanged.
  local intentTables, origins = {}, {}
  local function learn(t, at)
    intentTables[t] = true
    for key, value in next, t do
      local step = mathtype(key) == "integer" and key - 1 or key
      local where = (type(step) == "string" or mathtype(step) == "integer") and path(at, step)
      local kind = type(value)
      -- The template's name picks the script and reaches no payload: a value equal to it is
      -- the script's own (the twenty-sixth audit, F9: a field it wrote was put on $.template).
      if at == "$" and key == "template" then where = false end
      if where and (kind == "string" or kind == "number" or kind == "table") and origins[value] == nil then
        origins[value] = where
      end
      -- A whole number also as the text the built-ins write it as (format("%d")), marked "=":
      -- converted as an FCM data value must be, what it says is still the sender's (the
      -- twenty-sixth audit, F14: an exported timer.lua made a past endsAt its own failure).
      if where and mathtype(value) == "integer" then
        local text = format("%d", value)
        if origins[text] == nil then origins[text] = "=" .. where end
      end
      if kind == "table" and not intentTables[value] then learn(value, where or at) end
    end
  end
  if type(intent) == "table" then learn(intent, "$") end

  local seen, writers = {}, {} -- table -> its entries at the last look; table -> key -> "file:line"
  local made = {}              -- table -> the line running when it was first seen
  local visited = {}
  -- The hook's work is bounded (by the entries and locals it reads, and the lines it sees): a
  -- script that builds a large table line by line, or behaves differently the second time,
  -- ends the trace, and the failure is reported as the checks found it.
  local budget = TRACE_BUDGET
  local function spend(units)
    budget = budget - units
    if budget < 0 then error("trace budget spent", 0) end
  end
  local function look(t, writer)
    if intentTables[t] or visited[t] then return end
    visited[t] = true
    local before, wrote = seen[t], writers[t]
    if before == nil then
      before = {}
      seen[t] = before
      made[t] = writer
    end
    for key, value in next, t do
      spend(1)
      local was = before[key]
      -- NaN is no value's equal, not even its own: it changed when it was first written.
      if not rawequal(was, value) and (value == value or was == was) then
        before[key] = value
        if writer then
          if wrote == nil then
            wrote = {}
            writers[t] = wrote
          end
          wrote[key] = writer
        end
      end
      if type(value) == "table" then look(value, writer) end
    end
    -- A key taken out is written too (`aps["mutable-content"] = nil`): a finding on its absence
    -- belongs to the line that removed it.
    for key in next, before do
      spend(1)
      if rawget(t, key) == nil then
        before[key] = nil
        if writer then
          wrote = wrote or {}
          writers[t] = wrote
          wrote[key] = writer
        end
      end
    end
  end
  -- Every table the frames of the scripts (not the prelude's) hold, from `level` down.
  local function lookAround(level, writer)
    visited = {}
    while true do
      local info = getinfo(level, "S")
      if info == nil then break end
      -- The host's own frames hold no payload of a script's.
      if not ownChunk(info.source) then
        local i = 1
        while true do
          local named, value = getlocal(level, i)
          if named == nil then break end
          spend(1)
          if type(value) == "table" then look(value, writer) end
          i = i + 1
        end
      end
      level = level + 1
    end
  end

  -- A built-in run on a table a script passed as the intent (prelude.lua's callLent): its writes
  -- are marked "!" with the script's line, and the paths where that table differs from the
  -- intent are listed, so that a finding on a value the script changed is the script's, and one
  -- on a value the sender gave stays the sender's (the twenty-sixth audit, F7).
  local lentPaths, lentSeen, ln = {}, {}, 0
  -- Whether `mine`, lacking `key` itself, reads the intent's value there through a table
  -- __index: a copy made as setmetatable({ title = "X" }, { __index = intent }) changes its own
  -- keys only. Followed raw, a few tables deep, so that no code of the script's runs here.
  local function inherits(mine, key, was)
    local t = mine
    for _ = 1, 8 do
      local meta = getmetatable(t)
      local up = type(meta) == "table" and rawget(meta, "__index")
      if type(up) ~= "table" then return false end
      local value = rawget(up, key)
      if value ~= nil then return rawequal(value, was) end
      t = up
    end
    return false
  end
  local function differ(mine, theirs, at, line)
    for key, value in next, mine do
      spend(1)
      local step = mathtype(key) == "integer" and key - 1 or key
      if type(step) == "string" or mathtype(step) == "integer" then
        local where = path(at, step)
        local was = type(theirs) == "table" and rawget(theirs, key) or nil
        if type(value) == "table" and type(was) == "table" then
          if not rawequal(value, was) then differ(value, was, where, line) end
        elseif not rawequal(value, was) then
          lentPaths[ln + 1], lentPaths[ln + 2] = where, line
          ln = ln + 2
        end
      end
    end
    if type(theirs) ~= "table" then return end
    for key in next, theirs do
      spend(1)
      local step = mathtype(key) == "integer" and key - 1 or key
      if rawget(mine, key) == nil and (type(step) == "string" or mathtype(step) == "integer")
        and not inherits(mine, key, rawget(theirs, key)) then
        lentPaths[ln + 1], lentPaths[ln + 2] = path(at, step), line
        ln = ln + 2
      end
    end
  end
  local function lentWriter()
    local line, table = lent()
    if line == nil then return nil end
    if not lentSeen[table] then
      lentSeen[table] = true
      differ(table, intent, "$", line)
    end
    return "!" .. line
  end

  local writer = false -- the line running since the last event
  sethook(function(event)
    spend(1)
    if event == "line" then
      lookAround(3, writer)
      writer = lentWriter() or scriptLine(getinfo(2, "Sl"))
    else -- a return: what the function returns was written by its last line
      local info = getinfo(2, "Slr")
      local own = lentWriter() or scriptLine(info) or writer
      lookAround(3, own)
      visited = {}
      for i = info.ftransfer, info.ftransfer + info.ntransfer - 1 do
        local _, value = getlocal(2, i)
        if type(value) == "table" then look(value, own) end
      end
      local caller = getinfo(3, "Sl")
      writer = lentWriter() or caller and scriptLine(caller) or writer
    end
  end, "lr")
  local results = { run(name, platforms, intent, now, request) }
  sethook()

  -- Each payload's keys, by path: platform, path, the line that wrote it, the intent path its
  -- value came from unchanged (false for none; true for a key the line took out), four items a key. The request headers follow
  -- as the part "headers", their paths in the headers object (`$["apns-priority"]`). A writer
  -- "!file:line" is a built-in's line run on the table that script line passed as the intent.
  local out, n = {}, 0
  visited = {}
  local function list(t, at, platform)
    if visited[t] then return end
    visited[t] = true
    local wrote = writers[t] or {}
    for key, value in next, t do
      local step = mathtype(key) == "integer" and key - 1 or key
      if type(step) == "string" or mathtype(step) == "integer" then
        local where = path(at, step)
        out[n + 1], out[n + 2], out[n + 3], out[n + 4] = platform, where, wrote[key] or false, origins[value] or false
        n = n + 4
        if type(value) == "table" then list(value, where, platform) end
      end
    end
    -- The keys a line took out, where a finding on their absence lands.
    for key, line in next, wrote do
      local step = mathtype(key) == "integer" and key - 1 or key
      if rawget(t, key) == nil and (type(step) == "string" or mathtype(step) == "integer") then
        out[n + 1], out[n + 2], out[n + 3], out[n + 4] = platform, path(at, step), line, true
        n = n + 4
      end
    end
  end
  for i = 1, #platforms + (request and 1 or 0) do
    if type(results[i + 1]) == "table" then list(results[i + 1], "$", platforms[i] or "headers") end
  end
  -- The headers object itself, with the line that made it: a header it lacks is that line's (the
  -- thirty-second audit, F6). A payload's root has no such row: its shape is its mapping's.
  local headers = request and results[#platforms + 2]
  if type(headers) == "table" then
    out[n + 1], out[n + 2], out[n + 3], out[n + 4] = "headers", "$", made[headers] or false, false
    n = n + 4
  end
  -- The part "lent": each path where a table passed as the intent differs, and the line.
  for i = 1, ln, 2 do
    out[n + 1], out[n + 2], out[n + 3], out[n + 4] = "lent", lentPaths[i], lentPaths[i + 1], false
    n = n + 4
  end
  return array(out)
end

return trace
