import GestureCore

/// The warnings the loader finds in a model (the type is the model's, in ConfigModel).
extension ConfigWarning {
    /// Every warning about `model`, placed in its file by `locate`.
    static func warnings(in model: GestureModel, locate: (ConfigKeyPath) -> ConfigLocation) -> [ConfigWarning] {
        tapPairWarnings(in: model, locate: locate) + palmOnlyWarnings(in: model, locate: locate)
            + panFirstWarnings(in: model, locate: locate)
            + duplicateWarnings(in: model, locate: locate)
            + unreachableEdgeWarnings(in: model, locate: locate) + longerPressWarnings(in: model, locate: locate)
    }

    /// A gesture that receives palms only receives nothing: a palm is a cancelled touch.
    static func palmOnlyWarnings(in model: GestureModel, locate: (ConfigKeyPath) -> ConfigLocation) -> [ConfigWarning] {
        model.gestures.filter { $0.shouldReceiveTouch.toolTypes == [.palm] }.map { spec in
            let path = ConfigKeyPath(keys: "gesture", spec.name, "should_receive_touch", "tool_types")
            return ConfigWarning(
                location: locate(path), keyPath: path,
                message: "'\(spec.name)' receives palms only, and a palm is a cancelled touch that "
                    + "reaches no gesture: it can never fire (accept \"finger\" or \"pen\")")
        }
    }

    /// The pairs of `unorderedTapPairs`, placed at the one with fewer taps.
    static func tapPairWarnings(in model: GestureModel, locate: (ConfigKeyPath) -> ConfigLocation) -> [ConfigWarning] {
        unorderedTapPairs(in: model).map { fewer, more in
            let a = model.gestures[fewer]
            let b = model.gestures[more]
            let aTaps = a.parameters.tap?.taps ?? 1
            let bTaps = b.parameters.tap?.taps ?? 1
            let path = ConfigKeyPath(keys: "gesture", a.name)
            return ConfigWarning(
                location: locate(path), keyPath: path,
                message: "'\(a.name)' (\(taps(aTaps))) and '\(b.name)' (\(taps(bTaps))) tap the same "
                    + "touches and no failure requirement orders them, so a person's \(taps(bTaps)) fire '\(a.name)' "
                    + "first, then '\(b.name)'. That almost certainly means '\(a.name)' unless '\(b.name)': "
                    + "add require_to_fail = [\"\(b.name)\"] to [gesture.\(a.name)]")
        }
    }

    /// Taps that compete for the same touches (one's view is the other's or an ancestor of
    /// it, same touches, different tap counts, both enabled) with no failure requirement
    /// between them, direct or through a chain, and nothing else declared between them
    /// (simultaneous, cannot_prevent): the one with fewer taps fires on the first tap of
    /// the other (a tap never prevents a tap with a higher count).
    static func unorderedTapPairs(in model: GestureModel) -> [(fewer: Int, more: Int)] {
        let taps = model.gestures.indices.filter { model.gestures[$0].parameters.tap != nil && model.gestures[$0].enabled }
        var pairs: [(fewer: Int, more: Int)] = []
        for a in taps {
            for b in taps {
                let sa = model.gestures[a]
                let sb = model.gestures[b]
                guard let ta = sa.parameters.tap, let tb = sb.parameters.tap,
                    ta.taps < tb.taps, ta.touches == tb.touches,
                    sameChain(sa.view, sb.view, in: model), !declared(a, b, in: model), !declared(b, a, in: model),
                    !waits(a, on: b, in: model), !waits(b, on: a, in: model)
                else { continue }
                pairs.append((a, b))
            }
        }
        return pairs
    }

    private static func taps(_ n: Int) -> String { n == 1 ? "1 tap" : "\(n) taps" }

    /// One view is the other or an ancestor of it.
    static func sameChain(_ a: Int, _ b: Int, in model: GestureModel) -> Bool {
        func isAncestorOrSelf(_ v: Int, of w: Int) -> Bool {
            var node: Int? = w
            while let n = node {
                if n == v { return true }
                node = model.views[n].parent
            }
            return false
        }
        return isAncestorOrSelf(a, of: b) || isAncestorOrSelf(b, of: a)
    }

    /// `a` declares the pair simultaneous, or that it cannot prevent or be prevented by `b`.
    static func declared(_ a: Int, _ b: Int, in model: GestureModel) -> Bool {
        let s = model.gestures[a]
        return s.simultaneousWith.contains(b) || s.cannotPrevent.contains(b) || s.cannotBePreventedBy.contains(b)
    }

    /// `a` waits on `b` to fail, directly or through a chain of failure requirements.
    static func waits(_ a: Int, on b: Int, in model: GestureModel) -> Bool {
        var seen = Set<Int>()
        var stack = [a]
        while let g = stack.popLast() {
            for r in model.failureRequirements(of: g) where seen.insert(r).inserted {
                if r == b { return true }
                stack.append(r)
            }
        }
        return false
    }
}

extension ConfigWarning {
    /// A warning about the key at `path`, placed in the file by `locate`.
    init(at path: ConfigKeyPath, locate: (ConfigKeyPath) -> ConfigLocation, _ message: String) {
        self.init(location: locate(path), keyPath: path, message: message)
    }
}
