# pix-sandbox as a container: 0.0.0.0:4747 inside, as the unprivileged user `node`, state in memory unless
# SANDBOX_DATA names a file under the /data volume. Every flag has an environment variable (docs/configuration.md).
# Port 443 serves the service's own names over TLS (api.pague.dev, api-gateway.pague.dev: give the container them as
# network aliases) with its local CA in /ca (ca.pem, and ca-bundle.pem with the system's CAs): share /ca with the apps.
# 443 needs net.ipv4.ip_unprivileged_port_start=0 (Docker's default; podman: --sysctl), else the banner says why not.
#   docker build -t pix-sandbox . && docker run --rm -p 4747:4747 pix-sandbox
# The only base is NODE_IMAGE (any image with node and npm, a user `node` and /bin/sh), so a mirror or an offline
# stand-in can replace the official image: --build-arg NODE_IMAGE=registry.example/node:22-slim
ARG NODE_IMAGE=docker.io/library/node:22-slim

# Build: every dependency, then dist/ (esbuild bundle). --ignore-scripts: no dependency's install script runs here.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json ./
COPY scripts/build.mjs scripts/
COPY src src/
COPY fixtures fixtures/
# dist/ bundles what it runs; whatever run-time dependencies package.json may list stay in node_modules.
RUN node scripts/build.mjs && npm prune --omit=dev --ignore-scripts --no-audit --no-fund && mkdir -p node_modules

FROM ${NODE_IMAGE}
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules/
COPY --from=build /app/dist dist/
COPY --from=build /app/fixtures fixtures/
COPY scripts/healthcheck.mjs dist/
RUN mkdir -p /data /ca && chown node:node /data /ca
VOLUME ["/data"]
USER node
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4747 SANDBOX_SERVICE_PORT=443 PIX_SANDBOX_HOME=/ca SANDBOX_CONTAINER=1
EXPOSE 4747 443
HEALTHCHECK --interval=5s --timeout=3s --start-period=30s --retries=3 CMD ["node", "/app/dist/healthcheck.mjs"]
ENTRYPOINT ["node", "/app/dist/cli.js"]
