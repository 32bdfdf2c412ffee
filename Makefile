# TrackSnap. `make thumbnails` and `make test` are all a new user needs (see README.md).
SHELL := /bin/bash
SWIFT ?= swift
ARCHIVE ?= Jobs/samples
OUTPUT ?= Output
JOBS ?= Jobs
WORKERS ?=
RELEASE_BIN := .build/release
# The Swift runtime linked in statically: `tracksnap --version` starts in ~2 ms instead of ~5 ms
# (no shared Swift libraries to find, map and relocate). Every release product is built with the
# same flags, so switching between them never recompiles the package.
RELEASE_FLAGS := -c release --static-swift-stdlib
TRACKSNAP := $(RELEASE_BIN)/tracksnap

.PHONY: thumbnails test soak test-slurm bench bench-cold-listing vector-tiles raster-tiles golden samples deps build release install lint clean serve fuzz check-site

## Install the system packages the build needs (libpng-dev), or say exactly how.
deps:
	@bash scripts/ensure-deps.sh libpng-dev zlib1g-dev libsqlite3-dev libjpeg62-turbo-dev libdeflate-dev pkg-config tzdata

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product tracksnap

## Install tracksnap (and tracksnap-dev, the generators and benchmarks) into $(PREFIX)/bin
## (default /usr/local; `make install PREFIX=$$HOME/.local` needs no root). DESTDIR is honoured.
PREFIX ?= /usr/local
install: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product tracksnap
	$(SWIFT) build $(RELEASE_FLAGS) --product tracksnap-dev
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 0755 $(RELEASE_BIN)/tracksnap $(RELEASE_BIN)/tracksnap-dev "$(DESTDIR)$(PREFIX)/bin/"
	@echo "Installed tracksnap and tracksnap-dev in $(DESTDIR)$(PREFIX)/bin$$(case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo " (not on your PATH: add it)";; esac)"

## Queue every track in $(ARCHIVE) (default: the samples) and render them into $(OUTPUT)/ with
## $(WORKERS) worker processes (default: one per core); refreshes index.html and index.json.
## With an ARCHIVE of your own, the samples an earlier `make thumbnails` queued are forgotten first,
## so they leave the site instead of mixing with your tracks.
SAMPLES := $(abspath Jobs/samples)
thumbnails: release
	@if [ "$(abspath $(ARCHIVE))" != "$(SAMPLES)" ] && [ -f "$(JOBS)/.archive-index" ]; then \
	    if cut -f1 "$(JOBS)/.archive-index" | grep -qF "$(SAMPLES)/"; then \
	        echo "Taking the sample tracks off the site: your archive replaces them"; \
	        cut -f1 "$(JOBS)/.archive-index" | grep -F "$(SAMPLES)/" | xargs -d '\n' "$(TRACKSNAP)" forget --jobs "$(JOBS)"; \
	    fi; \
	fi
	$(TRACKSNAP) enqueue $(ARCHIVE) --jobs $(JOBS)
	$(TRACKSNAP) run --jobs $(JOBS) --output $(OUTPUT) $(if $(WORKERS),--workers $(WORKERS))

## Style and layering: `swift format lint --strict` with the checked-in .swift-format (4 spaces,
## lines up to 150 columns), then scripts/check-imports.py (each target's imports against the
## "may import" column of ARCHITECTURE.md's target table), then scripts/check-doc-links.py (every
## relative link and #anchor in README.md, ARCHITECTURE.md and docs/ resolves).
# .swift-format turns off six rules the house breaks on purpose (JSON has no comments, so the why is here):
#   DoNotUseSemicolons             one step of a table a line: SHA-256 rounds (`h0 &+= a; h1 &+= b; ...`),
#                                  ZIP/FIT headers written field by field, UTF-8 lead-byte cases.
#   OneVariableDeclarationPerLine  paired accumulators and coordinates declared together
#                                  (`var minX = 0.0, maxX = 0.0`) read as the pair they are.
#   OneCasePerLine                 raw-value enums mirroring a file format list the format's names in one line.
#   UseLetInEveryBoundCaseVariable the house writes `case let .claimed(job, attempt)`, one `let` for the pattern.
#   ReplaceForEachWithForLoop      one-call cleanups in `defer { argv.forEach { free($0) } }` stay one line.
#   AlwaysUseLowerCamelCase        C ABI entry points keep their C names (`LLVMFuzzerRunDriver` in tracksnap-fuzz).
# Line length 150: the code's lines measure p99 148 columns (comments wrap at 100 by hand); the few
# longer lines were wrapped by `swift format` itself.
LINT_SOURCES = $(shell find Sources Tests -name '*.swift' | sort)
lint:
	$(SWIFT) format lint --strict --parallel --recursive $(LINT_SOURCES) Package.swift
	python3 scripts/check-imports.py
	python3 scripts/check-doc-links.py

