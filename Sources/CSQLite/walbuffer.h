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
 * Nothing is reordered: the buffer holds one contiguous run of the log; a write
 * elsewhere, a read, a sync, a size query, a truncation or closing the file writes the run
 * out first, so SQLite always reads what it wrote.
 *
 * Other connections (the store's checkpointer) read the log through files of their own,
 * and take a commit's frames to be there once the commit is published in the shared
 * wal-index.  The database file is therefore wrapped too, for one method: the shared-memory
 * barrier, which SQLite calls between writing the two copies of the new wal-index header,
 * writes the connection's gathered frames out first.  A commit's frames are thus in the
 * kernel before any other connection can see the commit, and (as before) before
 * SQLiteStore.commit returns; with synchronous=FULL SQLite syncs the log inside the commit,
 * which writes the run out first.
 *
 * A write that fails (a full or failing disk) must be reported while SQLite can still roll
 * the transaction back: so the run is written out as soon as the page of the transaction's
 * commit frame joins it (a frame header says whether its frame ends a transaction), inside
 * that xWrite, whose error SQLite treats as the commit's.  The barrier then finds nothing
 * gathered.  Should it ever find frames whose write fails, that cannot be reported to
 * SQLite, which goes on to publish the commit: the process stops at once
 * (uncenter_wal_fatal), so that no checkpoint copies a frame the file does not hold, and the
 * commit, never answered, is not in the log a restart recovers.
 */
#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define UNCENTER_WAL_VFS "uncenter-wal"
#define UNCENTER_WAL_BUFFER (2 * 1024 * 1024)

typedef struct uncenter_db_file uncenter_db_file;

typedef struct uncenter_wal_file {
  sqlite3_file base;     /* pMethods: uncenter_wal_methods() */
  sqlite3_file *inner;   /* the default VFS's file, which follows this header */
  unsigned char *buffer; /* bytes not written yet, from offset `start` on */
  int used;
  sqlite3_int64 start;
  uncenter_db_file *db;  /* the database file of the same connection, if still open */
  sqlite3_int64 commit_header_at; /* where the last write put a commit frame's header, or -1 */
  sqlite3_int64 end;              /* the furthest byte written since the log's header */
} uncenter_wal_file;

/* A connection's database file: the default VFS's, with the barrier above. */
struct uncenter_db_file {
  sqlite3_file base;       /* pMethods: uncenter_db_io_methods() */
  sqlite3_file *inner;     /* the default VFS's file, which follows this header */
  const char *name;        /* the name SQLite opened it by: its log's name leads back to it */
  uncenter_wal_file *log;  /* the connection's log, once open */
  uncenter_db_file *next;  /* the open database files (uncenter_db_files) */
};

/* Open database files, so that a log being opened finds its connection's database file:
 * SQLite keeps both names in one allocation, and sqlite3_filename_database of the log's
 * name is the very pointer the database file was opened by. */
static pthread_mutex_t uncenter_db_files_lock = PTHREAD_MUTEX_INITIALIZER;
static uncenter_db_file *uncenter_db_files = NULL;

/* Where the default VFS's file starts in ours (8-byte aligned). */
#define UNCENTER_WAL_HEADER ((sizeof(uncenter_wal_file) + 7) & ~(size_t)7)
#define UNCENTER_DB_HEADER ((sizeof(uncenter_db_file) + 7) & ~(size_t)7)

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
  pthread_mutex_lock(&uncenter_db_files_lock);
  if (f->db != NULL) f->db->log = NULL;
  f->db = NULL;
  pthread_mutex_unlock(&uncenter_db_files_lock);
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

/* Whether a write is the header of a commit frame: 24 bytes (a frame header, which SQLite
 * writes on its own before the frame's page) whose "database size after commit" field,
 * bytes 4-7, is not zero (it is zero in every frame but a transaction's last). */
static inline int uncenter_wal_is_commit_header(const void *data, int amount) {
  const unsigned char *b = (const unsigned char *)data;
  return amount == 24 && (b[4] | b[5] | b[6] | b[7]) != 0;
}

static int uncenter_wal_write(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset) {
  uncenter_wal_file *f = (uncenter_wal_file *)file;
  int rc;
  /* Only a write that continues the run joins it. */
  if (f->used > 0 && (offset != f->start + f->used || amount > UNCENTER_WAL_BUFFER - f->used)) {
    if ((rc = uncenter_wal_write_out(f)) != SQLITE_OK) return rc;
  }
  /* The page after a commit frame's header ends the transaction's frames (but for the
   * padding a synchronous commit adds, which its sync writes out first). */
  int ends_commit = f->commit_header_at >= 0 && offset == f->commit_header_at + 24;
  int commit_header = uncenter_wal_is_commit_header(data, amount);
  f->commit_header_at = commit_header ? offset : -1;
  /* The log starts again from its header; a commit header written below the end of this
   * pass over the log rewrites a frame already there (SQLite's checksum rewrite, after a
   * transaction's commit frame), and may be its last write: it goes straight through. */
  if (offset == 0) f->end = 0;
  int rewrite = offset + amount <= f->end;
  if (offset + amount > f->end) f->end = offset + amount;
  if (commit_header && rewrite) {
    if ((rc = uncenter_wal_write_out(f)) != SQLITE_OK) return rc;
    return f->inner->pMethods->xWrite(f->inner, data, amount, offset);
  }
  if (f->buffer == NULL || amount > UNCENTER_WAL_CHUNK) {
    return f->inner->pMethods->xWrite(f->inner, data, amount, offset);
  }
  if (f->used == 0) f->start = offset;
  memcpy(f->buffer + f->used, data, (size_t)amount);
  f->used += amount;
  /* Written out here, where a failure (a full disk) is still the commit's error, which
   * SQLite rolls back: at the shared-memory barrier it could not be reported. */
  return ends_commit ? uncenter_wal_write_out(f) : SQLITE_OK;
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


/* The process stops: a commit's frames could not be written, and SQLite is about to
 * publish the commit (see the top of this file). */
static void uncenter_wal_fatal(int rc) {
  static const char message[] = "uncenterd: the state's write-ahead log cannot be written; stopping\n";
  (void)!write(2, message, sizeof message - 1);
  (void)rc;
  _exit(74);
}

#define UNCENTER_DB_INNER(file) (((uncenter_db_file *)(file))->inner)

static int uncenter_db_close(sqlite3_file *file) {
  uncenter_db_file *d = (uncenter_db_file *)file;
  pthread_mutex_lock(&uncenter_db_files_lock);
  for (uncenter_db_file **p = &uncenter_db_files; *p != NULL; p = &(*p)->next) {
    if (*p == d) {
      *p = d->next;
      break;
    }
  }
  if (d->log != NULL) d->log->db = NULL;
  d->log = NULL;
  pthread_mutex_unlock(&uncenter_db_files_lock);
  return d->inner->pMethods->xClose(d->inner);
}

static int uncenter_db_read(sqlite3_file *file, void *out, int amount, sqlite3_int64 offset) {
  sqlite3_file *inner = UNCENTER_DB_INNER(file);
  return inner->pMethods->xRead(inner, out, amount, offset);
}

static int uncenter_db_write(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset) {
  sqlite3_file *inner = UNCENTER_DB_INNER(file);
  return inner->pMethods->xWrite(inner, data, amount, offset);
}

static int uncenter_db_truncate(sqlite3_file *file, sqlite3_int64 size) {
  sqlite3_file *inner = UNCENTER_DB_INNER(file);
  return inner->pMethods->xTruncate(inner, size);
}

static int uncenter_db_sync(sqlite3_file *file, int flags) {
  sqlite3_file *inner = UNCENTER_DB_INNER(file);
  return inner->pMethods->xSync(inner, flags);
}

static int uncenter_db_file_size(sqlite3_file *file, sqlite3_int64 *size) {
  sqlite3_file *inner = UNCENTER_DB_INNER(file);
  return inner->pMethods->xFileSize(inner, size);
}

static int uncenter_db_lock(sqlite3_file *file, int level) {
  sqlite3_file *inner = UNCENTER_DB_INNER(file);
  return inner->pMethods->xLock(inner, level);
}

static int uncenter_db_unlock(sqlite3_file *file, int level) {
  sqlite3_file *inner = UNCENTER_DB_INNER(file);
  return inner->pMethods->xUnlock(inner, level);
}

static int uncenter_db_check_reserved_lock(sqlite3_file *file, int *out) {
  sqlite3_file *inner = UNCENTER_DB_INNER(file);
  return inner->pMethods->xCheckReservedLock(inner, out);
}

static int uncenter_db_file_control(sqlite3_file *file, int op, void *arg) {
  sqlite3_file *inner = UNCENTER_DB_INNER(file);
  return inner->pMethods->xFileControl(inner, op, arg);
}

static int uncenter_db_sector_size(sqlite3_file *file) {
  sqlite3_file *inner = UNCENTER_DB_INNER(file);
  return inner->pMethods->xSectorSize(inner);
}

static int uncenter_db_device_characteristics(sqlite3_file *file) {
  sqlite3_file *inner = UNCENTER_DB_INNER(file);
  return inner->pMethods->xDeviceCharacteristics(inner);
}

static int uncenter_db_shm_map(sqlite3_file *file, int region, int size, int extend, void volatile **out) {
  sqlite3_file *inner = UNCENTER_DB_INNER(file);
  return inner->pMethods->xShmMap(inner, region, size, extend, out);
}

static int uncenter_db_shm_lock(sqlite3_file *file, int offset, int n, int flags) {
  sqlite3_file *inner = UNCENTER_DB_INNER(file);
  return inner->pMethods->xShmLock(inner, offset, n, flags);
}

/* The one method that does more than pass on: the connection's gathered log frames go to
 * the kernel before the wal-index header that publishes them is completed. */
static void uncenter_db_shm_barrier(sqlite3_file *file) {
  uncenter_db_file *d = (uncenter_db_file *)file;
  /* Only this connection's thread writes its log: no lock needed to read d->log. */
  if (d->log != NULL && d->log->used > 0) {
    int rc = uncenter_wal_write_out(d->log);
    if (rc != SQLITE_OK) uncenter_wal_fatal(rc);
  }
  d->inner->pMethods->xShmBarrier(d->inner);
}

static int uncenter_db_shm_unmap(sqlite3_file *file, int deleteFlag) {
  sqlite3_file *inner = UNCENTER_DB_INNER(file);
  return inner->pMethods->xShmUnmap(inner, deleteFlag);
}

static int uncenter_db_fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **out) {
  sqlite3_file *inner = UNCENTER_DB_INNER(file);
  return inner->pMethods->xFetch(inner, offset, amount, out);
}

static int uncenter_db_unfetch(sqlite3_file *file, sqlite3_int64 offset, void *page) {
  sqlite3_file *inner = UNCENTER_DB_INNER(file);
  return inner->pMethods->xUnfetch(inner, offset, page);
}

/* Version 3, like the default VFS's database files (shared memory, memory mapping). */
static const sqlite3_io_methods *uncenter_db_io_methods(void) {
  static const sqlite3_io_methods methods = {
    3,
    uncenter_db_close,
    uncenter_db_read,
    uncenter_db_write,
    uncenter_db_truncate,
    uncenter_db_sync,
    uncenter_db_file_size,
    uncenter_db_lock,
    uncenter_db_unlock,
    uncenter_db_check_reserved_lock,
    uncenter_db_file_control,
    uncenter_db_sector_size,
    uncenter_db_device_characteristics,
    uncenter_db_shm_map,
    uncenter_db_shm_lock,
    uncenter_db_shm_barrier,
    uncenter_db_shm_unmap,
    uncenter_db_fetch,
    uncenter_db_unfetch,
  };
  return &methods;
}

static int uncenter_db_open(sqlite3_vfs *below, sqlite3_filename name, sqlite3_file *file, int flags, int *outFlags) {
  uncenter_db_file *d = (uncenter_db_file *)file;
  memset(d, 0, sizeof *d);
  d->inner = (sqlite3_file *)((char *)file + UNCENTER_DB_HEADER);
  int rc = below->xOpen(below, name, d->inner, flags, outFlags);
  if (rc != SQLITE_OK) {
    d->base.pMethods = NULL;
    return rc;
  }
  /* The default VFS's database files are version 3; another is opened again, unwrapped. */
  if (d->inner->pMethods == NULL || d->inner->pMethods->iVersion < 3) {
    if (d->inner->pMethods != NULL) d->inner->pMethods->xClose(d->inner);
    return below->xOpen(below, name, file, flags, outFlags);
  }
  d->name = name;
  d->base.pMethods = uncenter_db_io_methods();
  pthread_mutex_lock(&uncenter_db_files_lock);
  d->next = uncenter_db_files;
  uncenter_db_files = d;
  pthread_mutex_unlock(&uncenter_db_files_lock);
  return SQLITE_OK;
}

static int uncenter_wal_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *file, int flags, int *outFlags) {
  sqlite3_vfs *below = (sqlite3_vfs *)vfs->pAppData;
  if (flags & SQLITE_OPEN_MAIN_DB) return uncenter_db_open(below, name, file, flags, outFlags);
  if ((flags & SQLITE_OPEN_WAL) == 0) return below->xOpen(below, name, file, flags, outFlags);
  uncenter_wal_file *f = (uncenter_wal_file *)file;
  memset(f, 0, sizeof *f);
  f->inner = (sqlite3_file *)((char *)file + UNCENTER_WAL_HEADER);
  f->commit_header_at = -1;
  int rc = below->xOpen(below, name, f->inner, flags, outFlags);
  if (rc != SQLITE_OK) {
    f->base.pMethods = NULL;
    return rc;
  }
  /* Without a buffer every write goes straight through. */
  f->buffer = (unsigned char *)malloc(UNCENTER_WAL_BUFFER);
  f->base.pMethods = uncenter_wal_io_methods();
  const char *database = sqlite3_filename_database(name);
  pthread_mutex_lock(&uncenter_db_files_lock);
  for (uncenter_db_file *d = uncenter_db_files; d != NULL; d = d->next) {
    if (d->name == database && d->log == NULL) {
      d->log = f;
      f->db = d;
      break;
    }
  }
  pthread_mutex_unlock(&uncenter_db_files_lock);
  /* Not found (no barrier will write the run out): no buffer, so nothing waits. */
  if (f->db == NULL) {
    free(f->buffer);
    f->buffer = NULL;
  }
  return SQLITE_OK;
}

static void uncenter_wal_register(void) {
  static sqlite3_vfs vfs;
  sqlite3_vfs *below = sqlite3_vfs_find(NULL);
  if (below == NULL) return;
  vfs = *below;
  vfs.szOsFile = (int)(UNCENTER_WAL_HEADER > UNCENTER_DB_HEADER ? UNCENTER_WAL_HEADER : UNCENTER_DB_HEADER) + below->szOsFile;
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
