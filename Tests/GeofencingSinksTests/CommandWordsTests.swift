import Testing

@testable import GeofencingSinks

@Suite struct CommandWordsTests {
    @Test(arguments: [
        ("notify  a\tb\nc ", ["notify", "a", "b", "c"]),
        ("echo 'a b' c", ["echo", "a b", "c"]),
        (#"say "a \"b\" \$HOME \` \\ \x""#, ["say", #"a "b" $HOME ` \ \x"#]),
        (#"a\ b c\;d \'e"#, ["a b", "c;d", "'e"]),
        ("'it''s' \"x\"'y'z", ["its", "xyz"]),
        ("a'b c'd", ["ab cd"]),
        ("cmd '' \"\"", ["cmd", "", ""]),
        ("line\\\ncontinued \"in\\\nside\"", ["linecontinued", "inside"]),
        ("'single \\ keeps' \"double \\n keeps\"", ["single \\ keeps", "double \\n keeps"]),
    ])
    func splitsLikeSh(command: String, words: [String]) throws {
        #expect(try CommandWords.split(command) == words)
    }

    /// Nothing sh would expand or interpret is special: each is part of a word.
    @Test(arguments: [
        ("a;b", ["a;b"]),
        ("notify x | tee > out & rm -rf ~ *", ["notify", "x", "|", "tee", ">", "out", "&", "rm", "-rf", "~", "*"]),
        ("echo $(touch /tmp/x) `id` $HOME ${PATH}", ["echo", "$(touch", "/tmp/x)", "`id`", "$HOME", "${PATH}"]),
        ("a#b # not a comment", ["a#b", "#", "not", "a", "comment"]),
        ("x<y (z) {w} ?", ["x<y", "(z)", "{w}", "?"]),
    ])
    func expandsNothing(command: String, words: [String]) throws {
        #expect(try CommandWords.split(command) == words)
    }

    @Test(arguments: [
        ("echo 'open", "unterminated single quote"),
        ("echo \"open", "unterminated double quote"),
        ("echo \"open\\\"", "unterminated double quote"),
        ("echo trailing\\", "lone backslash"),
        ("", "no words"),
        (" \t\n ", "no words"),
    ])
    func rejects(command: String, problem: String) throws {
        let error = try #require(throws: SinkError.self) { try CommandWords.split(command) }
        #expect(error.sink == "exec")
        #expect(error.message.contains(problem), "\(error)")
    }
}
