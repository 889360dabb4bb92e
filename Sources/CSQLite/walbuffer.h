#ifndef UNCENTER_CSQLITE_WALBUFFER_H
#define UNCENTER_CSQLITE_WALBUFFER_H
/*
 * A VFS over the default one whose write-ahead log gathers what SQLite writes into it in
 * memory and hands it to the kernel in one pwrite at the end of each commit
 * (uncenter_wal_flush, which SQLiteStore.commit calls before it returns), instead of two
 * per frame (SQLite writes a frame's 24-byte header, then its page).  A commit of many
 * requests is then a write per 120 KiB instead of two per page, and the kernel copies
 * whole runs of pages instead of unaligned pieces.
 *
 * Every other file (the database) is the default VFS's own.  Nothing is reordered: the
 * buffer holds one contiguous run of the log; a write elsewhere, a read, a sync, a size
 * query, a truncation or closing the file writes the run out first, so SQLite always
 * reads what it wrote.  Durability is unchanged: a commit's frames reach the kernel
 * before SQLiteStore.commit returns (with synchronous=FULL SQLite syncs the log inside the
 * commit, which writes the run out first).
 */
#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#define UNCENTER_WAL_VFS "uncenter-wal"
#define UNCENTER_WAL_BUFFER (2 * 1024 * 1024)

typedef struct uncenter_wal_file {
  sqlite3_file base;     /* pMethods: uncenter_wal_methods() */
  sqlite3_file *inner;   /* the default VFS's file, which follows this header */
  unsigned char *buffer; /* bytes not written yet, from offset `start` on */
  int used;
  sqlite3_int64 start;
} uncenter_wal_file;

/* Where the default VFS's file starts in ours (8-byte aligned). */
#define UNCENTER_WAL_HEADER ((sizeof(uncenter_wal_file) + 7) & ~(size_t)7)

/* The most one write hands the default VFS: it writes at most 0x1ffff bytes per call and
 * takes a remainder whose low 17 bits are zero for a full disk. */
#define UNCENTER_WAL_CHUNK (120 * 1024)

static inline int uncenter_wal_write_out(uncenter_wal_file *f) {
  int rc = SQLITE_OK;
  for (int at = 0; at < f->used && rc == SQLITE_OK; at += UNCENTER_WAL_CHUNK) {
    int amount = f->used - at < UNCENTER_WAL_CHUNK ? f->used - at : UNCENTER_WAL_CHUNK;
    rc = f->inner->pMethods->xWrite(f->inner, f->buffer + at, amount, f->start + at);
  }
  f->used = 0;
  return rc;
}

static int uncenter_wal_close(sqlite3_file *file) {
  uncenter_wal_file *f = (uncenter_wal_file *)file;
  int rc = uncenter_wal_write_out(f);
  int closed = f->inner->pMethods->xClose(f->inner);
  free(f->buffer);
  f->buffer = NULL;
  return rc != SQLITE_OK ? rc : closed;
}

static int uncenter_wal_read(sqlite3_file *file, void *out, int amount, sqlite3_int64 offset) {
  uncenter_wal_file *f = (uncenter_wal_file *)file;
  int rc = uncenter_wal_write_out(f);
  return rc != SQLITE_OK ? rc : f->inner->pMethods->xRead(f->inner, out, amount, offset);
}

static int uncenter_wal_write(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset) {
  uncenter_wal_file *f = (uncenter_wal_file *)file;
  int rc;
  /* Only a write that continues the run joins it. */
  if (f->used > 0 && (offset != f->start + f->used || amount > UNCENTER_WAL_BUFFER - f->used)) {
    if ((rc = uncenter_wal_write_out(f)) != SQLITE_OK) return rc;
  }
  if (f->buffer == NULL || amount > UNCENTER_WAL_CHUNK) {
    return f->inner->pMethods->xWrite(f->inner, data, amount, offset);
  }
  if (f->used == 0) f->start = offset;
  memcpy(f->buffer + f->used, data, (size_t)amount);
  f->used += amount;
  return SQLITE_OK;
}

static int uncenter_wal_truncate(sqlite3_file *file, sqlite3_int64 size) {
  uncenter_wal_file *f = (uncenter_wal_file *)file;
  int rc = uncenter_wal_write_out(f);
  return rc != SQLITE_OK ? rc : f->inner->pMethods->xTruncate(f->inner, size);
}

static int uncenter_wal_sync(sqlite3_file *file, int flags) {
  uncenter_wal_file *f = (uncenter_wal_file *)file;
  int rc = uncenter_wal_write_out(f);
  return rc != SQLITE_OK ? rc : f->inner->pMethods->xSync(f->inner, flags);
}

