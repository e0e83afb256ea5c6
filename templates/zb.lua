-- zb: Adobe's zero bezel push template (adb_template_type "zb"): the image edge to edge, the text
-- over it. Android only. Built on basic (pushmap.builtin("basic", ...)), without its buttons,
-- remind-later button and large icon. iOS has no such template: the APNS payload is basic's,
-- with the image, the best iOS shows of it.

local pushmap = pushmap
local builtin, warn = pushmap.builtin, pushmap.warn

local NONE = {} -- stands for an absent object; never written to

local COLLAPSED = { image = "img", text = "txt" }

local function fcm(intent, ctx)
  local payload = builtin("basic", "fcm", intent, ctx)
  local data = payload.message.data
  data.adb_template_type = "zb"
  if data.adb_large_icon ~= nil then
    data.adb_large_icon = nil
    warn("$.android.largeIcon", "android.largeIcon is ignored by the zb template (its layout has no large icon)")
  end
  data.adb_col_style = COLLAPSED[(intent.zeroBezel or NONE).collapsed]
  return payload
end

local function apns(intent, ctx)
  warn("$.template", "iOS has no zero bezel template: it shows a basic notification with the image")
  return builtin("basic", "apns", intent, ctx)
end

return {
  name = "zb",
  api = 1,
  platforms = { "fcm", "apns" },
  base = "basic",
  owns = { "zeroBezel" },
  ignores = { "buttons", "remindLater" },
  fcm = fcm,
  apns = apns,
}
