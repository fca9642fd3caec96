/*
 * The game edge's listening socket (Linux): accepts player connections itself, reads their first
 * frames, and answers the server list ping (handshake with next state status, status request,
 * ping) from a table of ready-made status responses the JS side publishes; every other
 * connection goes to JS as a file descriptor with the bytes already read. All sockets of the
 * listener and of the connections it still holds sit in one epoll set, polled from the libuv
 * loop with one uv_poll on the epoll descriptor (no libuv stream or JS object per connection).
 *
 * JS API (N-API, see src/edge/server/edge-accept-native.ts):
 *   listen(host: string, port: number, backlog: number) -> { fd, port, handle }
 *   start(handle, onAdmit(address, entryId) -> verdict, onHandoff(fd, bytes, heldMs), onMalformed())
 *     onAdmit runs once a connection's handshake (next state status, host and protocol of a
 *     published entry) and status request are complete: 0 answer it here, 1 close it (refused),
 *     2 hand it to JS. onHandoff gives JS the connection (still open, non-blocking) and what was
 *     read of it, in order. onMalformed: a connection answered here sent something other than
 *     the ping and was closed.
 *   publish(handle, host, protocol, response: Buffer, entryId)   the status response frame for
 *                                    a cleaned host name and client protocol (replaces)
 *   clear(handle)                    forgets every published response
 *   close(handle, onClosed?)         stops accepting; closes the listener and what it still holds
 *
 * Bounds and the frames read follow src/edge/codec (wiki.vg "Protocol", "Server List Ping"): a
 * handshake is at most 4096 bytes, a VarInt at most 5, the host at most 255 bytes. Whatever does
 * not fit the one exchange answered here (login, legacy 0xFE ping, unknown host, an answer not
 * published, bad or oversized frames, a peer that closes early or is slower than HANDOFF_MS) is
 * handed to JS, which applies its own limits and codec to the same bytes.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <node_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

#define MAX_HANDSHAKE 4096
#define MAX_HOST 255
/* A whole handshake frame with its length, the status request (2 bytes) and the ping (10). */
#define READ_CAP (MAX_HANDSHAKE + 5 + 2 + 10)
/* A connection still incomplete after this long goes to JS (which times it out on its own). */
#define HANDOFF_MS 1000
/* A connection answered here and waiting for its ping is closed after this long (as in JS). */
#define ANSWERED_MS 10000
#define DEFER_ACCEPT_S 5
#define TABLE_BUCKETS 4096
#define TABLE_MAX 65536
#define ACCEPTS_PER_EVENT 64
#define EVENTS 64

enum { VERDICT_ANSWER = 0, VERDICT_REFUSE = 1, VERDICT_HANDOFF = 2 };
enum { ST_READING = 0, ST_ANSWERED = 1 };

typedef struct entry {
  struct entry *next;
  int32_t protocol;
  int32_t id;
  uint8_t host_len;
  char host[MAX_HOST];
  size_t len;
  uint8_t *bytes;
} entry;

typedef struct conn {
  struct conn *prev, *next; /* in accept order: the oldest first */
  int fd;
  int state;
  int close_after_write;
  int watched; /* in the epoll set (only once a read found the exchange incomplete) */
  int dead; /* freed at the end of the event it died in (a later event of the batch may name it) */
  uint64_t born;
  uint8_t *out;
  size_t out_len, out_off;
  struct sockaddr_storage peer;
  size_t len;
  uint8_t buf[READ_CAP];
} conn;

typedef struct {
  int lfd;
  int epfd;
  uv_poll_t poll;
  uv_timer_t timer;
  int handles_open;
  napi_env env;
  napi_ref on_admit, on_handoff, on_malformed, on_close;
  /* Calls into JS run in a callback scope: process.nextTick callbacks and promise reactions they
   * queue run when it closes, as after any I/O callback of Node's own. */
  napi_ref resource;
  napi_async_context async;
  int released; /* the handles are closed: l stays until its JS handle is collected */
  int closing;
  int started;
  conn *head, *tail;
  conn *graveyard;
  entry *table[TABLE_BUCKETS];
  size_t entries;
} edge_listener;

typedef struct {
  napi_handle_scope handles;
  napi_callback_scope callback;
  int open;
} js_scope;

