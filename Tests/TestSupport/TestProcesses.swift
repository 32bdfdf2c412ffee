import Foundation

/// Helpers several test targets need (a test target cannot import another's): processes and
/// files the tests set up around the product, never the product itself.

/// The pid of a process that has exited (for claims and temporaries of a dead worker).
public func deadProcessIdentifier() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
}

/// Rewrites `path` in place (same inode), as an editor saving over the file does.
public func editInPlace(_ path: String, _ text: String) throws {
    guard let handle = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileNoSuchFile) }
    handle.truncateFile(atOffset: 0)
    handle.write(Data(text.utf8))
    handle.closeFile()
}

/// Runs `body` while a second process holds an exclusive SQLite lock on `path` (as a writer
/// such as a tile downloader does), released when `body` returns.
public func holdingWriteLock(on path: String, _ body: () throws -> Void) throws {
    let locker = Process()
    locker.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    locker.arguments = [
        "-c",
        "import sqlite3,sys\nc=sqlite3.connect(sys.argv[1],isolation_level=None)\nc.execute('BEGIN EXCLUSIVE')\nc.execute('UPDATE metadata SET value=value')\nprint('locked',flush=True)\nsys.stdin.read()",
        path,
    ]
    let output = Pipe(), input = Pipe()
    locker.standardOutput = output
    locker.standardInput = input
    try locker.run()
    defer {
        try? input.fileHandleForWriting.close()
        locker.waitUntilExit()
    }
    let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    guard line.contains("locked") else { throw CocoaError(.fileLocking) }
    try body()
}
