-- cat: Adobe's product catalog push template (adb_template_type "cat"): three products, one shown
-- large, and a call-to-action button. Android only. Built on basic (pushmap.builtin("basic", ...)),
-- without its buttons, remind-later button, image and expanded body. iOS has no such template: the
-- APNS payload is a manual carousel of the three products, the best iOS shows of it.

local pushmap = pushmap
local builtin, warn, fail = pushmap.builtin, pushmap.warn, pushmap.error
local array, json, androidColor = pushmap.array, pushmap.json, pushmap.androidColor
local format = string.format

local NONE = {} -- stands for an absent object; never written to

-- The intent's catalog, or an error when it has none.
local function catalogOf(intent)
  local catalog = intent.catalog
  if catalog == nil then
    fail("$.catalog", "the cat template needs a catalog: a button and exactly three items")
    return NONE
  end
  return catalog
end

local function fcm(intent, ctx)
  local payload = builtin("basic", "fcm", intent, ctx)
  local data = payload.message.data
  data.adb_template_type = "cat"
  if intent.image ~= nil then
    data.adb_image = nil
    warn("$.image", "image is ignored by the cat template (its items carry the images)")
  end
  if intent.expandedBody ~= nil then
    data.adb_body_ex = nil
    warn("$.expandedBody", "expandedBody is ignored by the cat template (the expanded view shows the selected item)")
  end

  local catalog = catalogOf(intent)
  local button = catalog.button or NONE
  data.adb_cta_txt = button.label
  data.adb_cta_uri = button.uri
  data.adb_cta_clr = button.color and androidColor(button.color)
  data.adb_cta_txt_clr = button.textColor and androidColor(button.textColor)
  data.adb_display = catalog.layout or "horizontal" -- Android does not show a catalog without it

  local given = catalog.items
  if given ~= nil then
    local items = table.create(#given) -- room for every item: a list that grows is rebuilt
    for i = 1, #given do
      local item = given[i]
      items[i] = { title = item.title, body = item.body, img = item.image, price = item.price, uri = item.uri }
    end
    data.adb_items = json(array(items))
  end
  return payload
end

local function apns(intent, ctx)
  warn("$.template", "iOS has no product catalog template: it shows the items as a manual carousel")
  local payload = builtin("basic", "apns", intent, ctx)
  payload.adb_template_type = "car"
  payload.adb_media = nil
  payload.adb_car_mode = "manual"
  local given = catalogOf(intent).items or NONE
  local items = table.create(#given)
  for i = 1, #given do
    local item = given[i]
    items[i] = { img = item.image, txt = format("%s, %s", item.title, item.price), uri = item.uri }
  end
  payload.adb_items = array(items)
  return payload
end

return {
  name = "cat",
  api = 1,
  platforms = { "fcm", "apns" },
  base = "basic",
  owns = { "catalog" },
  ignores = { "buttons", "remindLater" },
  fcm = fcm,
  apns = apns,
}