static void scope_open(edge_listener *l, js_scope *sc) {
  napi_open_handle_scope(l->env, &sc->handles);
  sc->open = 0;
  napi_value res;
  if (l->async != NULL && napi_get_reference_value(l->env, l->resource, &res) == napi_ok &&
      napi_open_callback_scope(l->env, res, l->async, &sc->callback) == napi_ok)
    sc->open = 1;
}

static void scope_close(edge_listener *l, js_scope *sc) {
  if (sc->open) napi_close_callback_scope(l->env, sc->callback);
  napi_close_handle_scope(l->env, sc->handles);
}

static uint64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* ---- the published responses ---- */

static uint32_t key_hash(const char *host, size_t len, int32_t protocol) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < len; i++) h = (h ^ (uint8_t)host[i]) * 16777619u;
  h = (h ^ (uint32_t)protocol) * 16777619u;
  return h;
}

static entry *table_find(edge_listener *l, const char *host, size_t len, int32_t protocol) {
  entry *e = l->table[key_hash(host, len, protocol) % TABLE_BUCKETS];
  for (; e != NULL; e = e->next)
    if (e->protocol == protocol && e->host_len == len && memcmp(e->host, host, len) == 0) return e;
  return NULL;
}

static void table_clear(edge_listener *l) {
  for (int i = 0; i < TABLE_BUCKETS; i++) {
    entry *e = l->table[i];
    while (e != NULL) {
      entry *n = e->next;
      free(e->bytes);
      free(e);
      e = n;
    }
    l->table[i] = NULL;
  }
  l->entries = 0;
}

/* ---- connections ---- */

static void list_remove(edge_listener *l, conn *c) {
  if (c->prev) c->prev->next = c->next;
  else l->head = c->next;
  if (c->next) c->next->prev = c->prev;
  else l->tail = c->prev;
  c->prev = c->next = NULL;
}

/* Puts c in the epoll set for `events`, or changes its events there. */
static void watch(edge_listener *l, conn *c, uint32_t events) {
  struct epoll_event ev = {.events = events, .data.ptr = c};
  epoll_ctl(l->epfd, c->watched ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, c->fd, &ev);
  c->watched = 1;
}

static void conn_free(edge_listener *l, conn *c, int close_fd) {
  list_remove(l, c);
  /* close() takes the descriptor out of the set; one handed over must leave it first. */
  if (close_fd) close(c->fd);
  else if (c->watched) epoll_ctl(l->epfd, EPOLL_CTL_DEL, c->fd, NULL);
  free(c->out);
  c->out = NULL;
  c->dead = 1;
  c->next = l->graveyard;
  l->graveyard = c;
}

static void bury(edge_listener *l) {
  while (l->graveyard != NULL) {
    conn *n = l->graveyard->next;
    free(l->graveyard);
    l->graveyard = n;
  }
}

static void call_js(edge_listener *l, napi_ref ref, size_t argc, napi_value *argv, napi_value *ret) {
  napi_env env = l->env;
  napi_value fn, recv;
  napi_get_reference_value(env, ref, &fn);
  napi_get_undefined(env, &recv);
  if (napi_call_function(env, recv, fn, argc, argv, ret) != napi_ok) {
    napi_value exc;
    if (napi_get_and_clear_last_exception(env, &exc) == napi_ok) napi_fatal_exception(env, exc);
    if (ret) *ret = NULL;
  }
}

static void uncork(conn *c) {
  int zero = 0;
  setsockopt(c->fd, IPPROTO_TCP, TCP_CORK, &zero, sizeof zero);
}

/* JS takes the connection: its descriptor, what was read of it, how long it was held here. */
static void handoff(edge_listener *l, conn *c) {
  napi_env env = l->env;
  napi_value argv[3];
  int fd = c->fd;
  void *data;
  uncork(c);
  napi_create_int32(env, fd, &argv[0]);
  napi_create_buffer_copy(env, c->len, c->buf, &data, &argv[1]);
  napi_create_int64(env, (int64_t)(now_ms() - c->born), &argv[2]);
  conn_free(l, c, 0);
  call_js(l, l->on_handoff, 3, argv, NULL);
}

static void malformed(edge_listener *l, conn *c) {
  conn_free(l, c, 1);
  call_js(l, l->on_malformed, 0, NULL, NULL);
}

