/// Why a style document cannot be used, and where: the layer (index and id) and the key path in it.
package struct MapStyleError: Error, Sendable, CustomStringConvertible {
    /// Where in the document: `layers[12] "road_major" paint.line-width[3]`, or a top-level key.
    package var location: String
    /// What was expected and what was found.
    package var problem: String

    /// "location: problem".
    package var description: String { location.isEmpty ? problem : "\(location): \(problem)" }
}

/// Something of a style that is not drawn (a layer type, a property): the style is still used.
package struct MapStyleWarning: Equatable, Sendable, CustomStringConvertible {
    /// The id of the layer concerned.
    package var layerID: String
    /// What is not drawn, and why.
    package var message: String

    /// "layer \"id\": message".
    package var description: String { "layer \"\(layerID)\": \(message)" }
}
