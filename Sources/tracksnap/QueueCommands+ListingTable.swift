import BatchRun

extension QueueCommands {
    /// `listing`'s declaration: its options, their help, and where each value goes. It takes
    /// `run`'s options so one argument list serves both (the deploy files pass the same); those
    /// that change nothing in a listing are accepted but not shown.
    static var listingTable: CommandTable<ListingArguments> {
        CommandTable(
            name: "listing", summary: "Rebuild the listing from all finished jobs (the fan-in step after sharded runs).",
            operands: .none(),
            options: listingTableOptions,
            description: """
                Rebuilds the site (index.html, page-N.html, tracks/<id>.html, site.css, index.json) from
                every finished job and removes images no track references any more. Sharded runs refresh
                the listing but never prune; run this once after all shards have finished. Files of the
                site found deleted or edited since the listing wrote them are written again.

                Style and basemap options are part of every image's cache key. Without any, the listing
                uses the settings the runs recorded in OUTPUT/.tracksnap/settings. Given ones that differ
                from those, it changes nothing, names the difference and exits 2 (it would find none of
                the runs' images, unlist every track and prune its images and pages); with
                --override-settings it lists under the given settings all the same.

                DIR must be a job queue (a new/ folder inside). When it has no finished job but the site
                lists tracks, nothing is changed and the exit status is 2 (a wrong --jobs or an unmounted
                share would otherwise delete every image and page); --allow-empty publishes the empty
                site anyway.
                """,
            defaults: ListingArguments(),
            finish: { arguments, _ in
                var configuration = arguments.configuration
                configuration.listingSettingsGiven = !arguments.style.isEmpty || arguments.basemap.givesSettings
                try arguments.style.apply(to: &configuration)
                try arguments.basemap.apply(to: &configuration, checking: false)
                if let problem = configuration.foldersProblem { throw UsageError(message: "listing: " + problem) }
                return .listing(configuration)
            })
    }

    /// `listing`'s options in the order the usage and the help show them.
    private static var listingTableOptions: [CommandOption<ListingArguments>] {
        let configuration: WritableKeyPath<ListingArguments, RunConfiguration> = \.configuration
        var options = folderOptions.map { $0.lifted(configuration) }
        options += listingOptions.map { $0.lifted(configuration) }
        // Without any of these, the listing uses the settings the runs recorded.
        let recorded = "the runs' (OUTPUT/.tracksnap/settings)"
        options += StyleChoice.options.map { $0.lifted(\.style).withDefault(recorded) }
        options += BasemapChoice.sourceOptions.map { $0.lifted(\.basemap).withDefault(recorded) }
        options += [
            .flag(
                "--override-settings", help: "list under the given style and basemap options even where they differ from the runs'",
                sets: \.configuration.overridesRecordedSettings),
            .flag(
                "--allow-empty", help: "publish an empty site when the queue has no finished job but the site lists tracks",
                sets: \.configuration.allowsEmptySite),
        ]
        options += BasemapChoice.fetchOptions(tileCacheDefault: "").map { $0.lifted(\.basemap).withRole(.hidden) }
        options += tuningOptions.map { $0.lifted(configuration).withRole(.hidden) }
        return options
    }
}
