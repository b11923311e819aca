import GestureConfig
import GestureCore
import Testing

/// Which gestures a reload keeps: decided on definitions read by name, not on indices.
@Suite struct ModelDiffTests {
    static let base =
        Fixture.screen + """
            [view.map]
            frame = { x = "50%" }
            [gesture.tap]
            type = "tap"
            require_to_fail = ["double"]
            [gesture.double]
            type = "tap"
            taps = 2
            [gesture.zoom]
            type = "pinch"
            view = "map"
            [gesture.spin]
            type = "rotation"
            view = "map"
            simultaneous_with = ["zoom"]

            """

    func model(_ text: String) throws -> GestureModel {
        try ConfigLoader.parse(text: text, file: "test.toml").model
    }

    @Test func identicalFileKeepsEverything() throws {
        let diff = ModelDiff(from: try model(Self.base), to: try model(Self.base))
        #expect(diff.continuing == [0, 1, 2, 3])
        #expect(diff.summary == "4 unchanged")
    }

    /// A gesture added first shifts every index; nothing else changes.
    @Test func shiftedIndicesAreNotChanges() throws {
        let text = Self.base.replacing("[gesture.tap]", with: "[gesture.aaa]\ntype = \"swipe\"\n[gesture.tap]")
        let new = try model(text)
        #expect(new.gestures.map(\.name) == ["aaa", "tap", "double", "zoom", "spin"])
        let diff = ModelDiff(from: try model(Self.base), to: new)
        #expect(diff.continuing == [nil, 0, 1, 2, 3])
        #expect(diff.added == ["aaa"])
        #expect(diff.summary == "4 unchanged; added aaa")
    }

    @Test func changedParameterViewAndRemovedGesture() throws {
        let text = Self.base
            .replacing("taps = 2", with: "taps = 2\ntap_interval = \"300ms\"")
            .replacing("frame = { x = \"50%\" }", with: "frame = { x = \"40%\" }")
            .replacing("[gesture.tap]\ntype = \"tap\"\nrequire_to_fail = [\"double\"]\n", with: "")
        let diff = ModelDiff(from: try model(Self.base), to: try model(text))
        #expect(diff.changed == ["double", "zoom", "spin"])
        #expect(diff.removed == ["tap"])
        #expect(diff.unchanged.isEmpty)
        #expect(diff.continuing == [nil, nil, nil])
    }

    /// A relation belongs to the spec that declares it: the gesture it names is unchanged.
    @Test func aRelationChangesTheGestureThatDeclaresIt() throws {
        let text = Self.base.replacing("taps = 2", with: "taps = 2\nrequired_to_fail_by = [\"zoom\"]")
        let diff = ModelDiff(from: try model(Self.base), to: try model(text))
        #expect(diff.changed == ["double"])
        #expect(diff.unchanged == ["tap", "zoom", "spin"])
        // Reordering a list changes nothing.
        let reordered = Self.base.replacing("simultaneous_with = [\"zoom\"]", with: "simultaneous_with = [\"zoom\", \"tap\"]")
        let swapped = Self.base.replacing("simultaneous_with = [\"zoom\"]", with: "simultaneous_with = [\"tap\", \"zoom\"]")
        #expect(ModelDiff(from: try model(reordered), to: try model(swapped)).changed.isEmpty)
    }
}
