-- plain: the generic push notification, no adb_template_type. Android's messaging SDK and the
-- iOS app read it as is (Adobe's "payload keys" page). Templates build on it (`base`), so the
-- keys common to all (title, body, sound, badge, link, channel, target, custom data...) are
-- written here, once. Its payload does not depend on who calls it; only its diagnostics do:
-- they concern the template being run (ctx.template).

local pushmap = pushmap
local warn, fail = pushmap.warn, pushmap.error
local json, linktype, reserved, rules, path = pushmap.json, pushmap.linktype, pushmap.reserved, pushmap.rules, pushmap.path
local format, sub = string.format, string.sub
local sort = table.sort
local next, type = next, type

local NONE = {} -- stands for an absent object; never written to

local PRIORITY = { min = "PRIORITY_MIN", low = "PRIORITY_LOW", default = "PRIORITY_DEFAULT", high = "PRIORITY_HIGH", max = "PRIORITY_MAX" }
local VISIBILITY = { private = "PRIVATE", public = "PUBLIC", secret = "SECRET" }
local DELIVERY = { normal = "NORMAL", high = "HIGH" }
-- What apns-topic needs after the bundle id for each push type (alert, background: nothing; mdm:
-- the MDM certificate's own topic, given whole).
local TOPIC_SUFFIX = {
  location = ".location-query", voip = ".voip", complication = ".complication", fileprovider = ".pushkit.fileprovider",
  liveactivity = ".push-type.liveactivity", pushtotalk = ".voip-ptt", widgets = ".push-type.widgets",
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
}
-- The intent fields an alert writes, which the push types of NO_APS leave out.
local SHOWN = { "title", "subtitle", "body", "image", "sound", "badge", "link", "buttons" }
-- The intent fields a Live Activity push leaves out (its alert is the title, body and sound).
local LIVE_IGNORED = { "subtitle", "image", "badge", "link", "buttons", "data" }
local SHOWN_IOS = {
  "threadId", "category", "contentAvailable", "mutableContent", "interruptionLevel", "relevanceScore", "targetContentId",
  "criticalSound", "localized",
}

-- Intent fields a plain notification leaves out, by platform.
local IGNORED = {
  -- The messaging SDK reads only the generic keys.
  fcm = { "version", "expandedBody", "colors" },
  -- Only the template extension (category AEPNotification) reads these.
  apns = { "version", "expandedTitle", "expandedBody", "colors" },
}
local ANDROID_IGNORED = { "smallIcon", "largeIcon", "tag", "sticky", "ticker" } -- on FCM
local IGNORED_BY = { fcm = "Android", apns = "iOS" }

local function ignored(field, platform)
  warn("$." .. field, "'" .. field .. "' is ignored by plain notifications on " .. IGNORED_BY[platform] .. " (only push templates read it)")
end

-- Warns about the fields plain notifications leave out, when plain is the template being run,
-- and about the fields another template owns, which the template being run ignores (the
-- templates declare them; pushmap.rules gathers them).
local function checkFields(intent, ctx)
  local template, platform = ctx.template, ctx.platform
  if template == "plain" then
    local fields = IGNORED[platform]
    for i = 1, #fields do
      if intent[fields[i]] ~= nil then ignored(fields[i], platform) end
    end
    local android = intent.android
    if android ~= nil and platform == "fcm" then
      for i = 1, #ANDROID_IGNORED do
        if android[ANDROID_IGNORED[i]] ~= nil then ignored("android." .. ANDROID_IGNORED[i], platform) end
      end
    end
  end
  local refuses = rules[template].refuses
  for i = 1, #refuses do
    local field = refuses[i]
    -- A truth test, not `~= nil`: no intent field at the top level is a boolean, and the test costs
    -- no comparison call for each of the many fields an intent does not have.
    if intent[field] then
      -- A field the template does not read is ignored, as the phone ignores a key it does not
      -- read: a warning, not an error.
      warn("$." .. field, format("field '%s' belongs to the %s template, not %s: it is ignored", field, rules[template].owners[field], template))
    end
  end
end

-- The action type of the link (button nil) or of buttons[button]: its own type, else one from
-- its uri, else `fallback`.
local function actionType(action, fallback, button)
  local kind, uri = action.type, action.uri
  if kind == nil then
    if uri ~= nil then return linktype(uri) end
    return fallback
  end
  if uri == nil and (kind == "WEBURL" or kind == "DEEPLINK") then
    local at = button and path(path("$.buttons", button - 1), "uri") or "$.link.uri"
    warn(at, "a " .. kind .. " action needs a uri: without one the tap opens nothing")
  end
  return kind
end


-- Copies the intent's custom data into `into`, with an error for each key the platform or
-- pushmap reserves (pushmap.reserved says why). FCM data values are strings, so other JSON
-- values are JSON-encoded. Walked with `next` rather than the sandbox's sorted `pairs`: the
-- result does not depend on the order, and the refused keys are sorted before they are reported.
local function copyData(data, into, platform)
  if data == nil then return end
  local fcm = platform == "fcm"
  local bad
  for key, value in next, data do
    if reserved(key, platform) then
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
      fail(path("$.data", key), format("data key '%s' %s", key, reserved(key, platform)))
    end
  end
end

-- The buttons as adb_act entries (nil when there are none); iOS also carries each button's id as aid.
local function buttonActions(buttons, withId)
  if buttons == nil or #buttons == 0 then return nil end
  local actions = { nil, nil, nil } -- room for Android's three buttons at once
  for i = 1, #buttons do
    local button = buttons[i]
    actions[i] = {
      aid = withId and button.id or nil, label = button.label, uri = button.uri,
      type = actionType(button, "OPENAPP", i),
    }
  end
  return actions
end

-- Each payload table is written as one constructor naming all its keys (a nil value adds no
-- key). Calls that may report a diagnostic run first, in the order they report.

local function fcm(intent, ctx)
  checkFields(intent, ctx)
  local link, android, badge = intent.link, intent.android, intent.badge
  local linkType = link and actionType(link, nil, nil)
  local uri = link and link.uri
  if linkType == "OPENAPP" and uri ~= nil then
    -- Android opens adb_uri on a tap whatever the type says: to open the app, send no uri.
    uri = nil
    warn("$.link.uri", "an OPENAPP link's uri is not sent: Android would open the uri instead of the app")
  end
  local actions = buttonActions(intent.buttons, false)
  local options = android or NONE
  local data = {
    adb_title = intent.title,
    adb_body = intent.body,
    adb_sound = intent.sound,
    adb_n_count = badge ~= nil and format("%d", badge) or nil,
    adb_image = intent.image,
    adb_uri = uri,
    adb_a_type = linkType,
    adb_act = actions and json(actions),
    adb_channel_id = options.channel,
    adb_icon = options.icon,
    adb_n_priority = PRIORITY[options.priority],
    adb_n_visibility = VISIBILITY[options.visibility],
  }
  -- Campaign Classic's tracking ids: its Android extension shows nothing without both.
  local classic = intent.campaignClassic
  if classic then data._mId, data._dId = classic.messageId, classic.deliveryId end
  local target = intent.target or NONE
  local message = { data = data, token = target.token, topic = target.topic, condition = target.condition }
  -- Set only when given: a constructor slot for them would make every message's table bigger.
  local fid, label = target.fid, intent.analyticsLabel
  if fid ~= nil then message.fid = fid end
  if label ~= nil then message.fcm_options = { analytics_label = label } end

  -- android's own settings win over the ones for both platforms.
  local ttl = options.ttl or intent.ttl
  local collapseKey = options.collapseKey or intent.collapseKey
  local delivery = options.delivery or intent.delivery
  if collapseKey ~= nil or delivery ~= nil or ttl ~= nil then
    message.android = {
      collapse_key = collapseKey,
      priority = DELIVERY[delivery],
      ttl = ttl and format("%ds", ttl),
    }
  end

  copyData(intent.data, data, "fcm")
  return { message = message }
end

-- A Live Activity push: the event, content state and times from ios.liveActivity, the alert from
-- the title and body, with the sound, which a Live Activity's alert names itself.
local function liveActivity(intent, ctx)
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

-- The payload of a push type that is not an alert: the shape Apple gives it, with a warning for
-- each intent field it leaves out. Templates draw alerts only: with such a push type they show
-- nothing, an error.
local function pushPayload(intent, ctx, pushType)
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
  local ios = intent.ios or NONE
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
      if key ~= "mdm" then warn(path("$.data", key), format("data key '%s' is not sent: %s", key, why)) end
    end
    payload.mdm = data.mdm
    return payload
  end
  -- WidgetKit reloads the widgets; the data, if any, goes beside aps.
  if pushType == "widgets" then payload.aps = { ["content-changed"] = true } end
  local classic = intent.campaignClassic
  if classic then payload._mId, payload._dId = classic.messageId, classic.deliveryId end
  copyData(intent.data, payload, "apns")
  return payload
end

local function apns(intent, ctx)
  checkFields(intent, ctx)
  local ios = intent.ios or NONE
  local title, body, subtitle, image = intent.title, intent.body, intent.subtitle, intent.image
  local localized = ios.localized

  local alert
  if ios.contentAvailable and title == nil and body == nil and (localized == nil or localized.titleKey == nil and localized.bodyKey == nil) then
    -- A silent (background) push: no alert at all.
    if subtitle ~= nil then
      warn("$.subtitle", "a silent push (ios.contentAvailable without title or body) shows no alert: the subtitle is not sent")
    end
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
  local sound = intent.sound
  local critical = ios.criticalSound
  if critical ~= nil then
    sound = { critical = 1, name = critical.name or sound or "default", volume = critical.volume }
  end

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
  if NO_APS[pushType] or pushType == "liveactivity" then return pushPayload(intent, ctx, pushType) end
  local link = intent.link
  local linkType = link and actionType(link, nil, nil)
  local payload = {
    aps = aps,
    adb_media = image,
    adb_uri = link and link.uri,
    adb_a_type = linkType,
    adb_act = buttonActions(intent.buttons, true),
  }

  local classic = intent.campaignClassic
  if classic then payload._mId, payload._dId = classic.messageId, classic.deliveryId end

  copyData(intent.data, payload, "apns")
  return payload
end

-- The APNS request headers for `payload`, the apns mapping's: the push type (background for a
-- silent push, else alert, unless ios.pushType says), the priority (the push type's own, else 5
-- for a normal delivery and 10 for a high one), the expiry, the collapse id and the topic with its
-- push type's suffix.
local function apnsHeaders(intent, payload, ctx)
  local ios, aps = intent.ios or NONE, payload.aps or NONE
  local silent = aps["content-available"] == 1 and aps.alert == nil and aps.sound == nil and aps.badge == nil
  local pushType = ios.pushType or (silent and "background" or "alert")
  local ttl, topic = intent.ttl, ios.topic
  local suffix = TOPIC_SUFFIX[pushType]
  if topic ~= nil and suffix ~= nil and sub(topic, -#suffix) ~= suffix then topic = topic .. suffix end
  -- An MDM push goes to the topic in the MDM push certificate's subject (its UID), never the app's.
  if pushType == "mdm" and (topic == nil or sub(topic, 1, 15) ~= "com.apple.mgmt.") then
    warn("$.ios.topic", "an MDM push goes to the topic of the MDM push certificate (the UID in its subject, com.apple.mgmt.External.…), not the app's bundle id: give that as ios.topic")
  end
  return {
    ["apns-push-type"] = pushType,
    ["apns-priority"] = FIXED_PRIORITY[pushType] or (intent.delivery == "normal" and "5" or "10"),
    -- 0 asks APNs to try once and keep nothing.
    ["apns-expiration"] = ttl and format("%d", ttl == 0 and 0 or ctx.now + ttl),
    ["apns-collapse-id"] = intent.collapseKey,
    ["apns-topic"] = topic,
  }
end

return {
  name = "plain",
  api = 1,
  platforms = { "fcm", "apns" },
  fcm = fcm,
  apns = apns,
  apnsHeaders = apnsHeaders,
}
