/// The version of homes and of the framework it ships with: the one place it is written.
///
/// `CHANGELOG.md`'s newest heading names it (a `-dev` version is the unreleased one), and
/// a release is tagged with it; `TranscriptTests.theVersionIsTheChangelogsNewest` checks
/// the first, `.ci/run` compares the public API with the last tag.
let releaseVersion = "0.3.0-dev"
