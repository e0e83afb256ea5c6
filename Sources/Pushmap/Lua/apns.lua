-- apns.lua: Apple's push types, as the host knows them.
--
-- Runs once per Lua state, trusted, after the prelude and before the globals are sealed. The host
-- calls this chunk with the prelude's host table; it adds to the scripts' API
--   pushmap.pushtype(intent, ctx)  the payload of a push type that is not an alert (nil for one)
-- and to the host the APNS request headers of a template without apnsHeaders (host.apnsHeaders).
-- Templates draw alerts; these are the platform's facts about everything else.

local host = ...
local pushmap = pushmap
local format, sub = string.format, string.sub
local next, type = next, type

local NONE = {} -- stands for an absent object; never written to

-- What apns-topic needs after the bundle id for each push type (alert, background: nothing; mdm:
-- the MDM certificate's own topic, given whole).
local TOPIC_SUFFIX = {
  location = ".location-query", voip = ".voip", complication = ".complication", fileprovider = ".pushkit.fileprovider",
  liveactivity = ".push-type.liveactivity", pushtotalk = ".voip-ptt", widgets = ".push-type.widgets",
  controls = ".push-type.controls",
}
-- The priority Apple fixes for a push type; the others follow `delivery`.
local FIXED_PRIORITY = { background = "5", fileprovider = "5", pushtotalk = "10" }
-- Push types that carry no aps: PushKit hands the app the payload's own keys (the intent's data),
-- and an MDM push is {"mdm": PushMagic} alone.
local NO_APS = {
  voip = "PushKit hands the app only the payload's own keys (give them as data)",
  complication = "PushKit hands the app only the payload's own keys (give them as data)",
  fileprovider = "the File Provider extension reads only the payload's own keys (give them as data)",
  location = "the Location Push Service Extension reads only the payload's own keys (give them as data)",
  pushtotalk = "the PushToTalk framework hands the app only the payload's own keys (give them as data)",
  mdm = "an MDM push carries only mdm (give the PushMagic string as data.mdm)",
  widgets = "a widgets push carries only aps.content-changed",
  controls = "a controls push carries only aps.content-changed",
}
-- The intent fields an alert writes, which the push types of NO_APS leave out.
local SHOWN = { "title", "subtitle", "body", "image", "sound", "badge", "link", "buttons" }
-- The intent fields a Live Activity push leaves out (its alert is the title, body and sound).
local LIVE_IGNORED = { "subtitle", "image", "badge", "link", "buttons", "data" }
local SHOWN_IOS = {
  "threadId", "category", "contentAvailable", "mutableContent", "interruptionLevel", "relevanceScore", "targetContentId",
  "criticalSound", "localized",
}

-- A Live Activity push: the event, content state and times from ios.liveActivity, the alert from
-- the title and body, with the sound, which a Live Activity's alert names itself.
local function liveActivity(intent, ctx)
  local warn, fail = pushmap.warn, pushmap.error
  local ios = intent.ios or NONE
  local live = ios.liveActivity
  if live == nil then
    fail("$.ios.liveActivity", "a liveactivity push needs ios.liveActivity: its event (start, update or end) and the content state to show")
    return { aps = {} }
  end
  local event, title, body = live.event, intent.title, intent.body
  if event ~= "end" and live.contentState == nil then
    fail("$.ios.liveActivity.contentState", format("a Live Activity %s push needs the content state to show", event))
  end
  if event == "start" then
    if live.attributesType == nil then fail("$.ios.liveActivity.attributesType", "a Live Activity start needs attributesType: iOS cannot start the activity") end
    if live.attributes == nil then fail("$.ios.liveActivity.attributes", "a Live Activity start needs attributes: iOS cannot start the activity") end
    if title == nil and body == nil then fail("$.title", "a Live Activity start needs an alert: give a title or a body") end
  end
  for i = 1, #LIVE_IGNORED do
    local field = LIVE_IGNORED[i]
    if intent[field] ~= nil then warn("$." .. field, format("'%s' is not sent in a liveactivity push: ActivityKit reads only aps", field)) end
  end
  local alert
  if title ~= nil or body ~= nil then alert = { title = title, body = body, sound = intent.sound } end
  return {
    aps = {
      event = event,
      timestamp = live.timestamp or ctx.now,
      ["content-state"] = live.contentState,
      ["stale-date"] = live.staleDate,
      ["dismissal-date"] = live.dismissalDate,
      ["attributes-type"] = live.attributesType,
      attributes = live.attributes,
      alert = alert,
      ["relevance-score"] = ios.relevanceScore,
    },
  }
