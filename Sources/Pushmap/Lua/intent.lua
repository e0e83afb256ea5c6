-- intent.lua: what the host does with the intent before and while a template reads it.
--
-- Runs once per Lua state, trusted, after the prelude and before the globals are sealed (and
-- before trace.lua takes the debug functions the host lends). The host calls this chunk with the
-- prelude's host table; it adds:
--   admit(intent, name, platform, strict)  before each platform's mapping: the warnings for the
--     fields the template being run leaves out (another template's fields, the fields it
--     `ignores`, and for plain the fields only push templates read), and the intent the mapping
--     gets, without the fields it ignores;
--   declare(spec)  the intent's declared fields, every template's and team contract's (the Swift
--     host sends them once the scripts are loaded);
--   guard(intent), written(), holdWritten(), writtenMessage()  strict access (below).

local host = ...
local pushmap = pushmap
local record, rules, path, scriptLine = host.record, host.rules, pushmap.path, host.scriptLine
local getinfo = pushmap._hostdebug.getinfo
-- The guard's walks, in C (values.c): lent to this chunk alone.
local walks = pushmap._hostintent
pushmap._hostintent = nil
local format, byte, sub, create = string.format, string.byte, string.sub, table.create
local type, next, rawget, rawequal, rawlen, setmetatable, getmetatable = type, next, rawget, rawequal, rawlen, setmetatable, getmetatable
-- The sandbox's rawset refuses the guarded tables (seal, below); this chunk writes them itself.
local rawset = walks.rawset
local mathtype = math.type

-- Admission ------------------------------------------------------------------------------------

-- Fields only push templates read: a plain notification (no adb_template_type) leaves them out,
-- by platform; on Android also these fields of `android`.
local TEMPLATE_ONLY = {
  -- The messaging SDK reads only the generic keys.
  fcm = { "version", "expandedBody", "colors" },
  -- Only the template extension (category AEPNotification) reads these.
  apns = { "version", "expandedTitle", "expandedBody", "colors" },
}
local TEMPLATE_ONLY_ANDROID = { "smallIcon", "largeIcon", "tag", "sticky", "ticker" }
local PHONE = { fcm = "Android", apns = "iOS" }

local guardCopy -- strict access's, below: guards an admitted copy of the intent

-- Adds a warning for `platform` (false: every one) to `notes`, made when nil; returns it.
local function note(notes, platform, at, message)
  -- The first note by a constructor, which sizes the list at once (see record in prelude.lua).
  if notes == nil then return { platform, at, message } end
  local n = #notes
  notes[n + 1], notes[n + 2], notes[n + 3] = platform, at, message
  return notes
end

-- Whether `notes` has a warning at `path`.
local function noted(notes, path)
  if notes == nil then return false end
  for i = 2, #notes, 3 do
    if notes[i] == path then return true end
  end
  return false
end

