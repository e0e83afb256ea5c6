-- icon: Adobe's multi icon push template (adb_template_type "icon"): a row of three to five icons,
-- each with its own action, and a close button. Android only; the title and body are not shown.
-- Built on basic (pushmap.builtin("basic", ...)), without its buttons, remind-later button, image
-- and large icon. iOS has no such template: the APNS payload is basic's, the best iOS shows of it.

local builtin, warn, fail = pushmap.builtin, pushmap.warn, pushmap.error
local array, json = pushmap.array, pushmap.json

local NONE = {} -- stands for an absent object; never written to

-- The icons as adb_items entries {img, type, uri}, each with its action type (pushmap.action).
local function items(icons)
  local list = table.create(#icons) -- room for every icon: a list that grows is rebuilt
  for i = 1, #icons do
    local icon = icons[i]
    local kind, lacksUri = pushmap.action(icon, "OPENAPP")
    if lacksUri then
      pushmap.error("$.icons.items[" .. (i - 1) .. "].uri", "a " .. kind .. " icon needs a uri: without it Android leaves the icon out")
    end
    list[i] = { img = icon.image, type = kind, uri = icon.uri }
  end
  return array(list)
end

local function fcm(intent, ctx)
  local payload = builtin("basic", "fcm", intent, ctx)
  local data = payload.message.data
  data.adb_template_type = "icon"
  if intent.image ~= nil then
    data.adb_image = nil
    warn("$.image", "image is ignored by the icon template (its items carry the images)")
  end
  if data.adb_large_icon ~= nil then
    data.adb_large_icon = nil
    warn("$.android.largeIcon", "android.largeIcon is ignored by the icon template (its layout has no large icon)")
  end

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