## Unit, reader, raster, PNG and end-to-end tests, then the site in headless Chromium
## (scripts/site-check.sh; screenshots in $(OUTPUT)/.checks/), then twelve nights with faults (soak).
## The unit tests run the debug build; the end-to-end tests, the site check and the soak run the
## release binaries users run (TRACKSNAP_TEST_BIN): 5-10x faster renders keep CI within 20 minutes.
test: deps
	@bash scripts/ensure-deps.sh chromium
	$(SWIFT) build --build-tests
	$(SWIFT) build $(RELEASE_FLAGS)
	TRACKSNAP_TEST_BIN=$(RELEASE_BIN) $(SWIFT) test --skip-build
	SCREENSHOTS=$(OUTPUT)/.checks bash scripts/site-check.sh $(RELEASE_BIN)/tracksnap
	python3 scripts/soak.py --bin $(RELEASE_BIN) --seed $(SOAK_SEED) --nights $(SOAK_NIGHTS)

## Many nights of a deployment with a random fault each (kill -9, SIGTERM, disk full, a listing or
## a second run during the run, retry --all), then the site must equal a clean run of the final
## archive (scripts/soak.py). `make test` runs one fixed seed; try others with SOAK_SEED=N.
SOAK_SEED ?= 1
SOAK_NIGHTS ?= 12
soak: build
	python3 scripts/soak.py --bin .build/debug --seed $(SOAK_SEED) --nights $(SOAK_NIGHTS)

## The shipped Slurm files (deploy/slurm/) on a real one-node Slurm cluster started for the check:
## the samples sharded over 4 array tasks and compared with a single-machine run, then the fault
## drills (scancel + requeue, a node failure, 1 and 8 tasks, an early listing) over 300 generated
## tracks. Installs slurm-wlm and munge when missing; changes nothing outside .slurm-check/ and /tmp.
## SLURM_CHECK_SPEED=1 adds the 1/2/4-task timings over 2,000 tracks.
test-slurm: deps
	$(SWIFT) build $(RELEASE_FLAGS)
	rm -rf .slurm-check
	SLURM_CHECK_FAULTS=1 bash scripts/slurm-check.sh $(ARCHIVE) .slurm-check/Output 4

## Check the site already in $(OUTPUT)/ in headless Chromium (images, console, links; screenshots).
check-site:
	@bash scripts/ensure-deps.sh chromium
	/usr/bin/python3 scripts/browser_check.py $(OUTPUT) $(OUTPUT)/.checks

## Per-stage medians and tracks/s for fixed generated tracks (release build), plus Mapnik on the same tracks.
## The vector section also needs tilemaker (the OpenMapTiles tiles of ../shared/maps' Liechtenstein extract).
bench: deps
	@bash scripts/ensure-deps.sh time python3-mapnik || echo "bench: Mapnik is not installed; its column will be empty"
	@bash scripts/ensure-deps.sh tilemaker || echo "bench: tilemaker is not installed; the vector section is skipped"
	$(SWIFT) build $(RELEASE_FLAGS)
	$(RELEASE_BIN)/tracksnap-dev bench --work .bench

## The listing benchmark's cold listing (100,000 tracks, no state) on a fresh ext4 of its own with the
## page cache emptied, as a first listing of a real archive runs (root: mounts a loop device).
## COLD_LISTING_FROM=.bench/listing-100000 copies an earlier run's jobs and records instead of making them.
bench-cold-listing: deps
	$(SWIFT) build $(RELEASE_FLAGS)
	bash scripts/cold-listing-bench.sh $(RELEASE_BIN)/tracksnap-dev

## The vector benchmark's map (issue 23) and issue 24's raster map drawn from it with Mapnik
## (8-bit palette PNG tiles, zooms 10-16), in .bench/ (generated data, not in git).
vector-tiles:
	bash scripts/vector-tiles.sh .bench/vector/liechtenstein.mbtiles
raster-tiles: vector-tiles
	@bash scripts/ensure-deps.sh python3-mapnik
	/usr/bin/python3 scripts/raster-tiles-from-vector.py .bench/raster/liechtenstein-osm.mbtiles --vector .bench/vector/liechtenstein.mbtiles

## Regenerate the golden images on purpose (tests compare against them with a stated tolerance):
## GoldenImageTests (tracks on the grid), VectorGoldenImageTests (the built-in map styles over Vaduz) and
## OverviewGoldenImageTests (a heat map over the Vaduz map).
golden: deps
	TRACKSNAP_WRITE_GOLDEN=1 $(SWIFT) test --filter GoldenImageTests

## Rewrite Jobs/samples/ from the generator (the files are committed; run after changing it).
samples:
	$(SWIFT) build --product tracksnap-dev
	.build/debug/tracksnap-dev samples $(ARCHIVE)

## Preview Output/ at http://127.0.0.1:8000/ (paths starting with a dot, such as .tracksnap/, are refused)
serve:
	python3 scripts/serve.py $(OUTPUT) --port 8000 --bind 127.0.0.1

clean:
	rm -rf .build .bench
	find $(OUTPUT) -mindepth 1 ! -name .gitkeep -delete

# Fuzz every reader with libFuzzer + AddressSanitizer from Fuzz/seeds/ (FUZZ_SECONDS per reader,
# default 600; FUZZ_READERS to pick; FUZZ_PARALLEL at a time). Findings land in Fuzz/findings/.
FUZZ_SECONDS ?= 600
FUZZ_READERS ?= gpx csv tcx fit kml kmz geojson gzip
fuzz: deps
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_READERS="$(FUZZ_READERS)" bash scripts/fuzz.sh
