import Testing
@testable import GestureConfig

@Test func moduleBuilds() { #expect(Bool(true)) }
