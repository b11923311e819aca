import Testing
@testable import GestureDaemon

@Test func moduleBuilds() { #expect(Bool(true)) }
