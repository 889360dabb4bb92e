# uncenterd in a container: a static-stdlib build on the official Swift image for
# Debian 12, run on debian:bookworm-slim as an unprivileged numeric user.
#
#   docker build -t uncenter .
#   docker run -d --name uncenterd -v uncenter-run:/run/uncenter -v uncenter-state:/var/lib/uncenter uncenter
#
# scripts/check-dockerfile-build.sh runs the same build script on a development machine
# and checks which shared libraries the result needs.

FROM swift:6.3.1-bookworm AS build
# libuv and SQLite are linked from their static archives; libsystemd-dev only gives the
# sd-bus header (the desktop bridge loads libsystemd at run time, and is off here: a
# container has no session bus).  The versions are Debian 12's current ones: bump them
# when a point release replaces them.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
       libuv1-dev=1.44.2-1+deb12u1 \
       libsqlite3-dev=3.40.1-2+deb12u2 \
       libsystemd-dev=252.38-1~deb12u1 \
       pkg-config=1.8.1-1 \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN scripts/build-static.sh .build/static \
    && install -D -m 0755 .build/static/release/uncenterd /out/uncenterd \
    && install -D -m 0755 .build/static/release/unctl /out/unctl

FROM debian:bookworm-slim
COPY --from=build /out/ /usr/local/bin/
# The socket directory and the state directory belong to the daemon's user so that named
# volumes mounted there start out writable by it.  Clients sharing the socket volume
# need group 10001 (the socket is 0660).  The state directory is the daemon's alone
# (0700): it refuses one that another user owns or may write, and tightens one others
# may read.
RUN install -d -o 10001 -g 10001 -m 0750 /run/uncenter \
    && install -d -o 10001 -g 10001 -m 0700 /var/lib/uncenter
USER 10001:10001
VOLUME ["/run/uncenter", "/var/lib/uncenter"]
ENV UNCENTER_SOCKET=/run/uncenter/uncenterd.sock
HEALTHCHECK --interval=30s --timeout=5s --start-period=5s --retries=3 CMD ["/usr/local/bin/unctl", "ping"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/uncenterd", "--socket", "/run/uncenter/uncenterd.sock", "--socket-mode", "0660", "--state", "/var/lib/uncenter"]
