/// Diagnostics cut to a size a reply and the journal can carry: at most `maximumLines`
/// lines of at most `maximumLineLength` bytes each, then "... and N more lines". A config
/// with a 256 KiB key or ten thousand errors still gets a reply that arrives.
enum BoundedText {
    static let maximumLines = 50
    static let maximumLineLength = 1024

    static func bounded(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var kept = lines.prefix(maximumLines).map { line -> String in
            guard line.utf8.count > maximumLineLength else { return String(line) }
            // A sequence cut in two decodes as one replacement character.
            let head = String(decoding: line.utf8.prefix(maximumLineLength), as: UTF8.self)
            return "\(head)... (\(line.utf8.count) bytes)"
        }
        if lines.count > maximumLines { kept.append("... and \(lines.count - maximumLines) more lines") }
        return kept.joined(separator: "\n")
    }
}
