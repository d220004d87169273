import Testing
import XCTest

/// Reports a failed signal assertion to whichever test framework is running:
/// Swift Testing when called from a `@Test`, XCTest otherwise.
func reportFailure(
    _ message: String,
    fileID: String,
    filePath: StaticString,
    line: UInt,
    column: UInt
) {
    if Test.current != nil {
        Issue.record(
            Comment(rawValue: message),
            sourceLocation: SourceLocation(
                fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column)
            )
        )
    } else {
        XCTFail(message, file: filePath, line: line)
    }
}