static int uncenter_wal_file_size(sqlite3_file *file, sqlite3_int64 *size) {
  uncenter_wal_file *f = (uncenter_wal_file *)file;
  int rc = uncenter_wal_write_out(f);
  return rc != SQLITE_OK ? rc : f->inner->pMethods->xFileSize(f->inner, size);
}

static int uncenter_wal_lock(sqlite3_file *file, int level) {
  sqlite3_file *inner = ((uncenter_wal_file *)file)->inner;
  return inner->pMethods->xLock(inner, level);
}

static int uncenter_wal_unlock(sqlite3_file *file, int level) {
  sqlite3_file *inner = ((uncenter_wal_file *)file)->inner;
  return inner->pMethods->xUnlock(inner, level);
}

static int uncenter_wal_check_reserved_lock(sqlite3_file *file, int *out) {
  sqlite3_file *inner = ((uncenter_wal_file *)file)->inner;
  return inner->pMethods->xCheckReservedLock(inner, out);
}

static int uncenter_wal_file_control(sqlite3_file *file, int op, void *arg) {
  uncenter_wal_file *f = (uncenter_wal_file *)file;
  int rc = uncenter_wal_write_out(f);
  return rc != SQLITE_OK ? rc : f->inner->pMethods->xFileControl(f->inner, op, arg);
}

static int uncenter_wal_sector_size(sqlite3_file *file) {
  sqlite3_file *inner = ((uncenter_wal_file *)file)->inner;
  return inner->pMethods->xSectorSize(inner);
}

static int uncenter_wal_device_characteristics(sqlite3_file *file) {
  sqlite3_file *inner = ((uncenter_wal_file *)file)->inner;
  return inner->pMethods->xDeviceCharacteristics(inner);
}

/* Version 1: a log has no shared memory or memory mapping of its own.  (Inside a
 * function: Swift's importer emits a header's functions, not its file-scope variables.) */
static const sqlite3_io_methods *uncenter_wal_io_methods(void) {
  static const sqlite3_io_methods methods = {
    1,
    uncenter_wal_close,
    uncenter_wal_read,
    uncenter_wal_write,
    uncenter_wal_truncate,
    uncenter_wal_sync,
    uncenter_wal_file_size,
    uncenter_wal_lock,
    uncenter_wal_unlock,
    uncenter_wal_check_reserved_lock,
    uncenter_wal_file_control,
    uncenter_wal_sector_size,
    uncenter_wal_device_characteristics,
    NULL, NULL, NULL, NULL, NULL, NULL,
  };
  return &methods;
}

static int uncenter_wal_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *file, int flags, int *outFlags) {
  sqlite3_vfs *below = (sqlite3_vfs *)vfs->pAppData;
  if ((flags & SQLITE_OPEN_WAL) == 0) return below->xOpen(below, name, file, flags, outFlags);
  uncenter_wal_file *f = (uncenter_wal_file *)file;
  memset(f, 0, sizeof *f);
  f->inner = (sqlite3_file *)((char *)file + UNCENTER_WAL_HEADER);
  int rc = below->xOpen(below, name, f->inner, flags, outFlags);
  if (rc != SQLITE_OK) {
    f->base.pMethods = NULL;
    return rc;
  }
  /* Without a buffer every write goes straight through. */
  f->buffer = (unsigned char *)malloc(UNCENTER_WAL_BUFFER);
  f->base.pMethods = uncenter_wal_io_methods();
  return SQLITE_OK;
}

static void uncenter_wal_register(void) {
  static sqlite3_vfs vfs;
  sqlite3_vfs *below = sqlite3_vfs_find(NULL);
  if (below == NULL) return;
  vfs = *below;
  vfs.szOsFile = (int)UNCENTER_WAL_HEADER + below->szOsFile;
  vfs.pNext = NULL;
  vfs.zName = UNCENTER_WAL_VFS;
  vfs.pAppData = below;
  vfs.xOpen = uncenter_wal_open;
  sqlite3_vfs_register(&vfs, 0);
}

/* The VFS's name, registered on first use (NULL: the default VFS is used instead). */
static inline const char *uncenter_wal_vfs(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, uncenter_wal_register);
  return sqlite3_vfs_find(UNCENTER_WAL_VFS) != NULL ? UNCENTER_WAL_VFS : NULL;
}

/* Hands the log's gathered bytes of `db` to the kernel: SQLITE_OK, or the write's error. */
static inline int uncenter_wal_flush(sqlite3 *db) {
  sqlite3_file *log = NULL;
  if (sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &log) != SQLITE_OK || log == NULL) {
    return SQLITE_OK;
  }
  if (log->pMethods != uncenter_wal_io_methods()) return SQLITE_OK;
  return uncenter_wal_write_out((uncenter_wal_file *)log);
}
#endif