/* Writes what is pending; answers 0 when all is out (or the peer is gone), 1 when waiting. */
static int flush_out(edge_listener *l, conn *c) {
  while (c->out_off < c->out_len) {
    ssize_t n = write(c->fd, c->out + c->out_off, c->out_len - c->out_off);
    if (n > 0) c->out_off += (size_t)n;
    else if (n < 0 && errno == EINTR) continue;
    else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      watch(l, c, EPOLLIN | EPOLLOUT | EPOLLRDHUP);
      return 1;
    } else {
      c->out_off = c->out_len;
      return 0;
    }
  }
  free(c->out);
  c->out = NULL;
  c->out_len = c->out_off = 0;
  return 0;
}

/* Writes a then b (either may be empty); what the socket does not take now is kept for later. */
static int send_parts(edge_listener *l, conn *c, const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
  struct iovec iov[2] = {{(void *)a, alen}, {(void *)b, blen}};
  size_t total = alen + blen, done = 0;
  for (;;) {
    ssize_t n = writev(c->fd, iov, blen > 0 ? 2 : 1);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return 0; /* peer gone */
    done = n > 0 ? (size_t)n : 0;
    break;
  }
  if (done == total) return 0;
  c->out = malloc(total - done);
  if (c->out == NULL) return 0;
  size_t k = 0;
  if (done < alen) {
    memcpy(c->out, a + done, alen - done);
    k = alen - done;
    memcpy(c->out + k, b, blen);
  } else memcpy(c->out, b + (done - alen), total - done);
  c->out_len = total - done;
  c->out_off = 0;
  return flush_out(l, c);
}

/* A VarInt as src/edge/codec/varint.ts reads it: bytes taken (1–5), 0 for more, -1 malformed. */
static int read_varint(const uint8_t *p, size_t avail, int32_t *out) {
  uint32_t v = 0;
  for (int i = 0; i < 5; i++) {
    if ((size_t)i >= avail) return 0;
    uint8_t b = p[i];
    v |= (uint32_t)(b & 0x7f) << (7 * i);
    if ((b & 0x80) == 0) {
      *out = (int32_t)v;
      return i + 1;
    }
  }
  return -1;
}

#define PING_LEN 10 /* length 9, id 0x01, a long */

static const uint8_t PING_HEAD[2] = {0x09, 0x01};

/* What the bytes after an answered status request say: 1 a whole ping, 0 more needed, -1 not a ping. */
static int ping_state(const uint8_t *p, size_t n) {
  size_t head = n < 2 ? n : 2;
  if (memcmp(p, PING_HEAD, head) != 0) return -1;
  if (n < PING_LEN) return 0;
  return n == PING_LEN ? 1 : -1;
}

/* After the status response: the ping is answered with the same bytes (the pong), then the close. */
static void on_answered_bytes(edge_listener *l, conn *c) {
  if (c->len == 0) return;
  int p = ping_state(c->buf, c->len);
  if (p < 0) return malformed(l, c);
  if (p == 0) return;
  if (send_parts(l, c, c->buf, PING_LEN, NULL, 0)) {
    c->close_after_write = 1;
    c->len = 0;
    return;
  }
  conn_free(l, c, 1);
}

/*
 * The first frames: answered here when they are a status handshake and request for a published
 * response and JS admits the peer; 0 when more bytes are needed, else the connection is done with
 * (answered, closed or handed off).
 */