-- What the host does before the mappings of template `name` run, once a translation: returns the
-- intent the mappings get (without the fields the template ignores) and the warnings to record
-- before each platform's mapping, a flat list of platform (false for every one), path and message
-- (nil: none). Warned about: for plain, the fields only push templates read; a field another
-- template owns, which is not read (as the phone ignores a key it does not read, a warning); and
-- the fields the template declares it ignores.
function host.admit(intent, name, strict)
  local notes
  if name == "plain" then
    for platform, fields in next, TEMPLATE_ONLY do
      local onlyOn = "' is ignored by plain notifications on " .. PHONE[platform] .. " (only push templates read it)"
      -- Campaign Classic's extension draws a payload with no template type as basic, but plain
      -- writes only the generic keys (the forty-fifth audit, translate L6).
      if platform == "fcm" and intent.campaignClassic ~= nil then
        onlyOn = "' is not written by plain, which writes only the generic keys: for Campaign Classic, which draws it as basic, give template \"basic\""
      end
      for i = 1, #fields do
        -- Campaign Classic reads a plain payload's adb_version, which plain writes for it.
        if intent[fields[i]] ~= nil and not (fields[i] == "version" and platform == "fcm" and intent.campaignClassic ~= nil) then
          notes = note(notes, platform, "$." .. fields[i], "'" .. fields[i] .. onlyOn)
        end
      end
      local android = intent.android
      if android ~= nil and platform == "fcm" then
        for i = 1, #TEMPLATE_ONLY_ANDROID do
          local field = "android." .. TEMPLATE_ONLY_ANDROID[i]
          if android[TEMPLATE_ONLY_ANDROID[i]] ~= nil then notes = note(notes, platform, "$." .. field, "'" .. field .. onlyOn) end
        end
      end
    end
  end
  local rule = rules[name]
  local refuses = rule.refusedAtTop
  for i = 1, #refuses do
    local field = refuses[i]
    -- A truth test, not `~= nil`: no intent field at the top level is a boolean, and the test
    -- costs no comparison for each of the many fields an intent does not have.
    if intent[field] then
      notes = note(notes, false, "$." .. field, format("field '%s' belongs to the %s template, not %s: it is ignored", field, rule.owners[field], name))
    end
  end
  -- A field inside a common object: the object is checked to be one before it is read, and
  -- one already said to be ignored whole (plain's colors) gets no second warning.
  local inside = rule.refusedInside
  for i = 1, #inside, 3 do
    local object = intent[inside[i + 1]]
    if object ~= nil and type(object) == "table" and object[inside[i + 2]] ~= nil and not noted(notes, "$." .. inside[i + 1]) then
      local field = inside[i]
      notes = note(notes, false, "$." .. field, format("field '%s' belongs to the %s template, not %s: it is ignored", field, rule.owners[field], name))
    end
  end
  local ignores = rule.ignoresInOrder
  local admitted = intent
  for i = 1, #ignores do
    local field = ignores[i]
    if intent[field] ~= nil then
      -- "buttons are", "remindLater is": a field named in the plural takes the plural.
      local verb = byte(field, -1) == 115 and " are" or " is" -- 's'
      notes = note(notes, false, "$." .. field, field .. verb .. " ignored by the " .. name .. " template")
      if admitted == intent then
        -- Sized first: a copy filled key by key is rebuilt each time it outgrows its room.
        local count = 0
        for _ in next, intent do count = count + 1 end
        admitted = create(0, count)
        for key, value in next, intent do admitted[key] = value end
      end
      admitted[field] = nil
    end
  end
  if strict and admitted ~= intent then guardCopy(admitted, intent) end
  return admitted, notes
end

-- Records the warnings of `notes` (admit's) for `platform`.
function host.note(notes, platform)
  for i = 1, #notes, 3 do
    local only = notes[i]
    if only == false or only == platform then record("warning", "pushmap", notes[i + 1], notes[i + 2]) end
  end
end

-- Strict access --------------------------------------------------------------------------------
--
-- For a team's template (the Swift host passes `strict` to run for every template not wholly
-- pushmap's own), the intent is read-only and a read of a field nothing declares is reported
-- once per translation, with the script's file and line: the Swift host words it with the nearest
-- declared field. Free-form maps (data, contentState...) are read freely.
--
-- Each table of the intent gets a metatable: __index runs only for a key the table lacks (a
-- declared field that is absent reads nil; an undeclared one is reported) and __newindex only for
-- a write to such a key (an error at its line). A write to a key the table has runs no
-- metamethod: each table's entries are kept when guarded and compared after the run, and a run
-- that changed one runs again with those keys held apart, so that the write raises at its line.
-- Cost, on the basic seed run as a team's copy of the built-in scripts (`batch --scripts`, both
-- platforms): 289,300 instructions a line without strict access, 386,000 with it. The walks that
-- set the metatables and keep and compare the entries are C (values.c): in Lua, under the team's
-- instruction meter, they made it 528,100. Most of the rest is the 39 __index calls for the absent
-- fields plain reads. pushmap's own templates, which a test reads under strict access, run
-- without it: their figure is the budget's.

local current            -- the intent being translated, when guarded
local kept, keptCount = nil, 0 -- the guarded tables' entries as guarded: table, key, value, ...
local reported = {}      -- object spec -> the undeclared keys reported this translation
local held = {}          -- table -> key -> value: the keys a second run holds apart

-- The JSON path of `target` (a table of the intent) with `key` after it, found from the intent:
-- only a report needs it, so the guard keeps no paths.
local function pathOf(target, key)
  local function find(t, at)
    if rawequal(t, target) then return at end
    for step, value in next, t do
      if type(value) == "table" then
        local found = find(value, path(at, mathtype(step) == "integer" and step - 1 or step))
        if found then return found end
      end
    end
    return nil
  end
  local at = find(current, "$") or "$"
  if key == nil then return at end
  return path(at, mathtype(key) == "integer" and key - 1 or key)
end

-- The file:line of the script that made the access: the first frame up from `level` that is no
-- host chunk's (pushmap.get reads for its caller).
local function where(level)
  while true do
    local info = getinfo(level, "Sl")
    if info == nil then return "?" end
    local line = scriptLine(info)
    if line then return line end
    level = level + 1
  end
end

local function refuse(t, key)
  local name = (type(key) == "string" or mathtype(key) == "integer") and pathOf(t, key) or pathOf(t) .. "[?]"
  error("intent" .. sub(name, 2) .. " is read-only: the intent is the sender's; write to the payload, or copy the value into a local", 2)
end

-- The metatable of the tables an object spec describes: made once for each spec when the fields
-- are declared, so that guarding a table is one setmetatable.
local function guardOf(spec)
  return {
    __index = function(t, key)
      local away = held[t]
      if away and away[key] ~= nil then return away[key] end
      if spec[key] ~= nil or type(key) ~= "string" then return nil end
      local seen = reported[spec]
      if seen == nil then
        seen = {}
        reported[spec] = seen
      end
      if not seen[key] then
        seen[key] = true
        -- The Swift host turns this into "intent.X is not a declared field; did you mean Y?".
        record("undeclared", "pushmap", pathOf(t, key), where(3))
      end
      return nil
    end,
    __newindex = refuse,
    __metatable = false,
  }
end
-- Lists and free-form maps read freely (no __index); every table refuses writes. A list's length
-- counts the keys held apart, so that table.sort or table.remove, which write keys the list has,
-- repeat their write in the second run and it raises at the script's line.
local function heldLength(t)
  local away = held[t]
  if away == nil then return rawlen(t) end
  local n = 0
  while rawget(t, n + 1) ~= nil or away[n + 1] ~= nil do n = n + 1 end
  return n
end
local OPEN_GUARD = {
  __index = function(t, key) local away = held[t] return away and away[key] end,
  __newindex = refuse,
  __len = heldLength,
  __metatable = false,
}
walks.seal(OPEN_GUARD)

local declared = {}      -- field name -> true (a leaf), a nested spec, or { item spec } (a list)
local guards = {}        -- object spec -> its metatable

function host.declare(spec)
  declared = spec
  -- The scripts are loaded: pushmap.rules is final (pairs sees every template from here on).
  host.refreshRuleViews()
  local function index(object)
    local guard = guardOf(object)
    walks.seal(guard)
    guards[object] = guard
    for _, inner in next, object do
      if type(inner) == "table" then
        if inner[1] ~= nil then index(inner[1]) else index(inner) end
      end
    end
  end
  index(spec)
end

function host.guard(intent)
  current, kept, keptCount = intent, {}, 0
  if next(reported) ~= nil then reported = {} end
  if next(held) ~= nil then held = {} end
  if type(intent) == "table" then keptCount = walks.guard(intent, declared, guards, OPEN_GUARD, kept, 0) end
end

-- An admitted copy of the intent (admit's) stands where the intent does.
guardCopy = function(copy, intent)
  setmetatable(copy, guards[declared])
  held[copy] = held[intent]
  local n = keptCount
  for field, value in next, copy do
    kept[n + 1], kept[n + 2], kept[n + 3] = copy, field, value
    n = n + 3
  end
  keptCount = n
end

-- The index in `kept` of the first entry changed during the run, from `from`; nil when none.
local function changed(from)
  return walks.changed(kept, keptCount, from)
end

function host.written()
  return changed(1) ~= nil
end

-- Puts the changed values back and holds those keys apart: __index reads them, and a write to
-- them goes through __newindex.
function host.holdWritten()
  local i = changed(1)
  while i do
    local t, key, value = kept[i], kept[i + 1], kept[i + 2]
    held[t] = held[t] or {}
    held[t][key] = value
    rawset(t, key, nil)
    i = changed(i + 3)
  end
end

-- For a write the second run did not repeat.
function host.writtenMessage()
  for t, away in next, held do
    for key in next, away do
      return "intent" .. sub(pathOf(t, key), 2) .. " was written: the intent is read-only"
    end
  end
  return "the intent was written: it is read-only"
end
