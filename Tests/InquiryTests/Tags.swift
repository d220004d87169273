import Testing

extension Tag {
    /// A test that pins a defect found in review or by hostile testing: it failed, or
    /// crashed, before its fix. It sits in its subject's suite. `swift test` on Linux
    /// selects by name only (`--filter` matches names), so the tag is for the reader and
    /// for tools that group tests by tag, such as Xcode's test navigator.
    @Tag static var regression: Self
}
