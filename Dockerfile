# syntax=docker/dockerfile:1
# Dependencies: the full Node image has python3, make and g++, so `npm ci`'s postinstall builds the
# native addons (native/: batch UDP, the game edge's listener); without them the DNS role would fall
# back to node:dgram and the edge to node:net.
FROM node:20-bookworm AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY native ./native
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production DATA_DIR=/var/lib/dns API_HOST=0.0.0.0 DNS_HOST=:: DNS_PORT=53
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends libcap2-bin \
  && setcap cap_net_bind_service=+ep "$(command -v node)" \
  && apt-get purge -y libcap2-bin && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /var/lib/dns && chown node:node /var/lib/dns
COPY --from=deps /app/node_modules ./node_modules
COPY --from=deps /app/native ./native
COPY package.json tsconfig.json ./
COPY src ./src
COPY geo ./geo
COPY catalog ./catalog
COPY migrations ./migrations
COPY tools ./tools
# Plain JavaScript in dist/ (tools/bundle.mjs): each process saves tsx's loader, about 44 MiB.
RUN npm run build
USER node
EXPOSE 53/udp 53/tcp 8080/tcp
# Every role serves /readyz on API_PORT (the dns and checker roles serve only /metrics, /healthz, /readyz there).
HEALTHCHECK --interval=30s --timeout=3s --start-period=30s CMD node -e "fetch('http://127.0.0.1:'+(process.env.API_PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM drains (up to 10 s); give `docker stop` more than that.
STOPSIGNAL SIGTERM
# A young generation of 4 MiB semi-spaces: the default keeps up to 48 MiB committed after the
# burst of loading zones (docs/benchmarks.md, "Idle memory").
CMD ["node", "--max-semi-space-size=4", "--expose-gc", "dist/main.js"]
