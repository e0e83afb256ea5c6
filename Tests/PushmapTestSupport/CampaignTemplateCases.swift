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
        ("f_append", "{{ name | append: \"!\" | prepend: \"Hi \" }}", "Hi Zoë Dupont!"),
        ("f_replace", "{{ long | replace: \"o\", \"0\" | remove_first: \"G\" | replace_last: \"0\", \"O\" }}", "r0und c0ntr0l t0 Maj0r TOm."),
        ("f_remove", "{{ long | remove: \"o\" | remove_last: \".\" }}", "Grund cntrl t Majr Tm"),
        ("f_strip", "[{{ padded | strip }}|{{ padded | lstrip }}|{{ padded | rstrip }}]", "[x|x  |  x]"),
        ("f_newlines", "{{ lines | strip_newlines }}/{{ lines | newline_to_br }}", "ab/a<br />\nb"),
        ("f_html", "{{ html | strip_html }}/{{ html | escape }}/{{ \"&amp; &\" | escape_once }}", "Hi there/&lt;b&gt;Hi&lt;/b&gt; there/&amp; &amp;"),
        ("f_url", "{{ query | url_encode }}/{{ \"caf%C3%A9+%26\" | url_decode }}", "caf%C3%A9+%26+tea%2F%3F/café &"),
        ("f_base64", "{{ name | base64_encode }}/{{ \"Wm_Dqw\" | base64_url_safe_decode }}", "Wm/DqyBEdXBvbnQ=/Zoë"),
        ("f_truncatewords", "{{ long | truncatewords: 3 }}", "Ground control to..."),
        ("f_split_join", "{{ csv | split: \", \" | reverse | join: \"+\" }}", "c+b+a"),
        ("f_list", "{{ list | compact | uniq | sort | join }} {{ list | size }} {{ list | first }} {{ list | slice: 1, 2 | join: \"\" }}", "a b 4 b ab"),
        ("f_map", "{{ order.items | map: \"name\" | sort_natural | join: \", \" }}", "board, pawn"),
        ("f_math", "{{ price | times: 0.9 | round: 2 }} {{ n | plus: 1 | minus: 2 | divided_by: 2 }} {{ n | modulo: 3 }} {{ price | ceil }} {{ price | floor }} {{ -3 | abs }}", "53.55 1 1 60 59 3"),
        ("f_bounds", "{{ n | at_least: 5 }} {{ n | at_most: 2 }} {{ \"0.1\" | plus: 0.2 }}", "5 2 0.3"),
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
        // shopify.github.io/liquid/tags/iteration, control-flow and variable
        ("t_for", "{% for item in order.items %}{{ forloop.index }}.{{ item.name }}{% unless forloop.last %}, {% endunless %}{% endfor %}", "1.board, 2.pawn"),
        ("t_for_else", "{% for t in none %}{{ t }}{% else %}nothing{% endfor %}", "nothing"),
        ("t_for_range", "{% for i in (1..n) reversed limit: 2 %}{{ i }}{% if i == 2 %}{% break %}{% endif %}{% endfor %}", "2"),
        ("t_case", "{% case tier %}{% when \"gold\", \"platinum\" %}VIP{% when \"silver\" %}Member{% else %}Guest{% endcase %}", "Member"),
        ("t_assign", "{% assign total = price | times: 2 %}{% if total > 100 %}{{ total }} big{% endif %}", "119.0 big"),
        ("t_capture", "{% capture who %}{{ name | split: \" \" | first }}{% endcapture %}Hi {{ who }}!", "Hi Zoë!"),
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
     "order": {"items": [{"name": "board"}, {"name": "pawn"}]}, "tier": "silver", "vip": false, "n": 4, "tags": ["new", "vip"],
     "padded": "  x  ", "lines": "a\nb", "html": "<b>Hi</b> there", "query": "café & tea/?", "csv": "a, b, c",
     "list": ["b", "a", "b", null], "price": 59.5, "none": []}
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
