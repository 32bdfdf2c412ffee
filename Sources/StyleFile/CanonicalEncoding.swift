/// A canonical byte form of an `Encodable` value, made to be hashed (`ThumbnailSettings.fingerprint`):
/// the same value gives the same bytes with every toolchain. Members are sorted by the UTF-8
/// bytes of their keys; integers are written in decimal; floating-point numbers as their IEEE 754
/// bit pattern in hex (no formatting to drift); strings and keys with their UTF-8 length first, so
/// no text needs escaping. Not meant to be read back. For example:
///
///     {k5:scale=d3ff0000000000000;k4:name=s3:run;k4:tags=[s1:a;s1:b;];}
///
// Not `JSONEncoder` with `.sortedKeys`: it formats doubles through their `description` and its
// output (number forms, escaping) is Foundation's to change; a changed byte changes every key.
enum CanonicalEncoding {
    /// The canonical bytes of `value`.
    static func bytes(of value: some Encodable) -> [UInt8] {
        let root = Node()
        do {
            try value.encode(to: CanonicalEncoder(node: root, codingPath: []))
        } catch {
            // The encoder never throws; only a type's own `encode(to:)` could, and none of the
            // settings' types does.
            preconditionFailure("a settings value could not be encoded: \(error)")
        }
        var text = ""
        root.write(into: &text)
        return Array(text.utf8)
    }

    /// One encoded value: a scalar, an object (members by key) or a list.
    final class Node {
        var scalar: String?
        var members: [String: Node]?
        var items: [Node]?

        func write(into text: inout String) {
            if let scalar {
                text += scalar
            } else if let members {
                text += "{"
                for key in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                    text += "k\(key.utf8.count):\(key)="
                    members[key]!.write(into: &text)
                    text += ";"
                }
                text += "}"
            } else if let items {
                text += "["
                for item in items {
                    item.write(into: &text)
                    text += ";"
                }
                text += "]"
            } else {
                text += "e"  // a value that encoded nothing
            }
        }
    }

    /// The scalar form of a primitive value; nil for a value that encodes itself.
    static func scalar(_ value: some Encodable) -> String? {
        switch value {
        case let flag as Bool: flag ? "t" : "f"
        case let text as String: "s\(text.utf8.count):\(text)"
        case let number as Double: "d" + String(number.bitPattern, radix: 16)
        case let number as Float: "f" + String(number.bitPattern, radix: 16)
        case let number as any BinaryInteger: "i\(number)"
        default: nil
        }
    }

    /// Encodes `value` into `node`: its scalar form, or whatever its `encode(to:)` writes.
    static func encode(_ value: some Encodable, into node: Node, codingPath: [any CodingKey]) throws {
        if let scalar = scalar(value) {
            node.scalar = scalar
        } else {
            try value.encode(to: CanonicalEncoder(node: node, codingPath: codingPath))
        }
    }
}

/// The `Encoder` that fills a `CanonicalEncoding.Node`.
private struct CanonicalEncoder: Encoder {
    let node: CanonicalEncoding.Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.members == nil { node.members = [:] }
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.items == nil { node.items = [] }
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(node: node, codingPath: codingPath) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: CanonicalEncoding.Node
    let codingPath: [any CodingKey]

    private func child(_ key: Key) -> CanonicalEncoding.Node {
        let child = CanonicalEncoding.Node()
        node.members![key.stringValue] = child
        return child
    }

    mutating func encodeNil(forKey key: Key) throws { child(key).scalar = "n" }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try CanonicalEncoding.encode(value, into: child(key), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        CanonicalEncoder(node: child(key), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        CanonicalEncoder(node: child(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = CanonicalEncoding.Node()
        node.members!["super"] = child
        return CanonicalEncoder(node: child, codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder { CanonicalEncoder(node: child(key), codingPath: codingPath + [key]) }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: CanonicalEncoding.Node
    let codingPath: [any CodingKey]
    var count: Int { node.items!.count }

    private func next() -> CanonicalEncoding.Node {
        let child = CanonicalEncoding.Node()
        node.items!.append(child)
        return child
    }

    mutating func encodeNil() throws { next().scalar = "n" }

    mutating func encode<T: Encodable>(_ value: T) throws { try CanonicalEncoding.encode(value, into: next(), codingPath: codingPath) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        CanonicalEncoder(node: next(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        CanonicalEncoder(node: next(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { CanonicalEncoder(node: next(), codingPath: codingPath) }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let node: CanonicalEncoding.Node
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.scalar = "n" }

    mutating func encode<T: Encodable>(_ value: T) throws { try CanonicalEncoding.encode(value, into: node, codingPath: codingPath) }
}
