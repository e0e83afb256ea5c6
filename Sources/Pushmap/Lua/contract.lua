-- contract.lua: what a template script must return, and what templates declare of each other.
--
-- Runs once per Lua state, trusted, after the prelude and before intent.lua (which reads
-- host.rules as it loads). The host calls it with the prelude's host table; it adds:
--   register(layer, name, path, template, returnLine), which checks a script's table against the
--     contract (version 1), hands the entry to the prelude (host.enter) and returns its
--     description to the Swift host;
--   rules, the rules the declarations (base, owns, ignores) give each template, which intent.lua's
--     admit applies, and refreshRuleViews;
-- and the public pushmap.rules, read-only views of the same.
-- The contract is described in docs/script-contract.md.

local host = ...
local pushmap = pushmap
local array, object = pushmap.array, pushmap.object
local describe, sortedKeys, enter, VERSION = host.describe, host.sortedKeys, host.enter, host.version
-- Read-only views (sandbox.c): lent to this chunk alone.
local readonly = pushmap._hostreadonly
pushmap._hostreadonly = nil
local type, error, tostring, pairs, next, setmetatable, rawget, rawset = type, error, tostring, pairs, next, setmetatable, rawget, rawset
local mathtype = math.type
local match, format = string.match, string.format
local concat = table.concat

local PLATFORMS = { fcm = true, apns = true }
local PLATFORM_ORDER = { "fcm", "apns" }
-- The layer label of the scripts that ship inside pushmap ("built-in" from the Swift host).
local BUILTIN_LAYERS = { builtin = true, ["built-in"] = true }
local FIELD_TYPES = { string = true, integer = true, number = true, boolean = true, object = true, array = true }
local CONTRACT_KEYS = {
  name = true, api = true, platforms = true, fields = true, required = true, base = true, owns = true, ignores = true,
  fcm = true, apns = true, apnsHeaders = true,
}

-- Declarations ---------------------------------------------------------------------------------

-- The rules of a template that declares nothing: it decides for itself.
local NO_RULES = { refuses = {}, owners = {}, ignores = {}, ignoresInOrder = {}, refusedAtTop = {}, refusedInside = {} }

-- Template name -> what the declarations say of it (NO_RULES for any other name): the host's
-- own (host.rules, for intent.lua's admit). Refilled in place as scripts are loaded.
local rulesOf = setmetatable({}, { __index = function() return NO_RULES end, __metatable = false })
-- pushmap.rules, what scripts see: the same, as read-only views all the way down, since every
-- translation in the state shares it (a script that changed it would change how later intents
-- translate). Scripts keep a reference to it, so it too is refilled in place.
-- A read-only view of a rule table, its lists and sets each a view too.
local function ruleView(rule, ownersView)
  return readonly({
    refuses = readonly(rule.refuses), owners = ownersView, ignores = readonly(rule.ignores),
    ignoresInOrder = readonly(rule.ignoresInOrder),
  })
end
local NO_RULES_VIEW = ruleView(NO_RULES, readonly(NO_RULES.owners))
-- The views are made once the rules stop changing (host.declare, after the last script loads),
-- or at the first read before that: remade at every script loaded, they cost each state 1M
-- instructions of start-up.
local ruleViews, viewsStale = {}, false
local function refreshRuleViews()
  if not viewsStale then return end
  viewsStale = false
  local ownersView
  for name, rule in next, rulesOf do
    ownersView = ownersView or readonly(rule.owners)
    rawset(ruleViews, name, ruleView(rule, ownersView))
  end
end
setmetatable(ruleViews, {
  __index = function(_, name)
    if viewsStale then
      refreshRuleViews()
      local view = rawget(ruleViews, name)
      if view then return view end
    end
    return NO_RULES_VIEW
  end,
  __metatable = false,
})
pushmap.rules = readonly(ruleViews)

local names, loaded = {}, {} -- template names in the order first loaded, and as a set
local declaredBy = {}        -- name -> the latest script's { base, owns, ignores }, when it declares any
local builtinDeclared = {}   -- name -> the built-in script's { base, owns, ignores }

-- What a template declares: its own script's declarations, else (an override that declares
-- none of them) the built-in template's of the same name, else nothing.
local function declarationOf(name)
  return declaredBy[name] or builtinDeclared[name]
end