static void on_first_bytes(edge_listener *l, conn *c) {
  const uint8_t *b = c->buf;
  size_t n = c->len;
  if (n == 0) return;
  /* The legacy ping of clients before 1.7 (0xFE, src/edge/codec/legacy-ping.ts): JS answers it. */
  if (b[0] == 0xFE) return handoff(l, c);
  int32_t flen;
  int vs = read_varint(b, n, &flen);
  if (vs < 0) return handoff(l, c);
  if (vs == 0) return;
  if (flen < 1 || flen > MAX_HANDSHAKE) return handoff(l, c);
  if ((size_t)vs + (size_t)flen > n) {
    if (n >= READ_CAP) return handoff(l, c);
    return;
  }
  /* The handshake: id 0, protocol, host, port, next state (1: status). */
  const uint8_t *f = b + vs;
  size_t fl = (size_t)flen, at = 0;
  int32_t id, protocol, hl, next;
  int k = read_varint(f, fl, &id);
  if (k <= 0 || id != 0) return handoff(l, c);
  at += (size_t)k;
  k = read_varint(f + at, fl - at, &protocol);
  if (k <= 0) return handoff(l, c);
  at += (size_t)k;
  k = read_varint(f + at, fl - at, &hl);
  if (k <= 0 || hl < 0 || hl > MAX_HOST || at + (size_t)k + (size_t)hl > fl) return handoff(l, c);
  at += (size_t)k;
  const uint8_t *host = f + at;
  at += (size_t)hl;
  if (at + 2 > fl) return handoff(l, c);
  at += 2;
  k = read_varint(f + at, fl - at, &next);
  if (k <= 0 || at + (size_t)k != fl || next != 1) return handoff(l, c);
  /* The status request: exactly [length 1, id 0x00]. */
  size_t after = (size_t)vs + fl;
  if (n < after + 2) {
    if (n == after || (n == after + 1 && b[after] == 0x01)) return;
    return handoff(l, c);
  }
  if (b[after] != 0x01 || b[after + 1] != 0x00) return handoff(l, c);
  size_t rest = n - after - 2;
  if (rest > 0 && ping_state(b + after + 2, rest) < 0) return handoff(l, c);
  /* The routing name as src/edge/codec/host-name.ts makes it (ASCII only; anything else: JS). */
  char name[MAX_HOST];
  size_t len = 0;
  for (int32_t i = 0; i < hl; i++) {
    uint8_t ch = host[i];
    if (ch >= 0x80) return handoff(l, c);
    if (ch == 0) break;
    name[len++] = (char)ch;
  }
  for (size_t i = 0; i + 2 < len; i++)
    if (name[i] == '/' && name[i + 1] == '/' && name[i + 2] == '/') {
      len = i;
      break;
    }
  if (len > 0 && name[len - 1] == '.') len--;
  for (size_t i = 0; i < len; i++)
    if (name[i] >= 'A' && name[i] <= 'Z') name[i] = (char)(name[i] + 32);
  entry *e = table_find(l, name, len, protocol);
  if (e == NULL) return handoff(l, c);

  /* JS decides: the peer's limits, trusted balancers, and whether the entry is still fresh. */
  napi_env env = l->env;
  char addr[INET6_ADDRSTRLEN];
  const void *src;
  int family;
  if (c->peer.ss_family == AF_INET6) {
    struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&c->peer;
    if (IN6_IS_ADDR_V4MAPPED(&a6->sin6_addr)) {
      family = AF_INET;
      src = &a6->sin6_addr.s6_addr[12];
    } else {
      family = AF_INET6;
      src = &a6->sin6_addr;
    }
  } else {
    family = AF_INET;
    src = &((struct sockaddr_in *)&c->peer)->sin_addr;
  }
  if (inet_ntop(family, src, addr, sizeof addr) == NULL) return handoff(l, c);
  napi_value argv[2], ret;
  napi_create_string_latin1(env, addr, NAPI_AUTO_LENGTH, &argv[0]);
  napi_create_int32(env, e->id, &argv[1]);
  call_js(l, l->on_admit, 2, argv, &ret);
  int32_t verdict = VERDICT_HANDOFF;
  if (ret != NULL) napi_get_value_int32(env, ret, &verdict);
  if (l->closing) return;
  if (verdict == VERDICT_REFUSE) return conn_free(l, c, 1);
  if (verdict != VERDICT_ANSWER) return handoff(l, c);
  /* JS may have replaced the entry meanwhile: look again (a miss hands the connection over). */
  e = table_find(l, name, len, protocol);
  if (e == NULL) return handoff(l, c);
  c->state = ST_ANSWERED;
  int whole_ping = rest > 0 && ping_state(b + after + 2, rest) == 1;
  int waiting = send_parts(l, c, e->bytes, e->len, whole_ping ? b + after + 2 : NULL, whole_ping ? PING_LEN : 0);
  if (whole_ping) {
    if (waiting) {
      c->close_after_write = 1;
      c->len = 0;
      return;
    }
    return conn_free(l, c, 1);
  }
  /* The response goes now; the pong later (and with the FIN). */
  uncork(c);
  memmove(c->buf, b + after + 2, rest);
  c->len = rest;
}

