-- plain: the generic push notification, no adb_template_type. Android's messaging SDK and the
-- iOS app read it as is (Adobe's "payload keys" page). Templates build on it (`base`), so the
-- keys common to all (title, body, sound, badge, link, channel, target, custom data...) are
-- written here, once. What the host does around it: warns about the fields the template being run
-- leaves out, writes the APNS request headers, and knows Apple's other push types
-- (pushmap.pushtype).

-- The host API and string.format as locals, an exception to plain code the budget asks for: a
-- script reads a global through the sandbox's read-only proxies, a table lookup more per use.
-- With basic's, they save 7,500 instructions a translation of the basic seed to both platforms
-- (254,700 to 247,300; the budget is 250,000). NONE and the three-slot list save 2,100 more.
local action, warn, fail, json = pushmap.action, pushmap.warn, pushmap.error, pushmap.json
local customdata, pushtype, format, create = pushmap.customdata, pushmap.pushtype, string.format, table.create
local NONE = {} -- stands for an absent object; never written to

local PRIORITY = { min = "PRIORITY_MIN", low = "PRIORITY_LOW", default = "PRIORITY_DEFAULT", high = "PRIORITY_HIGH", max = "PRIORITY_MAX" }
local VISIBILITY = { private = "PRIVATE", public = "PUBLIC", secret = "SECRET" }
local DELIVERY = { normal = "NORMAL", high = "HIGH" }
local NO_URI = " action needs a uri: without one the tap opens nothing"

-- The link's action type (pushmap.action): OPENAPP for a link with neither type nor uri, as
-- intent.md says; a warning when the type opens a uri it lacks.
local function linkType(link)
  local kind, lacksUri = action(link, "OPENAPP")
  if lacksUri then warn("$.link.uri", "a " .. kind .. NO_URI) end
  return kind
end

-- The buttons as adb_act entries (nil when there are none); iOS also carries each button's id as aid.
local function buttonActions(buttons, withId)
  if buttons == nil or #buttons == 0 then return nil end
  local actions = { nil, nil, nil } -- room for Android's three buttons at once
  for i = 1, #buttons do
    local button = buttons[i]
    local kind, lacksUri = action(button, "OPENAPP")
    if lacksUri then warn("$.buttons[" .. (i - 1) .. "].uri", "a " .. kind .. NO_URI) end
    actions[i] = { aid = withId and button.id or nil, label = button.label, uri = button.uri, type = kind }
  end
  return actions
end

local function fcm(intent, ctx)
  local link, android, target = intent.link, intent.android or NONE, intent.target or NONE
  local kind, uri = link and linkType(link), link and link.uri
  if kind == "OPENAPP" and uri ~= nil then
    -- Android opens adb_uri on a tap whatever the type says: to open the app, send no uri.
    uri = nil
    warn("$.link.uri", "an OPENAPP link's uri is not sent: Android would open the uri instead of the app")
  end
  local actions = buttonActions(intent.buttons, false)
  -- Room for 32 keys: the templates built on plain add a dozen or more to the data map, and a
  -- table that outgrows its room is rebuilt, every key placed again.
  local data = create(0, 32)
  data.adb_title = intent.title
  data.adb_body = intent.body
  data.adb_sound = intent.sound
  data.adb_n_count = intent.badge and format("%d", intent.badge)
  data.adb_image = intent.image
  data.adb_uri = uri
  data.adb_a_type = kind
  data.adb_act = actions and json(actions)
  data.adb_channel_id = android.channel
  data.adb_icon = android.icon
  data.adb_n_priority = PRIORITY[android.priority]
  data.adb_n_visibility = VISIBILITY[android.visibility]
  -- Campaign Classic's tracking ids: its Android extension shows nothing without both. It draws
  -- a payload with no template type as a basic one, which needs adb_version.
  local classic = intent.campaignClassic
  if classic then data._mId, data._dId, data.adb_version = classic.messageId, classic.deliveryId, intent.version or "1" end
  local message = { data = data, token = target.token, topic = target.topic, condition = target.condition, fid = target.fid }
  if intent.analyticsLabel then message.fcm_options = { analytics_label = intent.analyticsLabel } end

  -- android's own settings win over the ones for both platforms.
  local ttl = android.ttl or intent.ttl
  local collapseKey = android.collapseKey or intent.collapseKey
  local delivery = android.delivery or intent.delivery
  if collapseKey or delivery or ttl then
    message.android = { collapse_key = collapseKey, priority = DELIVERY[delivery], ttl = ttl and format("%ds", ttl) }
  end

  customdata(intent.data, data, "fcm")
  return { message = message }
end

local function apns(intent, ctx)
  local ios = intent.ios or NONE
  local title, body, subtitle, image, localized = intent.title, intent.body, intent.subtitle, intent.image, ios.localized

  local alert
  if ios.contentAvailable and title == nil and body == nil and (localized == nil or localized.titleKey == nil and localized.bodyKey == nil) then
    -- A silent (background) push: no alert at all, so no subtitle or image.
    local silent = "a silent push (ios.contentAvailable without title or body) shows no alert: the "
    if subtitle ~= nil then warn("$.subtitle", silent .. "subtitle is not sent") end
    if image ~= nil then warn("$.image", silent .. "image is not sent"); image = nil end
  elseif title ~= nil or body ~= nil or subtitle ~= nil or localized ~= nil then
    alert = { title = title, subtitle = subtitle, body = body }
    if localized ~= nil then
      -- Text the app looks up in its own Localizable.strings.
      alert["title-loc-key"], alert["title-loc-args"] = localized.titleKey, localized.titleArgs
      alert["subtitle-loc-key"], alert["subtitle-loc-args"] = localized.subtitleKey, localized.subtitleArgs
      alert["loc-key"], alert["loc-args"] = localized.bodyKey, localized.bodyArgs
    end
  end

  -- A critical alert plays its sound even when the phone is muted.
  local sound, critical = intent.sound, ios.criticalSound
  if critical ~= nil then sound = { critical = 1, name = critical.name or sound or "default", volume = critical.volume } end

  local aps = {
    alert = alert,
    sound = sound,
    badge = intent.badge,
    ["thread-id"] = ios.threadId,
    category = ios.category,
    ["content-available"] = ios.contentAvailable and 1 or nil,
    -- With an image, the service extension must run to attach it.
    ["mutable-content"] = (ios.mutableContent or image ~= nil) and 1 or nil,
    ["interruption-level"] = ios.interruptionLevel,
    ["relevance-score"] = ios.relevanceScore,
    ["target-content-id"] = ios.targetContentId,
  }

  -- An alert push with no alert, sound or badge shows nothing, and without content-available
  -- it does not wake the app either (other push types, such as VoIP, need no aps keys).
  local pushType = ios.pushType
  if alert == nil and sound == nil and intent.badge == nil and not ios.contentAvailable and (pushType == nil or pushType == "alert") then
    fail("$", "nothing to show: no title, body, sound or badge, and not silent (ios.contentAvailable): the phone shows nothing")
  end
  -- Apple's other push types have payloads of their own.
  if pushType ~= nil then
    local other = pushtype(intent, ctx)
    if other then return other end
  end

  -- Room for the template keys the templates built on plain add (see the data map above).
  local link = intent.link
  local payload = create(0, 16)
  payload.aps = aps
  payload.adb_media = image
  payload.adb_uri = link and link.uri
  payload.adb_a_type = link and linkType(link)
  payload.adb_act = buttonActions(intent.buttons, true)
  local classic = intent.campaignClassic
  if classic then payload._mId, payload._dId = classic.messageId, classic.deliveryId end
  customdata(intent.data, payload, "apns")
  return payload
end

return { name = "plain", api = 1, platforms = { "fcm", "apns" }, fcm = fcm, apns = apns }
