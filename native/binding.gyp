{
  "targets": [
    {
      "target_name": "dns_udp_batch",
      "sources": ["src/dns-udp-batch.c"],
      "cflags": ["-O2", "-Wall", "-Wextra", "-std=gnu11"],
      "conditions": [["OS!='linux'", { "sources!": ["src/dns-udp-batch.c"] }]]
    },
    {
      "target_name": "edge_accept",
      "sources": ["src/edge-accept.c"],
      "cflags": ["-O2", "-Wall", "-Wextra", "-std=gnu11"],
      "conditions": [["OS!='linux'", { "sources!": ["src/edge-accept.c"] }]]
    }
  ]
}