/* Reads what the socket has; handles it. */
static void on_readable(edge_listener *l, conn *c) {
  for (;;) {
    if (c->len >= READ_CAP) {
      if (c->state == ST_READING) return handoff(l, c);
      return malformed(l, c);
    }
    ssize_t n = read(c->fd, c->buf + c->len, READ_CAP - c->len);
    if (n > 0) {
      c->len += (size_t)n;
      if (c->close_after_write) {
        c->len = 0;
        continue;
      }
      /* Either may be done with c (answered, closed, handed off: dead until the event ends). */
      if (c->state == ST_READING) on_first_bytes(l, c);
      else on_answered_bytes(l, c);
      if (!c->dead && !c->watched) watch(l, c, EPOLLIN | EPOLLRDHUP);
      return;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      /* Incomplete: wait for more (at once when the first read found nothing). */
      if (!c->watched) watch(l, c, EPOLLIN | EPOLLRDHUP);
      return;
    }
    /* End or error: JS sees what came before it, as if it had read it itself. */
    if (c->state == ST_READING && c->len > 0 && !c->close_after_write) return handoff(l, c);
    return conn_free(l, c, 1);
  }
}

static void accept_some(edge_listener *l) {
  for (int i = 0; i < ACCEPTS_PER_EVENT && !l->closing; i++) {
    struct sockaddr_storage peer;
    socklen_t pl = sizeof peer;
    int fd = accept4(l->lfd, (struct sockaddr *)&peer, &pl, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      return; /* EAGAIN, or EMFILE and the like: the next event tries again */
    }
    conn *c = malloc(sizeof *c);
    if (c == NULL) {
      close(fd);
      continue;
    }
    c->fd = fd;
    c->state = ST_READING;
    c->close_after_write = 0;
    c->dead = 0;
    c->watched = 0;
    c->born = now_ms();
    c->out = NULL;
    c->out_len = c->out_off = 0;
    c->peer = peer;
    c->len = 0;
    c->next = NULL;
    c->prev = l->tail;
    if (l->tail) l->tail->next = c;
    else l->head = c;
    l->tail = c;
    /* The first bytes are there already (TCP_DEFER_ACCEPT): read them before any epoll_ctl. */
    on_readable(l, c);
  }
}

