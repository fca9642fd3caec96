/*
 * Batched UDP for the DNS server (Linux): one SO_REUSEPORT socket per worker, polled from the
 * libuv loop with uv_poll; each readable event drains up to MAX_ROUNDS batches with recvmmsg,
 * hands each batch to JS in ONE call, and sends the answers with ONE sendmmsg.
 *
 * JS API (N-API, see src/dns/server/udp-batch-native.ts):
 *   open(host: string, port: number, batch: number, slot: number, bufBytes: number)
 *     -> { fd, port, rx: ArrayBuffer(batch*slot), tx: ArrayBuffer(batch*slot),
 *          meta: ArrayBuffer(batch*META_INTS*4), handle }
 *   start(handle, onBatch(n) -> m)   onBatch reads n queries from rx/meta, writes m answers to
 *                                    tx/meta (tx length + which query they answer), returns m.
 *   close(handle, onClosed?)        onClosed runs once the fd is closed (port free again)
 *   steer(handle, group)            attaches the reuseport program below: each datagram goes to
 *                                    socket hash(source network) % group of the port's group
 * meta per message i (Int32 words at i*META_INTS): [0] rx length, [1] family (4|6), [2] port,
 * [3..6] address bytes (16, IPv4 in the first 4), [7] tx length (set by JS), [8] rx index the
 * tx slot answers (set by JS).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/filter.h>
#include <errno.h>
#include <netinet/in.h>
#include <node_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>

#define META_INTS 9
#define MAX_ROUNDS 8

typedef struct {
  int fd;
  int batch;
  int slot;
  int ipv6;
  uv_poll_t poll;
  napi_env env;
  napi_ref cb;
  napi_ref self;
  napi_ref on_close;
  uint8_t *rx;
  uint8_t *tx;
  int32_t *meta;
  struct mmsghdr *rmsg;
  struct mmsghdr *smsg;
  struct iovec *riov;
  struct iovec *siov;
  struct sockaddr_storage *addrs;
  int closing;
} batch_sock;

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
  napi_create_string_utf8(env, msg, NAPI_AUTO_LENGTH, &text);
  napi_create_string_utf8(env, errno == EADDRINUSE ? "EADDRINUSE" : "ENATIVE", NAPI_AUTO_LENGTH, &code);
  napi_create_error(env, code, text, &err);
  napi_throw(env, err);
  return NULL;
}

static void on_poll(uv_poll_t *h, int status, int events) {
  (void)events;
  batch_sock *s = (batch_sock *)h->data;
  if (status < 0 || s->closing) return;
  napi_env env = s->env;
  napi_handle_scope scope;
  napi_open_handle_scope(env, &scope);
  napi_value cb, recv, argv[1], ret;
  napi_get_reference_value(env, s->cb, &cb);
  napi_get_undefined(env, &recv);
  for (int round = 0; round < MAX_ROUNDS && !s->closing; round++) {
    for (int i = 0; i < s->batch; i++) {
      s->riov[i].iov_base = s->rx + (size_t)i * s->slot;
      s->riov[i].iov_len = s->slot;
      s->rmsg[i].msg_hdr.msg_iov = &s->riov[i];
      s->rmsg[i].msg_hdr.msg_iovlen = 1;
      s->rmsg[i].msg_hdr.msg_name = &s->addrs[i];
      s->rmsg[i].msg_hdr.msg_namelen = sizeof(struct sockaddr_storage);
      s->rmsg[i].msg_hdr.msg_control = NULL;
      s->rmsg[i].msg_hdr.msg_controllen = 0;
      s->rmsg[i].msg_hdr.msg_flags = 0;
    }
    int n = recvmmsg(s->fd, s->rmsg, s->batch, MSG_DONTWAIT, NULL);
    if (n <= 0) break;
    for (int i = 0; i < n; i++) {
      int32_t *m = s->meta + i * META_INTS;
      m[0] = (s->rmsg[i].msg_hdr.msg_flags & MSG_TRUNC) ? -1 : (int32_t)s->rmsg[i].msg_len;
      struct sockaddr_storage *a = &s->addrs[i];
      memset(&m[3], 0, 16);
      if (a->ss_family == AF_INET6) {
        struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)a;
        if (IN6_IS_ADDR_V4MAPPED(&a6->sin6_addr)) {
          m[1] = 4;
          memcpy(&m[3], &a6->sin6_addr.s6_addr[12], 4);
        } else {
          m[1] = 6;
          memcpy(&m[3], &a6->sin6_addr, 16);
        }
        m[2] = ntohs(a6->sin6_port);
      } else {
        struct sockaddr_in *a4 = (struct sockaddr_in *)a;
        m[1] = 4;
        memcpy(&m[3], &a4->sin_addr, 4);
        m[2] = ntohs(a4->sin_port);
      }
      m[7] = 0;
      m[8] = -1;
    }
    napi_create_int32(env, n, &argv[0]);
    if (napi_call_function(env, recv, cb, 1, argv, &ret) != napi_ok) {
      // A JS exception: surface it as uncaught (the batch is lost, the socket stays).
      napi_value exc;
      if (napi_get_and_clear_last_exception(env, &exc) == napi_ok) napi_fatal_exception(env, exc);
      break;
    }
    int32_t out = 0;
    napi_get_value_int32(env, ret, &out);
    if (out > n) out = n;
    int k = 0;
    for (int j = 0; j < out; j++) {
      int32_t *m = s->meta + j * META_INTS;
      int src = m[8];
      if (src < 0 || src >= n || m[7] <= 0 || m[7] > s->slot) continue;
      s->siov[k].iov_base = s->tx + (size_t)j * s->slot;
      s->siov[k].iov_len = (size_t)m[7];
      s->smsg[k].msg_hdr.msg_iov = &s->siov[k];
      s->smsg[k].msg_hdr.msg_iovlen = 1;
      s->smsg[k].msg_hdr.msg_name = &s->addrs[src];
      s->smsg[k].msg_hdr.msg_namelen = s->rmsg[src].msg_hdr.msg_namelen;
      s->smsg[k].msg_hdr.msg_control = NULL;
      s->smsg[k].msg_hdr.msg_controllen = 0;
      s->smsg[k].msg_hdr.msg_flags = 0;
      k++;
    }
    // Best effort like a plain UDP server: a full send buffer drops the rest of the batch.
    for (int sent = 0; sent < k;) {
      int r = sendmmsg(s->fd, s->smsg + sent, k - sent, MSG_DONTWAIT);
      if (r > 0) sent += r;
      else if (r < 0 && errno == EINTR) continue;
      else if (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK) sent++;  // skip the failing peer
      else break;
    }
    // A batch at least a quarter full says more is queued: read again before going back to the
    // loop (at saturation this saves an epoll wait and a wakeup per batch; below it, a batch is
    // a few datagrams and the loop waits as before).
    if (n < s->batch / 4) break;
  }
  napi_close_handle_scope(env, scope);
}

static void free_sock(batch_sock *s) {
  free(s->rmsg);
  free(s->smsg);
  free(s->riov);
  free(s->siov);
  free(s->addrs);
  free(s);
}

static void on_closed(uv_handle_t *h) {
  batch_sock *s = (batch_sock *)h->data;
  close(s->fd);
  napi_env env = s->env;
  if (s->on_close) {
    napi_handle_scope scope;
    napi_open_handle_scope(env, &scope);
    napi_value fn, recv;
    if (napi_get_reference_value(env, s->on_close, &fn) == napi_ok && fn != NULL) {
      napi_get_undefined(env, &recv);
      napi_call_function(env, recv, fn, 0, NULL, NULL);
    }
    napi_delete_reference(env, s->on_close);
    napi_close_handle_scope(env, scope);
  }
  if (s->cb) napi_delete_reference(s->env, s->cb);
  if (s->self) napi_delete_reference(s->env, s->self);
  free_sock(s);
}

static napi_value js_open(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  char host[64];
  size_t hl;
  int32_t port, batch, slot, bufBytes;
  CHECK(napi_get_value_string_utf8(env, argv[0], host, sizeof host, &hl));
  CHECK(napi_get_value_int32(env, argv[1], &port));
  CHECK(napi_get_value_int32(env, argv[2], &batch));
  CHECK(napi_get_value_int32(env, argv[3], &slot));
  CHECK(napi_get_value_int32(env, argv[4], &bufBytes));
  if (batch < 1 || batch > 1024 || slot < 512 || slot > 65535) {
    napi_throw_range_error(env, NULL, "bad batch or slot size");
    return NULL;
  }
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
  int fd = socket(ipv6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return throw_errno(env, "socket");
  int one = 1, zero = 0;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) < 0) {
    close(fd);
    return throw_errno(env, "SO_REUSEPORT");
  }
  if (ipv6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bufBytes, sizeof bufBytes);
  setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bufBytes, sizeof bufBytes);
  if (bind(fd, (struct sockaddr *)&ss, sl) < 0) {
    int e = errno;
    close(fd);
    errno = e;
    return throw_errno(env, "bind");
  }
  struct sockaddr_storage bound;
  socklen_t bl = sizeof bound;
  getsockname(fd, (struct sockaddr *)&bound, &bl);
  int boundPort = ntohs(ipv6 ? ((struct sockaddr_in6 *)&bound)->sin6_port : ((struct sockaddr_in *)&bound)->sin_port);

  batch_sock *s = calloc(1, sizeof *s);
  s->fd = fd;
  s->batch = batch;
  s->slot = slot;
  s->ipv6 = ipv6;
  s->env = env;
  s->rmsg = calloc(batch, sizeof *s->rmsg);
  s->smsg = calloc(batch, sizeof *s->smsg);
  s->riov = calloc(batch, sizeof *s->riov);
  s->siov = calloc(batch, sizeof *s->siov);
  s->addrs = calloc(batch, sizeof *s->addrs);

  napi_value result, rx, tx, meta, handle, v;
  void *p;
  CHECK(napi_create_object(env, &result));
  CHECK(napi_create_arraybuffer(env, (size_t)batch * slot, &p, &rx));
  s->rx = p;
  CHECK(napi_create_arraybuffer(env, (size_t)batch * slot, &p, &tx));
  s->tx = p;
  CHECK(napi_create_arraybuffer(env, (size_t)batch * META_INTS * 4, &p, &meta));
  s->meta = p;
  CHECK(napi_create_external(env, s, NULL, NULL, &handle));
  // The buffers live as long as the result object; keep them alive with the handle's holder.
  CHECK(napi_create_reference(env, result, 1, &s->self));
  CHECK(napi_set_named_property(env, result, "rx", rx));
  CHECK(napi_set_named_property(env, result, "tx", tx));
  CHECK(napi_set_named_property(env, result, "meta", meta));
  CHECK(napi_set_named_property(env, result, "handle", handle));
  CHECK(napi_create_int32(env, boundPort, &v));
  CHECK(napi_set_named_property(env, result, "port", v));
  CHECK(napi_create_int32(env, fd, &v));
  CHECK(napi_set_named_property(env, result, "fd", v));
  uv_loop_t *loop;
  CHECK(napi_get_uv_event_loop(env, &loop));
  uv_poll_init(loop, &s->poll, fd);
  s->poll.data = s;
  return result;
}

static batch_sock *get_sock(napi_env env, napi_value v) {
  void *p = NULL;
  if (napi_get_value_external(env, v, &p) != napi_ok) return NULL;
  return (batch_sock *)p;
}

static napi_value js_start(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  batch_sock *s = get_sock(env, argv[0]);
  if (s == NULL || s->closing || s->cb != NULL) {
    napi_throw_error(env, NULL, "bad or started handle");
    return NULL;
  }
  CHECK(napi_create_reference(env, argv[1], 1, &s->cb));
  uv_poll_start(&s->poll, UV_READABLE, on_poll);
  return NULL;
}

static napi_value js_close(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  batch_sock *s = get_sock(env, argv[0]);
  if (s == NULL || s->closing) return NULL;
  s->closing = 1;
  napi_valuetype t = napi_undefined;
  if (argc > 1) napi_typeof(env, argv[1], &t);
  if (t == napi_function) CHECK(napi_create_reference(env, argv[1], 1, &s->on_close));
  uv_poll_stop(&s->poll);
  uv_close((uv_handle_t *)&s->poll, on_closed);
  return NULL;
}

/*
 * Steering by source network (SO_ATTACH_REUSEPORT_CBPF, Linux 4.5): the kernel runs this classic
 * BPF program for each datagram and hands it to the socket at the index it returns, so every
 * query of one client network reaches the same worker and that worker's response rate limiter
 * sees the network's whole rate. The network is the one RRL buckets by (/24 of IPv4, /56 of IPv6,
 * src/dns/server/response-rate-limit.ts), read from the IP header (SKF_NET_OFF), mixed by a
 * multiplicative hash, then taken modulo the group size. An index at or beyond the group's live
 * sockets (a worker being replaced) makes the kernel fall back to its own hash for that datagram.
 */
