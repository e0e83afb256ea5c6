internal import Foundation

/// Every filter and tag of campaign templates, as a team writes them in an intent: each case is
/// one `data` value of one intent, rendered for one recipient (``recipient``). The expected texts
/// are Shopify Liquid's (LiquidReferenceTests holds the library to Liquid itself); truncate counts
/// grapheme clusters and dates are UTC unless written with an offset, as docs/campaign.md says. The command line's tests read
/// them back from the FCM message; the server's compare its answer with the command line's.
public enum CampaignTemplateCases {
    /// (data key, template, expected), the source of each named in the key's comment.
    public static let cases: [(key: String, template: String, expected: String)] = [
        // shopify.github.io/liquid/filters/*
        ("f_upcase", "{{ name | upcase }}", "ZOË DUPONT"),
        ("f_downcase", "{{ name | downcase }}", "zoë dupont"),
        ("f_capitalize", "{{ shout | capitalize }}", "Hello there"),
        ("f_default_missing", "{{ nickname | default: \"friend\" }}", "friend"),
        ("f_default_empty", "{{ empty_text | default: \"friend\" }}", "friend"),
        ("f_truncate", "{{ long | truncate: 20 }}", "Ground control to..."),
        ("f_truncate_ellipsis", "{{ long | truncate: 25, \", and so on\" }}", "Ground control, and so on"),
        ("f_truncate_clusters", "{{ family | truncate: 5 }}", "👨‍👩‍👧‍👦👨‍👩‍👧‍👦..."),
        ("f_date", "{{ at | date: \"%a, %b %d, %y %H:%M\" }}", "Mon, Dec 25, 23 00:00"),
        ("f_date_iso", "{{ iso | date: \"%d/%m/%Y\" }}", "26/11/2026"),
        ("f_chain", "{{ shout | downcase | capitalize }}", "Hello there"),
        // shopify.github.io/liquid/basics/introduction (objects, indexes)
        ("p_index", "{{ order.items[1].name }}", "pawn"),
        ("p_last", "{{ order.items[-1].name }}", "pawn"),
        ("p_size", "{{ order.items.size }}", "2"),
        ("p_first", "{{ order.items.first.name }}", "board"),
        // shopify.github.io/liquid/tags/control-flow
        ("t_if", "{% if tier == \"gold\" %}G{% elsif tier == \"silver\" %}S{% else %}B{% endif %}", "S"),
        ("t_else", "{% if tier == \"gold\" %}G{% else %}other{% endif %}", "other"),
        ("t_unless", "{% unless vip %}regular{% endunless %}", "regular"),
        ("t_missing_in_condition", "{% if coupon %}code {{ coupon }}{% else %}no code{% endif %}", "no code"),
        // shopify.github.io/liquid/basics/operators
        ("o_range", "{% if n >= 3 and n <= 5 %}mid{% endif %}", "mid"),
        ("o_ne_or", "{% if n != 4 or n < 0 %}x{% else %}y{% endif %}", "y"),
        ("o_gt", "{% if n > 3 %}gt{% endif %}", "gt"),
        ("o_contains_array", "{% if tags contains \"vip\" %}tagged{% endif %}", "tagged"),
        ("o_contains_string", "{% if name contains \"Dup\" %}dup{% endif %}", "dup"),
        ("o_right_to_left", "{% if true and false and false or true %}yes{% else %}no{% endif %}", "no"),
        // shopify.github.io/liquid/basics/whitespace, tags/template (raw, comment)
        ("w_trim", "[  {{- name -}}  ]", "[Zoë Dupont]"),
        ("w_raw", "{% raw %}{{ not_rendered }}{% endraw %}", "{{ not_rendered }}"),
        ("w_comment", "a{% comment %} {{ hidden }} {% endcomment %}b", "ab"),
    ]

    static let vars = #"""
    {"name": "Zoë Dupont", "shout": "HELLO THERE", "empty_text": "", "long": "Ground control to Major Tom.",
     "family": "👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦", "at": 1703462400, "iso": "2026-11-26T10:00:00Z",
     "order": {"items": [{"name": "board"}, {"name": "pawn"}]}, "tier": "silver", "vip": false, "n": 4, "tags": ["new", "vip"]}
    """#

    /// The intent: a title, a body, a target and one data value per case.
    public static func intent() throws -> String {
        var data: [String: String] = [:]
        for item in cases { data[item.key] = item.template }
        let encoded = String(decoding: try JSONSerialization.data(withJSONObject: data, options: [.sortedKeys]), as: UTF8.self)
        return #"{"title": "Hi {{ name }}", "body": "b", "target": {"token": "T"}, "data": \#(encoded)}"#
    }

    /// The one recipient line, its vars on one line.
    public static var recipient: String {
        #"{"id": "u-1", "vars": \#(vars.replacingOccurrences(of: "\n", with: " "))}"#
    }
}
