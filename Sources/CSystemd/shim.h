#ifndef UNCENTER_CSYSTEMD_SHIM_H
#define UNCENTER_CSYSTEMD_SHIM_H
/// sd-bus from libsystemd, loaded at run time.
///
/// The daemon is also built statically for a bare container image (scripts/build-static.sh),
/// and Debian ships no static libsystemd; the desktop is off there anyway.  So nothing
/// links libsystemd: the declarations come from libsystemd-dev's header, and the
/// functions the desktop bridge uses are looked up with dlopen/dlsym the first time a
/// bus is opened.  A machine without libsystemd.so.0 gets a precise error instead of a
/// binary that does not start.
///
/// Only the non-variadic functions are listed: Swift cannot call C variadics, so
/// messages are built with sd_bus_message_append_basic and containers.
#include <systemd/sd-bus.h>
#include <dlfcn.h>
#include <stdint.h>

#define UNCENTER_SDBUS_FUNCTIONS(X) \
  X(sd_bus_new) \
  X(sd_bus_open_user) \
  X(sd_bus_set_address) \
  X(sd_bus_set_bus_client) \
  X(sd_bus_start) \
  X(sd_bus_get_fd) \
  X(sd_bus_get_events) \
  X(sd_bus_get_timeout) \
  X(sd_bus_process) \
  X(sd_bus_flush) \
  X(sd_bus_close_unref) \
  X(sd_bus_call_async) \
  X(sd_bus_match_signal_async) \
  X(sd_bus_slot_unref) \
  X(sd_bus_slot_set_floating) \
  X(sd_bus_slot_set_destroy_callback) \
  X(sd_bus_message_new_method_call) \
  X(sd_bus_message_append_basic) \
  X(sd_bus_message_open_container) \
  X(sd_bus_message_close_container) \
  X(sd_bus_message_enter_container) \
  X(sd_bus_message_exit_container) \
  X(sd_bus_message_read_basic) \
  X(sd_bus_message_unref) \
  X(sd_bus_message_get_sender) \
  X(sd_bus_message_get_member) \
  X(sd_bus_message_get_error) \
  X(sd_bus_message_is_method_error)

/// The functions, by their own names, with their header's types.
typedef struct uncenter_sdbus {
#define UNCENTER_SDBUS_FIELD(name) __typeof__(&name) _Nonnull name;
  UNCENTER_SDBUS_FUNCTIONS(UNCENTER_SDBUS_FIELD)
#undef UNCENTER_SDBUS_FIELD
} uncenter_sdbus;

/// Fills `table`; returns NULL, or what was missing (dlerror's text) on failure.
/// The library stays loaded for the life of the process (never dlclose'd).
static inline const char *_Nullable uncenter_sdbus_load(uncenter_sdbus *_Nonnull table) {
  void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!library) return dlerror();
#define UNCENTER_SDBUS_LOAD(name) \
  table->name = (__typeof__(&name))dlsym(library, #name); \
  if (!table->name) return dlerror();
  UNCENTER_SDBUS_FUNCTIONS(UNCENTER_SDBUS_LOAD)
#undef UNCENTER_SDBUS_LOAD
  return 0;
}

/// The error of an sd_bus_error, or NULL: its fields are what Swift reads.
static inline const char *_Nullable uncenter_sdbus_error_name(const sd_bus_error *_Nullable e) {
  return e ? e->name : 0;
}
static inline const char *_Nullable uncenter_sdbus_error_message(const sd_bus_error *_Nullable e) {
  return e ? e->message : 0;
}

#endif
