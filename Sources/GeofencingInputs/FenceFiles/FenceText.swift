/// How values from a fence file are shown inside messages: quoted, through `InputText` (control characters escaped,
/// a newline in an identifier must not split a message in two; long values cut, so one bad cell cannot flood a
/// terminal).
package enum FenceText {
    /// A cell or JSON value as the file holds it: `'12abc'`.
    static func quotedValue(_ text: String) -> String {
        "'" + InputText.shown(text) + "'"
    }

    /// A cell given as UTF-8 bytes (possibly not valid UTF-8; invalid sequences show as U+FFFD).
    static func quotedValue(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        "'" + InputText.shown(bytes) + "'"
    }

    /// A region identifier: `"stop-1"`.
    package static func quotedIdentifier(_ identifier: String) -> String {
        "\"" + InputText.shown(identifier) + "\""
    }

    /// A value shown without quotes (a number in a JSON message), escaped and cut as the quoted ones.
    static func shortened(_ text: String) -> String {
        InputText.shown(text)
    }
}
