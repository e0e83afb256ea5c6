-- icon: Adobe's multi icon push template (adb_template_type "icon"): a row of three to five icons,
-- each with its own action, and a close button. Android only; the title and body are not shown.
-- Built on basic (pushmap.builtin("basic", ...)), without its buttons, remind-later button, image
-- and large icon. iOS has no such template: the APNS payload is basic's, the best iOS shows of it.

local builtin, warn, fail = pushmap.builtin, pushmap.warn, pushmap.error
local array, json = pushmap.array, pushmap.json

local NONE = {} -- stands for an absent object; never written to

-- The icons as adb_items entries {img, type, uri}, each with its action type (pushmap.action).
-- Android leaves out an icon it cannot use (a DEEPLINK without a uri) and shows the rest when
-- three remain: the payload check says which, and whether enough remain.
local function items(icons)
  local list = table.create(#icons) -- room for every icon: a list that grows is rebuilt
  for i = 1, #icons do
    local icon = icons[i]
    list[i] = { img = icon.image, type = pushmap.action(icon, "OPENAPP"), uri = icon.uri }
  end
  return array(list)
end

-- Leaves `key` out of the data map, with a warning at `path`, when the intent gave it (`given`).
local function ignore(data, key, given, path, why)
  if given ~= nil then
    data[key] = nil
    warn(path, why)
  end
end

local function fcm(intent, ctx)
  local payload = builtin("basic", "fcm", intent, ctx)
  local data = payload.message.data
  data.adb_template_type = "icon"
  -- The icon layout has no image, large icon or text: what basic wrote for them is left out.
  local colors = intent.colors or NONE
  ignore(data, "adb_image", intent.image, "$.image", "image is ignored by the icon template (its items carry the images)")
  ignore(data, "adb_large_icon", data.adb_large_icon, "$.android.largeIcon", "android.largeIcon is ignored by the icon template (its layout has no large icon)")
  ignore(data, "adb_body_ex", data.adb_body_ex, "$.expandedBody", "expandedBody is ignored by the icon template (it shows no text)")
  ignore(data, "adb_clr_title", colors.title, "$.colors.title", "colors.title is ignored by the icon template (it shows no text)")
  ignore(data, "adb_clr_body", colors.body, "$.colors.body", "colors.body is ignored by the icon template (it shows no text)")

  local icons = intent.icons
  if icons == nil then
    fail("$.icons", "the icon template needs icons: three to five items")
    icons = NONE
  end
  if icons.items ~= nil then data.adb_items = json(items(icons.items)) end
  data.adb_cancel_image = icons.closeImage
  return payload
end

local function apns(intent, ctx)
  warn("$.template", "iOS has no multi icon template: it shows a basic notification without the icons")
  return builtin("basic", "apns", intent, ctx)
end

return {
  name = "icon",
  api = 1,
  platforms = { "fcm", "apns" },
  base = "basic",
  owns = { "icons" },
  ignores = { "buttons", "remindLater" },
  fcm = fcm,
  apns = apns,
}