static void on_poll(uv_poll_t *h, int status, int events) {
  (void)events;
  edge_listener *l = (edge_listener *)h->data;
  if (status < 0 || l->closing) return;
  js_scope scope;
  scope_open(l, &scope);
  struct epoll_event evs[EVENTS];
  for (int round = 0; round < 4 && !l->closing; round++) {
    int n = epoll_wait(l->epfd, evs, EVENTS, 0);
    if (n <= 0) break;
    for (int i = 0; i < n && !l->closing; i++) {
      conn *c = evs[i].data.ptr;
      if (c == NULL) {
        accept_some(l);
        continue;
      }
      if (c->dead) continue; /* freed earlier in this batch */
      if ((evs[i].events & EPOLLOUT) && c->out != NULL) {
        if (flush_out(l, c)) continue;
        if (c->close_after_write) {
          conn_free(l, c, 1);
          continue;
        }
        watch(l, c, EPOLLIN | EPOLLRDHUP);
      }
      if (evs[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) on_readable(l, c);
    }
    if (n < EVENTS) break;
  }
  bury(l);
  scope_close(l, &scope);
}

static void on_timer(uv_timer_t *t) {
  edge_listener *l = (edge_listener *)t->data;
  if (l->closing) return;
  js_scope scope;
  scope_open(l, &scope);
  uint64_t now = now_ms();
  conn *c = l->head;
  while (c != NULL && !l->closing) {
    conn *next = c->next;
    uint64_t age = now - c->born;
    if (c->state == ST_READING && !c->close_after_write && age >= HANDOFF_MS) handoff(l, c);
    else if (age >= ANSWERED_MS) conn_free(l, c, 1);
    else if (age < HANDOFF_MS) break; /* in accept order: the rest are younger */
    c = next;
  }
  bury(l);
  scope_close(l, &scope);
}

/* ---- N-API ---- */

#define CHECK(call)                                                                            \
  do {                                                                                         \
    if ((call) != napi_ok) {                                                                   \
      napi_throw_error(env, NULL, #call " failed");                                            \
      return NULL;                                                                             \
    }                                                                                          \
  } while (0)

static napi_value throw_errno(napi_env env, const char *what) {
  char msg[160];
  snprintf(msg, sizeof msg, "%s: %s", what, strerror(errno));
  napi_value err, text, code;
  const char *name = errno == EADDRINUSE ? "EADDRINUSE" : errno == EACCES ? "EACCES" : errno == EADDRNOTAVAIL ? "EADDRNOTAVAIL" : "ENATIVE";
  napi_create_string_utf8(env, msg, NAPI_AUTO_LENGTH, &text);
  napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &code);
  napi_create_error(env, code, text, &err);
  napi_throw(env, err);
  return NULL;
}

static edge_listener *get_listener(napi_env env, napi_value v) {
  void *p = NULL;
  if (napi_get_value_external(env, v, &p) != napi_ok) return NULL;
  return (edge_listener *)p;
}

/* The JS handle is gone: l goes too once its handles are closed (else it stays: they point to it). */
static void finalize_listener(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  edge_listener *l = data;
  if (l->released) free(l);
}

static napi_value js_listen(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  char host[64];
  size_t hl;
  int32_t port, backlog;
  CHECK(napi_get_value_string_utf8(env, argv[0], host, sizeof host, &hl));
  CHECK(napi_get_value_int32(env, argv[1], &port));
  CHECK(napi_get_value_int32(env, argv[2], &backlog));
  struct sockaddr_storage ss;
  memset(&ss, 0, sizeof ss);
  socklen_t sl;
  int ipv6 = 0;
  struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
  struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
  if (inet_pton(AF_INET, host, &a4->sin_addr) == 1) {
    a4->sin_family = AF_INET;
    a4->sin_port = htons(port);
    sl = sizeof *a4;
  } else if (inet_pton(AF_INET6, host, &a6->sin6_addr) == 1) {
    ipv6 = 1;
    a6->sin6_family = AF_INET6;
    a6->sin6_port = htons(port);
    sl = sizeof *a6;
  } else {
    napi_throw_type_error(env, NULL, "host must be an IP address");
    return NULL;
  }
  int fd = socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return throw_errno(env, "socket");
  int one = 1, zero = 0;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  /* As node:net does for "::": IPv4 players too. */
  if (ipv6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
  /* A game client speaks first: the kernel hands a connection over once its first bytes came
   * (one wakeup per ping instead of two; a silent peer is accepted after the timeout anyway). */
  int defer = DEFER_ACCEPT_S;
  setsockopt(fd, IPPROTO_TCP, TCP_DEFER_ACCEPT, &defer, sizeof defer);
  /* Accepted sockets start corked (inherited): an answer written whole and then closed leaves in
   * one segment with the FIN. Uncorked (uncork()) before waiting for more or handing over. */
  setsockopt(fd, IPPROTO_TCP, TCP_CORK, &one, sizeof one);
  if (bind(fd, (struct sockaddr *)&ss, sl) < 0 || listen(fd, backlog) < 0) {
    int e = errno;
    close(fd);
    errno = e;
    return throw_errno(env, "listen");
  }
  struct sockaddr_storage bound;
  socklen_t bl = sizeof bound;
  getsockname(fd, (struct sockaddr *)&bound, &bl);
  int boundPort = ntohs(ipv6 ? ((struct sockaddr_in6 *)&bound)->sin6_port : ((struct sockaddr_in *)&bound)->sin_port);
  int epfd = epoll_create1(EPOLL_CLOEXEC);
  if (epfd < 0) {
    int e = errno;
    close(fd);
    errno = e;
    return throw_errno(env, "epoll_create1");
  }
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
  epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);

  edge_listener *l = calloc(1, sizeof *l);
  l->lfd = fd;
  l->epfd = epfd;
  l->env = env;
  uv_loop_t *loop;
  CHECK(napi_get_uv_event_loop(env, &loop));
  uv_poll_init(loop, &l->poll, epfd);
  l->poll.data = l;
  uv_timer_init(loop, &l->timer);
  l->timer.data = l;
  uv_unref((uv_handle_t *)&l->timer);
  l->handles_open = 2;

  napi_value result, handle, v, resource, name;
  CHECK(napi_create_object(env, &resource));
  CHECK(napi_create_reference(env, resource, 1, &l->resource));
  CHECK(napi_create_string_utf8(env, "edge_accept", NAPI_AUTO_LENGTH, &name));
  CHECK(napi_async_init(env, resource, name, &l->async));
  CHECK(napi_create_object(env, &result));
  CHECK(napi_create_external(env, l, finalize_listener, NULL, &handle));
  CHECK(napi_set_named_property(env, result, "handle", handle));
  CHECK(napi_create_int32(env, boundPort, &v));
  CHECK(napi_set_named_property(env, result, "port", v));
  CHECK(napi_create_int32(env, fd, &v));
  CHECK(napi_set_named_property(env, result, "fd", v));
  return result;
}

static napi_value js_start(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  edge_listener *l = get_listener(env, argv[0]);
  if (l == NULL || l->closing || l->started || argc < 4) {
    napi_throw_error(env, NULL, "bad or started handle");
    return NULL;
  }
  l->started = 1;
  CHECK(napi_create_reference(env, argv[1], 1, &l->on_admit));
  CHECK(napi_create_reference(env, argv[2], 1, &l->on_handoff));
  CHECK(napi_create_reference(env, argv[3], 1, &l->on_malformed));
  uv_poll_start(&l->poll, UV_READABLE, on_poll);
  uv_timer_start(&l->timer, on_timer, 250, 250);
  return NULL;
}

static napi_value js_publish(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  edge_listener *l = get_listener(env, argv[0]);
  if (l == NULL || l->closing) return NULL;
  char host[MAX_HOST + 1];
  size_t hl;
  int32_t protocol, id;
  void *data;
  size_t len;
  CHECK(napi_get_value_string_utf8(env, argv[1], host, sizeof host, &hl));
  CHECK(napi_get_value_int32(env, argv[2], &protocol));
  CHECK(napi_get_buffer_info(env, argv[3], &data, &len));
  CHECK(napi_get_value_int32(env, argv[4], &id));
  if (hl > MAX_HOST) return NULL;
  uint8_t *copy = malloc(len > 0 ? len : 1);
  if (copy == NULL) return NULL;
  memcpy(copy, data, len);
  entry *e = table_find(l, host, hl, protocol);
  if (e == NULL) {
    if (l->entries >= TABLE_MAX) {
      free(copy);
      return NULL;
    }
    e = calloc(1, sizeof *e);
    e->protocol = protocol;
    e->host_len = (uint8_t)hl;
    memcpy(e->host, host, hl);
    uint32_t b = key_hash(host, hl, protocol) % TABLE_BUCKETS;
    e->next = l->table[b];
    l->table[b] = e;
    l->entries++;
  } else free(e->bytes);
  e->bytes = copy;
  e->len = len;
  e->id = id;
  return NULL;
}

static napi_value js_clear(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  edge_listener *l = get_listener(env, argv[0]);
  if (l != NULL) table_clear(l);
  return NULL;
}

static void on_handle_closed(uv_handle_t *h) {
  edge_listener *l = (edge_listener *)h->data;
  if (--l->handles_open > 0) return;
  close(l->epfd);
  napi_env env = l->env;
  table_clear(l);
  bury(l);
  if (l->on_admit) napi_delete_reference(env, l->on_admit);
  if (l->on_handoff) napi_delete_reference(env, l->on_handoff);
  if (l->on_malformed) napi_delete_reference(env, l->on_malformed);
  l->on_admit = l->on_handoff = l->on_malformed = NULL;
  if (l->on_close) {
    js_scope scope;
    scope_open(l, &scope);
    napi_value fn, recv;
    if (napi_get_reference_value(env, l->on_close, &fn) == napi_ok && fn != NULL) {
      napi_get_undefined(env, &recv);
      napi_call_function(env, recv, fn, 0, NULL, NULL);
    }
    napi_delete_reference(env, l->on_close);
    l->on_close = NULL;
    scope_close(l, &scope);
  }
  napi_async_destroy(env, l->async);
  l->async = NULL;
  napi_delete_reference(env, l->resource);
  l->released = 1;
}

static napi_value js_close(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  edge_listener *l = get_listener(env, argv[0]);
  if (l == NULL || l->closing) return NULL;
  l->closing = 1;
  napi_valuetype t = napi_undefined;
  if (argc > 1) napi_typeof(env, argv[1], &t);
  if (t == napi_function) CHECK(napi_create_reference(env, argv[1], 1, &l->on_close));
  while (l->head != NULL) conn_free(l, l->head, 1);
  close(l->lfd);
  uv_poll_stop(&l->poll);
  uv_timer_stop(&l->timer);
  uv_close((uv_handle_t *)&l->poll, on_handle_closed);
  uv_close((uv_handle_t *)&l->timer, on_handle_closed);
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"listen", NULL, js_listen, NULL, NULL, NULL, napi_default, NULL},
      {"start", NULL, js_start, NULL, NULL, NULL, napi_default, NULL},
      {"publish", NULL, js_publish, NULL, NULL, NULL, napi_default, NULL},
      {"clear", NULL, js_clear, NULL, NULL, NULL, napi_default, NULL},
      {"close", NULL, js_close, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, 5, props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
