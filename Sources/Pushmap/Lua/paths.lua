-- paths.lua: pushmap.get, which reads a value by a dotted path, and pushmap.path, which writes
-- a JSON path as every path pushmap prints.
--
-- Runs once per Lua state, trusted, after the prelude and before the globals are sealed, with the
-- prelude's host table.

local host = ...
local pushmap = pushmap
local checkString, null, json = host.checkString, pushmap.null, pushmap.json
local type, error, tonumber = type, error, tonumber
local mathtype, tointeger = math.type, math.tointeger
local byte, match, format, find = string.byte, string.match, string.format, string.find

-- Parsed paths by text: scripts use a handful of constant paths, so parse each once.
local pathCache, pathCacheSize = {}, 0
local PATH_CACHE_LIMIT = 512

local function badPath(path, why)
  error(format("pushmap.get: bad path %q: %s", path, why), 4)
end

-- "a.b[2].c" -> { "a", "b", 2, "c" }
local function parsePath(path)
  local steps = pathCache[path]
  if steps then return steps end
  steps = {}
  local n, pos, len = 0, 1, #path
  while pos <= len do
    if byte(path, pos) == 91 then -- '['
      local digits, after = match(path, "^%[(%d+)%]()", pos)
      if not digits then badPath(path, "expected [n] with n a whole number") end
      local index = tointeger(tonumber(digits))
      if index == nil or index < 1 then badPath(path, "indexes are 1-based ([1] is the first item)") end
      n = n + 1
      steps[n] = index
      pos = after
    else
      if n > 0 then
        if byte(path, pos) ~= 46 then badPath(path, "expected '.' or '[' after a step") end -- '.'
        pos = pos + 1
      end
      local key, after = match(path, "^([^%.%[%]]+)()", pos)
      if not key then badPath(path, "expected a field name") end
      n = n + 1
      steps[n] = key
      pos = after
    end
  end
  if n == 0 then badPath(path, "the path is empty") end
  if pathCacheSize < PATH_CACHE_LIMIT then
    pathCache[path] = steps
    pathCacheSize = pathCacheSize + 1
  end
  return steps
end

-- The value at a dotted path with 1-based [n] indexes, or `default` when a step is missing, is
-- not a table, or is JSON null.
function pushmap.get(t, path, default)
  checkString("pushmap.get", "the path", path)
  local steps = parsePath(path)
  local value = t
  for i = 1, #steps do
    if type(value) ~= "table" then return default end
    value = value[steps[i]]
    if value == nil or value == null then return default end
  end
  return value
end

-- The JSON path one step below `base`, in the form of every path pushmap prints: a key that is
-- an identifier after a dot ($.data.campaign), any other key JSON-quoted in brackets
-- ($.data["deep.key"]), an index in brackets ($.buttons[0], 0-based as JSON paths are). The
-- quoting is the host's JSON encoder's, so a script's paths read as the checks' own.
function pushmap.path(base, step)
  checkString("pushmap.path", "the base path", base)
  -- An index is 0 or more, written as an integer (2.0 is one, as Lua's math.tointeger says); a
  -- key JSON can hold (the forty-sixth audit, scripts F10).
  if type(step) == "number" then
    local index = tointeger(step)
    if index == nil then error(format("pushmap.path: an index is a whole number, got %s", tostring(step)), 2) end
    if index < 0 then error(format("pushmap.path: an index is 0 or more (JSON paths count from 0), got %d", index), 2) end
    return base .. "[" .. index .. "]"
  end
  checkString("pushmap.path", "the step (a key, or an integer index)", step)
  if utf8.len(step) == nil then error("pushmap.path: the key is not valid UTF-8", 2) end
  -- Two patterns without repetition, so a key of any length passes the pattern guard.
  if find(step, "^[%a_]") and not find(step, "[^%w_]") then return base .. "." .. step end
  return base .. "[" .. json(step) .. "]"
end
