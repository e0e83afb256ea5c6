import Foundation
import PushmapTestSupport
import Testing

/// Every filter and tag of campaign templates (PushmapTestSupport's CampaignTemplateCases) through
/// `pushmap campaign`, read back from the FCM message.
@Suite("pushmap campaign: every filter and tag")
struct CampaignTemplateTests {
    @Test("each filter and tag renders in the payload as Liquid renders it")
    func everyFilterAndTag() throws {
        let result = try CampaignCommandTests.campaign(
            try CampaignTemplateCases.intent(), [CampaignTemplateCases.recipient], ["--platform", "fcm"])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(CampaignCommandTests.lines(result.stdout).first)
        let data = try #require(((line["fcm"] as? [String: Any])?["message"] as? [String: Any])?["data"] as? [String: Any], "\(result.stdout)")
        for item in CampaignTemplateCases.cases {
            #expect(data[item.key] as? String == item.expected, "\(item.key): \(item.template)")
        }
    }

    @Test("an unknown filter, an unclosed tag and an unsupported tag stop the campaign before any recipient, at path and column")
    func templateErrors() throws {
        let result = try CampaignCommandTests.campaign(
            #"{"title": "{{ name | upcse }}", "body": "{% if x %}open", "data": {"k": "{% tablerow i in list %}{% endtablerow %}"}}"#,
            [#"{"id": "u-1", "vars": {"name": "a", "x": true}}"#])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty, "no recipient line is written: \(result.stdout)")
        for path in ["$.title", "$.body", "$.data.k"] { #expect(result.stderr.contains(path), "\(path): \(result.stderr)") }
        #expect(result.stderr.contains("upcase"), "did-you-mean: \(result.stderr)")
        #expect(result.stderr.contains("column"), "\(result.stderr)")
    }
}