-- Works out pushmap.rules for every template: the fields it refuses (owned by a template it does
-- not build on, in load order) with their owners, and the set of fields it ignores.
local function computeRules()
  local owned, owners = {}, {}
  for i = 1, #names do
    local declaration = declarationOf(names[i])
    local owns = declaration and declaration.owns or {}
    for j = 1, #owns do
      if owners[owns[j]] == nil then
        owned[#owned + 1] = owns[j]
        owners[owns[j]] = names[i]
      end
    end
  end
  for name in next, rulesOf do rulesOf[name] = nil end
  for name in next, ruleViews do rawset(ruleViews, name, nil) end
  viewsStale = true
  for i = 1, #names do
    local name = names[i]
    local declaration = declarationOf(name)
    if declaration then
      -- A template accepts the fields it owns and those of the templates it builds on.
      local accepted, seen, current = {}, {}, declaration
      while current and not seen[current] do
        seen[current] = true
        local owns = current.owns or {}
        for j = 1, #owns do accepted[owns[j]] = true end
        current = current.base and declarationOf(current.base)
      end
      -- For admit, a field inside a common object (colors.timer) is kept apart and split, as the
      -- object's name then the field's: looked up in two steps, with no string work a translation.
      local refuses, refusedAtTop, refusedInside = {}, {}, {}
      for j = 1, #owned do
        local field = owned[j]
        if not accepted[field] then
          refuses[#refuses + 1] = field
          local object, inner = match(field, "^([^.]+)%.(.+)$")
          if object then
            local n = #refusedInside
            refusedInside[n + 1], refusedInside[n + 2], refusedInside[n + 3] = field, object, inner
          else
            refusedAtTop[#refusedAtTop + 1] = field
          end
        end
      end
      local ignores = {}
      local ignored = declaration.ignores or {}
      for j = 1, #ignored do ignores[ignored[j]] = true end
      rulesOf[name] = {
        refuses = refuses, owners = owners, ignores = ignores, ignoresInOrder = ignored, refusedAtTop = refusedAtTop, refusedInside = refusedInside,
      }
    end
  end
end

-- The list of field names under contract key `key`, copied, or nil when absent.
local function fieldList(broken, key, list)
  if list == nil then return nil end
  local example = key == "owns" and "{ \"carousel\" }" or key == "required" and "{ \"orderId\" }" or "{ \"buttons\" }"
  if type(list) ~= "table" then broken("'%s' must be a list of intent field names (%s = %s), got %s", key, key, example, type(list)) end
  local count = 0
  for _ in pairs(list) do count = count + 1 end
  if count ~= #list then broken("'%s' must be a list of intent field names (%s = %s), got a table that is not a list", key, key, example) end
  local copy = {}
  for i = 1, count do
    local field = list[i]
    -- owns may also name a field of a common object (the timer template's colors.timer).
    if type(field) ~= "string" or not (match(field, "^[%a_][%w_]*$") or key == "owns" and match(field, "^[%a_][%w_]*%.[%a_][%w_]*$")) then
      broken("'%s' must be a list of intent field names (%s = %s), got %s at index %d", key, key, example, describe(field), i)
    end
    copy[i] = field
  end
  return copy
end

-- Reads a script's base, owns and ignores; nil when it declares none of them. A field has one
-- owner: another template's claim on it is refused.
local function readDeclaration(broken, name, template)
  local base = template.base
  if base ~= nil and type(base) ~= "string" then
    broken("'base' must be the name of the template this one builds on, got %s", describe(base))
  end
  local owns = fieldList(broken, "owns", template.owns)
  local ignores = fieldList(broken, "ignores", template.ignores)
  if owns then
    for i = 1, #names do
      local other = names[i]
      local declaration = other ~= name and declarationOf(other)
      local theirs = declaration and declaration.owns or {}
      for j = 1, #theirs do
        for k = 1, #owns do
          if owns[k] == theirs[j] then broken("'owns': field '%s' is owned by the %s template", owns[k], other) end
        end
      end
    end
  end
  if base == nil and owns == nil and ignores == nil then return nil end
  return { base = base, owns = owns, ignores = ignores }
end

-- Register -------------------------------------------------------------------------------------

-- Checks a template table against the contract (version 1). Returns the entry to store and its
-- description, or raises "path:line: template contract: ...".
local function register(layer, name, path, template, returnLine)
  local where = tostring(path) .. (returnLine and (":" .. tostring(returnLine)) or "")
  local function broken(what, ...)
    error(where .. ": template contract: " .. format(what, ...), 0)
  end
  local file = match(tostring(path), "([^/\\]+)$") or tostring(path)

  if type(template) ~= "table" then
    broken("the script must return a table (name, api, platforms, and a mapping per platform), got %s", type(template))
  end
  local unknown = {}
  local keys = sortedKeys(template)
  for i = 1, #keys do
    if not CONTRACT_KEYS[keys[i]] then unknown[#unknown + 1] = describe(keys[i]) end
  end
  if #unknown > 0 then
    broken("unknown key%s %s (the keys are name, api, platforms, fields, required, base, owns, ignores, fcm, apns, apnsHeaders)", #unknown > 1 and "s" or "", concat(unknown, ", "))
  end

  local tname = template.name
  if tname == nil then broken("'name' is missing (expected %q, the file name without .lua)", name) end
  if type(tname) ~= "string" then broken("'name' must be a string, got %s", type(tname)) end
  if tname ~= name then broken("'name' is %q but the file is %s", tname, file) end

  local api = template.api
  if api == nil then broken("'api' is missing (the host API version the script needs: %d)", VERSION) end
  if mathtype(api) ~= "integer" then broken("'api' must be an integer, got %s", describe(api)) end
  if api < 1 then broken("'api' must be 1 or more, got %d", api) end
  if api > VERSION then broken("'api' is %d but this pushmap provides API version %d", api, VERSION) end

  local platforms = template.platforms
  local expected = "'platforms' must be a list of \"fcm\" and/or \"apns\", got "
  if type(platforms) ~= "table" then broken("%s%s", expected, type(platforms)) end
  local count = 0
  for _ in pairs(platforms) do count = count + 1 end
  if count == 0 then broken("%san empty list", expected) end
  if count ~= #platforms then broken("%sa table that is not a list", expected) end
  local listed, list = {}, {}
  for i = 1, count do
    local platform = platforms[i]
    if not PLATFORMS[platform] then broken("%s%s at index %d", expected, describe(platform), i) end
    if listed[platform] then broken("%s%q twice", expected, platform) end
    listed[platform] = true
    list[i] = platform
  end

  local entry = { name = name, path = tostring(path), layer = layer, platformList = concat(list, ", ") }
  for i = 1, #PLATFORM_ORDER do
    local platform = PLATFORM_ORDER[i]
    local mapping = template[platform]
    if listed[platform] then
      if type(mapping) ~= "function" then
        broken("'%s' must be a function(intent, ctx) returning the payload (\"%s\" is in 'platforms'), got %s", platform, platform, describe(mapping))
      end
      entry[platform] = mapping
    elseif mapping ~= nil then
      broken("'%s' is given but \"%s\" is not in 'platforms'", platform, platform)
    end
  end

  local apnsHeaders = template.apnsHeaders
  if apnsHeaders ~= nil then
    if type(apnsHeaders) ~= "function" then
      broken("'apnsHeaders' must be a function(intent, payload, ctx) returning the APNS request headers, got %s", describe(apnsHeaders))
    end
    if not listed.apns then broken("'apnsHeaders' is given but \"apns\" is not in 'platforms'") end
    entry.apnsHeaders = apnsHeaders
  end
  entry.base = template.base

  local fields = template.fields
  local described = {}
  if fields ~= nil then
    if type(fields) ~= "table" then broken("'fields' must be a table of field name = type, got %s", type(fields)) end
    local names = sortedKeys(fields)
    for i = 1, #names do
      local field = names[i]
      if type(field) ~= "string" or not match(field, "^[%a_][%w_]*$") then
        broken("'fields' must map field names to types (fields = { coupon = \"string\" }), got the key %s", describe(field))
      end
      local kind = fields[field]
      if not FIELD_TYPES[kind] then
        broken("field '%s' has the type %s, expected one of \"string\", \"integer\", \"number\", \"boolean\", \"object\", \"array\"", field, describe(kind))
      end
      described[field] = kind
    end
  end

  -- The fields an intent of this template must give: its own or common ones (the host checks
  -- that each is one of those).
  local required = fieldList(broken, "required", template.required) or {}

  local declaration = readDeclaration(broken, name, template)

  enter(entry, BUILTIN_LAYERS[layer] ~= nil)
  if not loaded[name] then
    loaded[name] = true
    names[#names + 1] = name
  end
  declaredBy[name] = declaration
  if BUILTIN_LAYERS[layer] then
    builtinDeclared[name] = declaration or {}
    declaredBy[name] = nil
  end
  computeRules()
  return {
    name = name, api = api, platforms = array(list), fields = object(described), required = array(required), base = template.base,
    ignores = array(declaration and declaration.ignores or {}), owns = array(declaration and declaration.owns or {}),
  }
end

host.register = register
host.rules = rulesOf
host.refreshRuleViews = refreshRuleViews
