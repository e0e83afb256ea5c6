-- basic: Adobe's basic push template (adb_template_type "basic"): title, body, expanded text,
-- image, link, buttons, colours, icons and, on Android, a remind-later button.
-- Built on the plain payload (pushmap.builtin("plain", ...)), to which it adds the template keys.
-- A template built on basic that `ignores` the buttons or the remind-later button does not see
-- them: the host warns and leaves them out of the intent it hands the template.

-- Locals for the host API, NONE for an absent object: the instruction budget needs them (see plain.lua).
local builtin, warn, color, androidColor = pushmap.builtin, pushmap.warn, pushmap.color, pushmap.androidColor
local format = string.format
local NONE = {} -- never written to
local IOS_BUTTONS = "buttons are not shown by iOS push templates (actions come from the app's notification categories)"

local function fcm(intent, ctx)
  local payload = builtin("plain", "fcm", intent, ctx)
  local data = payload.message.data
  data.adb_template_type = "basic"
  data.adb_version = intent.version or "1"
  data.adb_body_ex = intent.expandedBody

  local android = intent.android or NONE
  data.adb_small_icon = android.smallIcon
  data.adb_large_icon = android.largeIcon
  data.adb_tag = android.tag
  if android.sticky ~= nil then data.adb_sticky = android.sticky and "true" or "false" end
  data.adb_ticker = android.ticker

  local colors = intent.colors
  if colors ~= nil then
    data.adb_clr_title = colors.title and androidColor(colors.title)
    data.adb_clr_body = colors.body and androidColor(colors.body)
    data.adb_clr_bg = colors.background and androidColor(colors.background)
    data.adb_clr_icon = colors.icon and androidColor(colors.icon)
  end

  local remind = intent.remindLater
  if remind ~= nil then
    data.adb_rem_txt = remind.label
    if remind.at ~= nil then data.adb_rem_ts = format("%d", remind.at) end
    if remind.after ~= nil then data.adb_rem_sec = format("%d", remind.after) end
  end
  return payload
end

local function apns(intent, ctx)
  local payload = builtin("plain", "apns", intent, ctx)
  -- Templates carry the link's uri only, and no actions: a tap opens adb_uri, so an OPENAPP
  -- link sends none, as on Android.
  local kind = payload.adb_a_type
  if kind == "OPENAPP" and payload.adb_uri ~= nil then
    payload.adb_uri = nil
    warn("$.link.uri", "an OPENAPP link's uri is not sent: iOS templates open adb_uri on a tap, instead of the app")
  elseif kind == "DISMISS" and payload.adb_uri ~= nil then
    payload.adb_uri = nil
    warn("$.link.uri", "a DISMISS link's uri is not sent: iOS templates open adb_uri on a tap; without it a tap opens the app, as iOS has no tap that only dismisses")
  end
  payload.adb_a_type = nil
  if payload.adb_act ~= nil then
    payload.adb_act = nil
    warn("$.buttons", IOS_BUTTONS)
  end

  local aps = payload.aps
  local ios = intent.ios or NONE
  if ios.category ~= nil then
    warn("$.ios.category", "ios.category is ignored by push templates: their category is always \"AEPNotification\"")
  end
  if ios.mutableContent == false then
    warn("$.ios.mutableContent", "ios.mutableContent is ignored by push templates: they always set mutable-content")
  end
  aps.category = "AEPNotification"
  aps["mutable-content"] = 1

  payload.adb_template_type = "basic"
  payload.adb_version = intent.version or "1"
  payload.adb_title_ex = intent.expandedTitle
  payload.adb_body_ex = intent.expandedBody

  local colors = intent.colors
  if colors ~= nil then
    payload.adb_clr_title = colors.title and color(colors.title)
    payload.adb_clr_body = colors.body and color(colors.body)
    payload.adb_clr_bg = colors.background and color(colors.background)
  end
  return payload
end

return {
  name = "basic",
  api = 1,
  platforms = { "fcm", "apns" },
  base = "plain",
  owns = { "remindLater" },
  fcm = fcm,
  apns = apns,
}
