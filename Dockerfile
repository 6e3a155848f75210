# coinop in a container: docker build -t coinop . && docker run -p 8080:8080 -v coinop-data:/data coinop
# BASE is any Debian bookworm image with Node.js 22.13 or newer and npm on PATH; the tests pass one built from
# Debian's packages (they have no image registry). Both stages use it, so the build and the runtime share one Node.
ARG BASE=node:26-bookworm-slim

FROM ${BASE} AS build
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
# Dependencies first, in their own layer: a change to the sources does not download them again.
COPY package.json package-lock.json ./
COPY clients/typescript/package.json clients/typescript/
COPY scripts/check-node.cjs scripts/
RUN node scripts/check-node.cjs && npm ci --ignore-scripts && npm rebuild esbuild
COPY . .
# What `npm ci` runs as prepare (the service, its console, the SDK), then development packages go.
RUN npm run build && npm run build -w @coinop/client && npm prune --omit=dev

FROM ${BASE}
# tini as PID 1: it hands SIGTERM to node and reaps orphans, so `docker stop` is a graceful stop.
RUN command -v tini >/dev/null || { apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*; }
RUN useradd --system --user-group --uid 10001 --home-dir /app --shell /usr/sbin/nologin coinop \
  && mkdir /data && chown coinop:coinop /data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/clients/typescript clients/typescript
COPY --from=build /app/dist dist
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 SMTP_PORT=2525 DATA_DIR=/data
# SQLite's database (and its WAL) lives here; with DATABASE_URL=postgres://… nothing is written to it.
VOLUME /data
EXPOSE 8080 2525
USER coinop
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["tini", "--"]
CMD ["node", "--enable-source-maps", "--max-semi-space-size=16", "dist/main.js"]
