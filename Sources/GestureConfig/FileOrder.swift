extension Array {
    /// In file order by `position`; elements at one position keep the order they had (the
    /// order they were found in).
    func inFileOrder<Position: Comparable>(by position: (Element) -> Position) -> [Element] {
        enumerated().sorted { a, b in
            let (pa, pb) = (position(a.element), position(b.element))
            return pa == pb ? a.offset < b.offset : pa < pb
        }.map(\.element)
    }
}
