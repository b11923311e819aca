import Testing
@testable import TouchInput

@Test func moduleBuilds() { #expect(Bool(true)) }
