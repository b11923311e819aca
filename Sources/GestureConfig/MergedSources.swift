/// The config's files merged into one table, and where each key of it was written. A
/// later file sets keys of the earlier ones: tables merge key by key, and any other value
/// (an array too) replaces the earlier one, except `[[device]]`: a later file's rule is
/// added, or merged into an earlier rule with the same match keys (one rule per panel).
struct MergedSources {
    let files: [ParsedSource]
    private(set) var root: TOMLTable
    /// Who wrote what, as a tree over the merged table's key paths (node 0 is the root).
    private var nodes: [Origin]

    /// The keys of `[[device]]` that say which panels a rule is for.
    static let deviceMatchKeys = ["name", "vendor", "product", "path", "property"]

    /// A node of the origin tree: the file that wrote the path, and the path there (a
    /// drop-in's `device[0]` may be the merged `device[2]`). A path below a node without a
    /// child for its next part was written by the same file, under the same path: one
    /// file's keys cost no nodes, only the keys a later file touched do.
    private struct Origin {
        var file: Int
        var path: ConfigKeyPath
        var children: [ConfigKeyPath.Segment: Int] = [:]
        /// Where the values that this one replaced were written, earliest first.
        var replaced: [ConfigLocation] = []
    }

    /// `files` in order, the main file first; at least one.
    init(_ files: [ParsedSource]) {
        self.files = files
        root = files[0].table
        nodes = [Origin(file: 0, path: ConfigKeyPath())]
        for file in files.indices.dropFirst() {
            root = merge(files[file].table, into: root, node: 0, at: ConfigKeyPath(), file: file, path: ConfigKeyPath())
        }
    }

    /// Where `path` of the merged table is written; for a path no file writes, where its
    /// closest written ancestor is (as `KeyLocator.position(of:)` answers within a file).
    func location(of path: ConfigKeyPath) -> ConfigLocation {
        let (node, depth) = deepestNode(of: path)
        let origin = nodes[node]
        let source = files[origin.file]
        let inFile = ConfigKeyPath(origin.path.segments + path.segments.dropFirst(depth))
        return ConfigLocation(file: source.file, fileIndex: origin.file, position: source.locator.position(of: inFile))
    }

    /// The locations of the values that the one at `path` replaced, earliest first (empty
    /// when no later file set it again).
    func replaced(at path: ConfigKeyPath) -> [ConfigLocation] {
        let (node, depth) = deepestNode(of: path)
        return depth == path.segments.count ? nodes[node].replaced : []
    }

    private func deepestNode(of path: ConfigKeyPath) -> (node: Int, depth: Int) {
        var node = 0
        var depth = 0
        for segment in path.segments {
            guard let next = nodes[node].children[segment] else { break }
            node = next
            depth += 1
        }
        return (node, depth)
    }

    /// `later` (at `path` in file `file`) merged into `base` (at `merged` in the merged
    /// table, `node` in the origin tree).
    private mutating func merge(
        _ later: TOMLTable, into base: TOMLTable, node: Int, at merged: ConfigKeyPath, file: Int,
        path: ConfigKeyPath
    ) -> TOMLTable {
        var result = base
        for key in later.keys {
            guard let value = later[key] else { continue }
            if case .table(let earlier)? = base[key], case .table(let table) = value {
                let child = descend(from: node, .key(key))
                let inner = merge(table, into: earlier, node: child, at: merged.appending(key), file: file, path: path.appending(key))
                result.set(key, .table(inner))
            } else if merged.segments.isEmpty, key == "device", case .array(let earlier)? = base[key], case .array(let rules) = value {
                result.set(key, .array(mergeDevices(rules, into: earlier, file: file)))
            } else {
                replace(
                    from: node, .key(key), at: merged.appending(key), by: Origin(file: file, path: path.appending(key)),
                    replacing: base[key] != nil)
                result.set(key, value)
            }
        }
        return result
    }

    /// A later file's `[[device]]` rules: each merged into the earlier rule with the same
    /// match keys, or added after the others.
    private mutating func mergeDevices(_ rules: [TOMLValue], into earlier: [TOMLValue], file: Int) -> [TOMLValue] {
        let node = descend(from: 0, .key("device"))
        let merged = ConfigKeyPath(keys: "device")
        var result = earlier
        for (index, rule) in rules.enumerated() {
            let inFile = merged.appending(index: index)
            if case .table(let table) = rule,
                let same = earlier.firstIndex(where: { $0.table.map { Self.sameMatch($0, table) } ?? false }),
                let base = result[same].table
            {
                let child = descend(from: node, .index(same))
                let inner = merge(table, into: base, node: child, at: merged.appending(index: same), file: file, path: inFile)
                result[same] = .table(inner)
            } else {
                result.append(rule)
                replace(
                    from: node, .index(result.count - 1), at: merged.appending(index: result.count - 1),
                    by: Origin(file: file, path: inFile), replacing: false)
            }
        }
        return result
    }

    private static func sameMatch(_ a: TOMLTable, _ b: TOMLTable) -> Bool {
        deviceMatchKeys.allSatisfy { a[$0] == b[$0] }
    }

    /// The child of `node` for `segment`, made when missing: then the parent's file wrote it.
    private mutating func descend(from node: Int, _ segment: ConfigKeyPath.Segment) -> Int {
        if let child = nodes[node].children[segment] { return child }
        let parent = nodes[node]
        nodes.append(Origin(file: parent.file, path: ConfigKeyPath(parent.path.segments + [segment])))
        nodes[node].children[segment] = nodes.count - 1
        return nodes.count - 1
    }

    /// Makes `origin` the writer of `segment` under `node` (at `merged`); when an earlier
    /// file wrote it (`replacing`), remembers where.
    private mutating func replace(
        from node: Int, _ segment: ConfigKeyPath.Segment, at merged: ConfigKeyPath, by origin: Origin, replacing: Bool
    ) {
        var origin = origin
        if replacing {
            let earlier = nodes[node].children[segment].map { nodes[$0].replaced } ?? []
            origin.replaced = earlier + [location(of: merged)]
        }
        nodes.append(origin)
        nodes[node].children[segment] = nodes.count - 1
    }
}
