# kennel: stateful mock of the Pet Store API.
#
#   docker build -t kennel-openapi .
#   docker run --rm -p 4010:4010 kennel-openapi                 # serves on 0.0.0.0:4010
#   docker run --rm -p 4010:4010 kennel-openapi serve --seed 7  # other `kennel` arguments (still on
#                                                         # 0.0.0.0: the image sets KENNEL_HOST)
#   docker run --rm -p 8080:8080 -e KENNEL_PORT=8080 kennel-openapi # another port: use KENNEL_PORT,
#                                                             # which the HEALTHCHECK follows too
#
# scripts/verify-docker.sh (npm run verify:docker) performs this file's COPY and RUN steps on a
# clean copy of the repository without a Docker engine, then runs the image's ENTRYPOINT + CMD
# and HEALTHCHECK; it reads them from this file, so keep COPY sources literal (no wildcards) and
# RUN steps to npm commands.

# --- build: install everything (including devDependencies) and compile src/ to dist/ ---------
FROM node:24-slim AS build
ENV SCARF_ANALYTICS=false
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts ./scripts
COPY spec ./spec
# `npm ci` runs the `prepare` script (tsc, then scripts/validate-specs.js over spec/), which writes
# dist/. It also installs the `node` devDependency (a ~100 MB Node 24 binary): only in this
# discarded stage.
RUN npm ci
COPY bin ./bin
COPY fixtures ./fixtures
COPY scenarios ./scenarios
COPY web ./web

# --- runtime: production dependencies + compiled output, as the unprivileged `node` user ------
FROM node:24-slim AS runtime
# KENNEL_HOST, not a --host in CMD: `docker run kennel-openapi serve --seed 7` replaces CMD, and the server
# must still listen on every interface to be reachable through -p.
ENV NODE_ENV=production SCARF_ANALYTICS=false KENNEL_HOST=0.0.0.0
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: no `prepare` (tsc is a devDependency) and no dependency install scripts.
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
COPY --from=build /app/spec ./spec
COPY --from=build /app/fixtures ./fixtures
COPY --from=build /app/scenarios ./scenarios
COPY --from=build /app/web ./web
# Files stay root-owned (read-only for the server); the server needs no write access.
USER node
EXPOSE 4010
# No curl in slim images: node's global fetch. The admin health route needs no credentials,
# even with --admin-token. The port follows KENNEL_PORT like `kennel serve` does.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.KENNEL_PORT||4010)+'/__kennel/health',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node is PID 1: kennel stops cleanly on SIGTERM (docker stop) and SIGINT. The V8 flag is the one
# bin/kennel.js's shebang passes (docs/decisions.md, "Memory").
ENTRYPOINT ["node", "--max-semi-space-size=8", "bin/kennel.js"]
CMD ["serve"]
