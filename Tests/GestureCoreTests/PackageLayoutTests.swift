import Testing
@testable import GestureCore

@Test func moduleBuilds() { #expect(Bool(true)) }