#define NET(k) ((uint32_t)(SKF_NET_OFF + (k)))
static napi_value js_steer(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  batch_sock *s = get_sock(env, argv[0]);
  int32_t group;
  if (s == NULL || s->closing) {
    napi_throw_error(env, NULL, "bad handle");
    return NULL;
  }
  CHECK(napi_get_value_int32(env, argv[1], &group));
  if (group < 1 || group > 1024) {
    napi_throw_range_error(env, NULL, "bad group size");
    return NULL;
  }
  struct sock_filter code[] = {
      /* 0 */ BPF_STMT(BPF_LD | BPF_B | BPF_ABS, NET(0)), /* version and IHL */
      /* 1 */ BPF_STMT(BPF_ALU | BPF_RSH | BPF_K, 4),
      /* 2 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 6, 3, 0), /* IPv6: to 6 */
      /* IPv4: the source address's first three octets (the /24). */
      /* 3 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NET(12)),
      /* 4 */ BPF_STMT(BPF_ALU | BPF_RSH | BPF_K, 8),
      /* 5 */ BPF_JUMP(BPF_JMP | BPF_JA, 5, 0, 0), /* to 11 */
      /* IPv6: the source address's first seven octets (the /56), folded into one word. */
      /* 6 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NET(8)),
      /* 7 */ BPF_STMT(BPF_MISC | BPF_TAX, 0),
      /* 8 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NET(12)),
      /* 9 */ BPF_STMT(BPF_ALU | BPF_RSH | BPF_K, 8),
      /* 10 */ BPF_STMT(BPF_ALU | BPF_XOR | BPF_X, 0),
      /* Both: mix, keep the high half, modulo the group. */
      /* 11 */ BPF_STMT(BPF_ALU | BPF_MUL | BPF_K, 0x9e3779b1u),
      /* 12 */ BPF_STMT(BPF_ALU | BPF_RSH | BPF_K, 16),
      /* 13 */ BPF_STMT(BPF_ALU | BPF_MOD | BPF_K, (uint32_t)group),
      /* 14 */ BPF_STMT(BPF_RET | BPF_A, 0),
  };
  struct sock_fprog prog = {.len = sizeof code / sizeof code[0], .filter = code};
  if (setsockopt(s->fd, SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &prog, sizeof prog) < 0)
    return throw_errno(env, "SO_ATTACH_REUSEPORT_CBPF");
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"open", NULL, js_open, NULL, NULL, NULL, napi_default, NULL},
      {"start", NULL, js_start, NULL, NULL, NULL, napi_default, NULL},
      {"close", NULL, js_close, NULL, NULL, NULL, napi_default, NULL},
      {"steer", NULL, js_steer, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, 4, props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