end

-- The payload of a push type that is not an alert (ios.pushType): the shape Apple gives it, with
-- a warning for each intent field it leaves out; nil for an alert push. Templates draw alerts
-- only: with such a push type they show nothing, an error.
function pushmap.pushtype(intent, ctx)
  local ios = intent.ios or NONE
  local pushType = ios.pushType
  if not NO_APS[pushType] and pushType ~= "liveactivity" then return nil end
  local warn, fail, path = pushmap.warn, pushmap.error, pushmap.path
  if ctx.template ~= "plain" then
    fail("$.ios.pushType", format("the %s template draws an alert, and a %s push shows none: send it as alert, or use the plain template", ctx.template, pushType))
    -- The template goes on filling in aps; the error keeps the payload from being sent.
    return { aps = {} }
  end
  if pushType == "liveactivity" then return liveActivity(intent, ctx) end
  local why = NO_APS[pushType]
  local push = pushType == "mdm" and "an MDM push" or format("a %s push", pushType)
  for i = 1, #SHOWN do
    local field = SHOWN[i]
    if intent[field] ~= nil then warn("$." .. field, format("'%s' is not sent in %s: %s", field, push, why)) end
  end
  for i = 1, #SHOWN_IOS do
    local field = SHOWN_IOS[i]
    if ios[field] ~= nil then warn("$.ios." .. field, format("'ios.%s' is not sent in %s: %s", field, push, why)) end
  end
  local payload = {}
  if pushType == "mdm" then
    local data = intent.data or NONE
    if type(data.mdm) ~= "string" then
      fail("$.data.mdm", "an MDM push is {\"mdm\": the device's PushMagic string}: give it as data.mdm")
    end
    for key in next, data do
      if key ~= "mdm" then warn(path("$.data", key), format("data key '%s' is not sent: %s", host.clipped(key), why)) end
    end
    payload.mdm = data.mdm
    return payload
  end
  -- WidgetKit reloads the widgets or the controls; the data, if any, goes beside aps.
  if pushType == "widgets" or pushType == "controls" then payload.aps = { ["content-changed"] = true } end
  local classic = intent.campaignClassic
  if classic then payload._mId, payload._dId = classic.messageId, classic.deliveryId end
  pushmap.customdata(intent.data, payload, "apns")
  return payload
end

-- The APNS request headers for `payload`, the apns mapping's, when no template writes its own:
-- the push type (background for a silent push, else alert, unless ios.pushType says), the
-- priority (the push type's own, else 5 for a normal delivery and 10 for a high one), the expiry,
-- the collapse id and the topic with its push type's suffix.
function host.apnsHeaders(intent, payload, ctx)
  local ios, aps = intent.ios or NONE, payload.aps or NONE
  local silent = aps["content-available"] == 1 and aps.alert == nil and aps.sound == nil and aps.badge == nil
  local pushType = ios.pushType or (silent and "background" or "alert")
  local ttl, topic = intent.ttl, ios.topic
  local suffix = TOPIC_SUFFIX[pushType]
  if topic ~= nil and suffix ~= nil and sub(topic, -#suffix) ~= suffix then topic = topic .. suffix end
  -- An MDM push goes to the topic in the MDM push certificate's subject (its UID), never the app's.
  if pushType == "mdm" and (topic == nil or sub(topic, 1, 15) ~= "com.apple.mgmt.") then
    pushmap.warn("$.ios.topic", "an MDM push goes to the topic of the MDM push certificate (the UID in its subject, com.apple.mgmt.External.…), not the app's bundle id: give that as ios.topic")
  end
  return {
    ["apns-push-type"] = pushType,
    -- A silent payload goes at 5 whatever the push type: Apple calls 10 an error for it.
    ["apns-priority"] = FIXED_PRIORITY[pushType] or ((silent or intent.delivery == "normal") and "5" or "10"),
    -- 0 asks APNs to try once and keep nothing, which a pushtotalk push asks for when the
    -- intent gives no ttl (Apple's Push to Talk guide: no audio that is over).
    ["apns-expiration"] = ttl and format("%d", ttl == 0 and 0 or ctx.now + ttl) or (pushType == "pushtotalk" and "0" or nil),
    ["apns-collapse-id"] = intent.collapseKey,
    ["apns-topic"] = topic,
  }
end
