# Renders each case of cases.json with Shopify's Liquid (Debian's ruby-liquid), strict as pushmap
# campaigns are: an undefined variable or filter is an error. Prints one JSON line per case:
# {"output": "..."} or {"error": "..."}. Used by LiquidReferenceTests, which compares pushmap's
# LiquidTemplate with it.
require "json"
require "liquid"

cases = JSON.parse(File.read(ARGV.fetch(0)))
cases.each do |c|
  begin
    template = Liquid::Template.parse(c.fetch("template"), error_mode: :strict)
    output = template.render!(c.fetch("vars", {}), strict_variables: true, strict_filters: true)
    puts JSON.generate({ "output" => output })
  # TypeError, NoMethodError, RangeError: what a tag or filter does with a value it cannot use
  # (increment of text, round to places past 32 bits).
  rescue Liquid::Error, ArgumentError, TypeError, NoMethodError, RangeError => e
    puts JSON.generate({ "error" => e.class.name })
  end
end
