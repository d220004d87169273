/// The characters of a line, kept so that an edit costs what it changes, not the line's
/// length, even while older versions of the line are kept (by a view model, a property,
/// the view that drew it).
///
/// The text is a tree of small immutable chunks (a rope). An edit copies the chunk it
/// touches and the few nodes above it and shares all the rest with the version before,
/// so holding on to an old version never makes the next edit copy the whole line.
/// Indexing is by character from 0 and costs the tree's depth (3 levels for 100,000
/// characters). Comparing two versions of one line (`==`, `firstDifference(from:)`)
/// skips the chunks they share, so it costs about what differs.
public struct LineText: Sendable, RandomAccessCollection, RangeReplaceableCollection, ExpressibleByArrayLiteral,
    Equatable, CustomStringConvertible
{
    /// A node of the tree: a leaf holds characters, an inner node its children.
    final class Node: Sendable {
        let count: Int
        let characters: [Character]
        let children: [Node]

        init(characters: [Character]) {
            count = characters.count
            self.characters = characters
            children = []
        }

        init(children: [Node]) {
            count = children.reduce(0) { $0 + $1.count }
            characters = []
            self.children = children
        }

        var isLeaf: Bool { children.isEmpty }
    }

    /// The most characters a leaf holds.
    static let leafCapacity = 128
    /// The most children an inner node holds.
    static let branchCapacity = 32

    private var root: Node

    /// An empty line.
    public init() {
        root = Node(characters: [])
    }

    /// A line of `characters`.
    public init(_ characters: some Sequence<Character>) {
        root = Self.tree(of: Self.leaves(of: Array(characters)))
    }

    /// A line of `elements`.
    public init(arrayLiteral elements: Character...) {
        self.init(elements)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { root.count }
    public var count: Int { root.count }
    public var description: String { String(self) }

    /// The character at `position`.
    public subscript(position: Int) -> Character {
        precondition(position >= 0 && position < root.count, "index out of range")
        var node = root
        var offset = position
        while !node.isLeaf {
            for child in node.children {
                if offset < child.count {
                    node = child
                    break
                }
                offset -= child.count
            }
        }
        return node.characters[offset]
    }

    /// The characters in `range`, as an array.
    public func characters(in range: Range<Int>) -> [Character] {
        var result: [Character] = []
        result.reserveCapacity(range.count)
        var iterator = makeIterator(from: range.lowerBound)
        for _ in range {
            guard let character = iterator.next() else { break }
            result.append(character)
        }
        return result
    }

    /// The characters in `range`, as a string.
    public func string(in range: Range<Int>) -> String {
        String(characters(in: range))
    }

    /// Replaces the characters in `range` with `replacement`: the chunks the range
    /// touches are rebuilt, the others shared.
    public mutating func replaceSubrange<C: Collection<Character>>(_ range: Range<Int>, with replacement: C) {
        precondition(range.lowerBound >= 0 && range.upperBound <= root.count, "range out of bounds")
        if !range.isEmpty {
            root = Self.removing(range, from: root) ?? Node(characters: [])
            while !root.isLeaf && root.children.count == 1 { root = root.children[0] }
        }
        if !replacement.isEmpty {
            root = Self.tree(of: Self.inserting(Array(replacement), at: range.lowerBound, into: root))
        }
    }

    // MARK: - Comparing versions

    /// The first position where this line and `other` differ (where one of them ends, if
    /// one begins the other), nil when they are equal. Chunks the two share are skipped
    /// without being read.
    public func firstDifference(from other: LineText) -> Int? {
        var position = Self.sharedPrefix(root, other.root)
        var mine = makeIterator(from: position)
        var theirs = other.makeIterator(from: position)
        while true {
            switch (mine.next(), theirs.next()) {
            case (nil, nil): return nil
            case (let left?, let right?) where left == right: position += 1
            default: return position
            }
        }
    }

    public static func == (lhs: LineText, rhs: LineText) -> Bool {
        lhs.count == rhs.count && lhs.firstDifference(from: rhs) == nil
    }

    /// How many characters at the start of `left` and `right` are surely equal because
    /// the two share the nodes that hold them.
    private static func sharedPrefix(_ left: Node, _ right: Node) -> Int {
        if left === right { return left.count }
        guard !left.isLeaf && !right.isLeaf else { return 0 }
        var offset = 0
        for (leftChild, rightChild) in zip(left.children, right.children) {
            guard leftChild === rightChild else { return offset + sharedPrefix(leftChild, rightChild) }
            offset += leftChild.count
        }
        return offset
    }

    // MARK: - Iterating

    /// Walks the leaves in order, from a given position.
    public struct Iterator: IteratorProtocol {
        /// The inner nodes above the leaf being read, with the index of the child being read.
        private var stack: [(node: Node, child: Int)] = []
        private var leaf: [Character] = []
        private var index = 0

        init(root: Node, from position: Int) {
            var node = root
            var offset = Swift.max(0, position)
            while !node.isLeaf {
                var child = 0
                while child < node.children.count - 1 && offset >= node.children[child].count {
                    offset -= node.children[child].count
                    child += 1
                }
                stack.append((node, child))
                node = node.children[child]
            }
            leaf = node.characters
            index = offset
        }

        public mutating func next() -> Character? {
            while index >= leaf.count {
                guard advanceLeaf() else { return nil }
            }
            defer { index += 1 }
            return leaf[index]
        }

        /// Moves to the next leaf; false after the last one.
        private mutating func advanceLeaf() -> Bool {
            while let (node, child) = stack.popLast() {
                guard child + 1 < node.children.count else { continue }
                stack.append((node, child + 1))
                var next = node.children[child + 1]
                while !next.isLeaf {
                    stack.append((next, 0))
                    next = next.children[0]
                }
                leaf = next.characters
                index = 0
                return true
            }
            return false
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(root: root, from: 0)
    }

    /// An iterator starting at `position`.
    public func makeIterator(from position: Int) -> Iterator {
        Iterator(root: root, from: position)
    }

    // MARK: - Building the tree

    /// `characters` cut into leaves of at most `leafCapacity`, of about equal size.
    private static func leaves(of characters: [Character]) -> [Node] {
        chunks(of: characters[...], capacity: leafCapacity).map { Node(characters: Array($0)) }
    }

    private static func chunks<T>(of elements: ArraySlice<T>, capacity: Int) -> [ArraySlice<T>] {
        guard elements.count > capacity else { return [elements] }
        let pieces = (elements.count + capacity - 1) / capacity
        let size = (elements.count + pieces - 1) / pieces
        return stride(from: elements.startIndex, to: elements.endIndex, by: size).map {
            elements[$0..<Swift.min($0 + size, elements.endIndex)]
        }
    }

    /// One node above `nodes`, adding levels while they are more than a node holds.
    private static func tree(of nodes: [Node]) -> Node {
        var level = nodes
        while level.count > 1 {
            level = chunks(of: level[...], capacity: branchCapacity).map { Node(children: Array($0)) }
        }
        return level.first ?? Node(characters: [])
    }

    /// `node` with `inserted` at `position`: the nodes that replace it (more than one when
    /// it had to split).
    private static func inserting(_ inserted: [Character], at position: Int, into node: Node) -> [Node] {
        if node.isLeaf {
            var characters = node.characters
            characters.insert(contentsOf: inserted, at: position)
            return leaves(of: characters)
        }
        var offset = position
        var index = 0
        while index < node.children.count - 1 && offset > node.children[index].count {
            offset -= node.children[index].count
            index += 1
        }
        var children = node.children
        children.replaceSubrange(index...index, with: inserting(inserted, at: offset, into: children[index]))
        return chunks(of: children[...], capacity: branchCapacity).map { Node(children: Array($0)) }
    }

    /// `node` without the characters in `range`; nil when nothing is left.
    private static func removing(_ range: Range<Int>, from node: Node) -> Node? {
        if range.lowerBound <= 0 && range.upperBound >= node.count { return nil }
        if node.isLeaf {
            var characters = node.characters
            characters.removeSubrange(Swift.max(0, range.lowerBound)..<Swift.min(node.count, range.upperBound))
            return Node(characters: characters)
        }
        var children: [Node] = []
        var offset = 0
        for child in node.children {
            let childRange = offset..<(offset + child.count)
            offset += child.count
            guard childRange.overlaps(range) else {
                children.append(child)
                continue
            }
            let local = (range.lowerBound - childRange.lowerBound)..<(range.upperBound - childRange.lowerBound)
            if let kept = removing(local, from: child) { children.append(kept) }
        }
        return children.isEmpty ? nil : Node(children: children)
    }
}
