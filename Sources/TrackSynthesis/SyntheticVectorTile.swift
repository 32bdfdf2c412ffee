/// Mapbox Vector Tiles (MVT 2.1) written from known features, for the decoder's and the
/// renderer's tests: every value type, any extent and version, geometry given as absolute points
/// (the encoder writes the zigzag deltas) or as a raw command stream for hostile cases.
package enum SyntheticVectorTile {
    /// A property value, one case per field of the spec's `Value` message.
    package enum Value: Sendable {
        /// `string_value` (field 1).
        case string(String)
        /// `float_value` (field 2).
        case float(Float)
        /// `double_value` (field 3).
        case double(Double)
        /// `int_value` (field 4).
        case int(Int64)
        /// `uint_value` (field 5).
        case uint(UInt64)
        /// `sint_value` (field 6, zigzag).
        case sint(Int64)
        /// `bool_value` (field 7).
        case bool(Bool)
    }

    /// One geometry command with absolute points in tile units.
    package enum Command: Sendable {
        /// MoveTo (id 1) through the points.
        case moveTo([(x: Int32, y: Int32)])
        /// LineTo (id 2) through the points.
        case lineTo([(x: Int32, y: Int32)])
        /// ClosePath (id 7).
        case closePath
    }

    /// One feature.
    package struct Feature: Sendable {
        /// The id; nil writes none.
        package var id: UInt64?
        /// The geometry type number (0 unknown, 1 point, 2 line, 3 polygon; others for hostile tiles).
        package var type: UInt64
        /// The properties, written as tags into the layer's key and value tables.
        package var properties: [(key: String, value: Value)]
        /// The packed geometry integers (command integers and zigzag parameters).
        package var geometry: [UInt32]

        /// A feature with a raw geometry stream.
        package init(id: UInt64? = nil, type: UInt64, properties: [(key: String, value: Value)] = [], geometry: [UInt32]) {
            self.id = id
            self.type = type
            self.properties = properties
            self.geometry = geometry
        }

        /// A feature drawn by `commands` (deltas from a cursor starting at 0, 0, as the spec says).
        package init(id: UInt64? = nil, type: UInt64, properties: [(key: String, value: Value)] = [], commands: [Command]) {
            self.init(id: id, type: type, properties: properties, geometry: SyntheticVectorTile.geometry(commands))
        }

        /// A polygon feature: each ring written as MoveTo, LineTo, ClosePath (rings not closed).
        package static func polygon(id: UInt64? = nil, properties: [(key: String, value: Value)] = [], rings: [[(x: Int32, y: Int32)]]) -> Feature {
            Feature(
                id: id, type: 3, properties: properties,
                commands: rings.flatMap { ring -> [Command] in [.moveTo([ring[0]]), .lineTo(Array(ring.dropFirst())), .closePath] })
        }

        /// A line feature: each line written as MoveTo, LineTo.
        package static func lines(id: UInt64? = nil, properties: [(key: String, value: Value)] = [], _ lines: [[(x: Int32, y: Int32)]]) -> Feature {
            Feature(
                id: id, type: 2, properties: properties,
                commands: lines.flatMap { line -> [Command] in [.moveTo([line[0]]), .lineTo(Array(line.dropFirst()))] })
        }

        /// A point feature: one MoveTo through all the points.
        package static func points(id: UInt64? = nil, properties: [(key: String, value: Value)] = [], _ points: [(x: Int32, y: Int32)]) -> Feature {
            Feature(id: id, type: 1, properties: properties, commands: [.moveTo(points)])
        }
    }

    /// One layer.
    package struct Layer: Sendable {
        /// The name; nil writes none (a broken layer).
        package var name: String?
        /// The version field.
        package var version: UInt64
        /// The extent field; nil writes none (the spec's default, 4096).
        package var extent: UInt64?
        /// The features.
        package var features: [Feature]

        /// Creates a layer.
        package init(name: String?, version: UInt64 = 2, extent: UInt64? = 4096, features: [Feature]) {
            self.name = name
            self.version = version
            self.extent = extent
            self.features = features
        }
    }

    /// The command integer of command `id` repeated `count` times.
    package static func command(_ id: UInt32, count: UInt32) -> UInt32 { id & 7 | count << 3 }

    /// The zigzag encoding of `value` (0, -1, 1, -2 → 0, 1, 2, 3).
    package static func zigzag(_ value: Int32) -> UInt32 { UInt32(bitPattern: (value << 1) ^ (value >> 31)) }

    /// The packed geometry of `commands`.
    package static func geometry(_ commands: [Command]) -> [UInt32] {
        var cursor: (x: Int32, y: Int32) = (0, 0)
        var stream: [UInt32] = []
        for command in commands {
            switch command {
            case .moveTo(let points), .lineTo(let points):
                let id: UInt32 = if case .moveTo = command { 1 } else { 2 }
                stream.append(Self.command(id, count: UInt32(points.count)))
                for point in points {
                    stream += [zigzag(point.x &- cursor.x), zigzag(point.y &- cursor.y)]
                    cursor = point
                }
            case .closePath: stream.append(Self.command(7, count: 1))
            }
        }
        return stream
    }

    /// The tile's bytes (uncompressed).
    package static func encode(_ layers: [Layer]) -> [UInt8] {
        var tile = ProtobufWriter()
        for layer in layers { tile.message(3, encode(layer)) }
        return tile.bytes
    }

    private static func encode(_ layer: Layer) -> [UInt8] {
        var keys: [String] = []
        var values: [[UInt8]] = []
        var message = ProtobufWriter()
        message.varintField(15, layer.version)
        if let name = layer.name { message.message(1, Array(name.utf8)) }
        for feature in layer.features {
            var tags: [UInt32] = []
            for (key, value) in feature.properties {
                let keyIndex =
                    keys.firstIndex(of: key)
                    ?? {
                        keys.append(key); return keys.count - 1
                    }()
                let encoded = encode(value)
                let valueIndex =
                    values.firstIndex(of: encoded)
                    ?? {
                        values.append(encoded); return values.count - 1
                    }()
                tags += [UInt32(keyIndex), UInt32(valueIndex)]
            }
            var body = ProtobufWriter()
            if let id = feature.id { body.varintField(1, id) }
            if !tags.isEmpty { body.packed(2, tags) }
            body.varintField(3, feature.type)
            body.packed(4, feature.geometry)
            message.message(2, body.bytes)
        }
        for key in keys { message.message(3, Array(key.utf8)) }
        for value in values { message.message(4, value) }
        if let extent = layer.extent { message.varintField(5, extent) }
        return message.bytes
    }

    private static func encode(_ value: Value) -> [UInt8] {
        var message = ProtobufWriter()
        switch value {
        case .string(let text): message.message(1, Array(text.utf8))
        case .float(let number):
            message.key(2, wireType: 5)
            for k in 0..<4 { message.bytes.append(UInt8(truncatingIfNeeded: number.bitPattern >> (8 * UInt32(k)))) }
        case .double(let number):
            message.key(3, wireType: 1)
            for k in 0..<8 { message.bytes.append(UInt8(truncatingIfNeeded: number.bitPattern >> (8 * UInt64(k)))) }
        case .int(let number): message.varintField(4, UInt64(bitPattern: number))
        case .uint(let number): message.varintField(5, number)
        case .sint(let number): message.varintField(6, UInt64(bitPattern: (number << 1) ^ (number >> 63)))
        case .bool(let flag): message.varintField(7, flag ? 1 : 0)
        }
        return message.bytes
    }
}

/// The protobuf wire format, written (the product only reads it).
package struct ProtobufWriter: Sendable {
    /// The bytes written so far.
    package var bytes: [UInt8] = []

    /// An empty message.
    package init() {}

    /// A varint.
    package mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// A field key.
    package mutating func key(_ field: UInt64, wireType: UInt64) { varint(field << 3 | wireType) }

    /// A varint field.
    package mutating func varintField(_ field: UInt64, _ value: UInt64) {
        key(field, wireType: 0)
        varint(value)
    }

    /// A length-delimited field.
    package mutating func message(_ field: UInt64, _ body: [UInt8]) {
        key(field, wireType: 2)
        varint(UInt64(body.count))
        bytes += body
    }

    /// A packed repeated uint32 field.
    package mutating func packed(_ field: UInt64, _ values: [UInt32]) {
        var body = ProtobufWriter()
        for value in values { body.varint(UInt64(value)) }
        message(field, body.bytes)
    }
}
