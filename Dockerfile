# leadgate: the agency's site and lead-intake API (docs/deployment.md).
#   docker build --build-arg SITE_URL=https://agence.example -t leadgate .
#   docker run -d --restart unless-stopped -p 3000:3000 -v leadgate-data:/var/lib/leadgate \
#     --env-file leadgate.env leadgate
# (leadgate.env: a copy of deploy/leadgate.env.example, filled in, without quotes.) The image runs
# with NODE_ENV=production: `serve` refuses at start, in one line with exit 2, the sample identity of
# src/features/site/agency.ts, `.example` addresses and an outbox nobody chose.

# Build: compiles better-sqlite3, pre-renders the site and the CLI bundle, then drops dev dependencies.
FROM node:20-bookworm-slim AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ARG SITE_URL=http://localhost:3000
COPY . .
# npm ci runs the prepare script: `leadgate build` (site + CLI bundle) for this SITE_URL.
RUN SITE_URL="$SITE_URL" npm ci && npm prune --omit=dev

# Run: no compiler, no root, the journal in a volume.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/leadgate \
    DIST_DIR=/var/lib/leadgate-site/dist
WORKDIR /app
COPY --from=build /app /app
# The site built for the build's SITE_URL, in a folder of the node user's: a SITE_URL given at run
# time makes `serve` pre-render again beside it, then swap it in (the code in /app stays read-only).
RUN mkdir -p /var/lib/leadgate /var/lib/leadgate-site \
  && mv /app/dist /var/lib/leadgate-site/dist \
  && chown -R node:node /var/lib/leadgate /var/lib/leadgate-site \
  && chmod 0700 /var/lib/leadgate
USER node
VOLUME ["/var/lib/leadgate"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM lets in-flight requests finish (docs/reliability.md); exit 2 = fix the configuration (a
# restart policy restarts it anyway: `docker logs` shows the one line).
STOPSIGNAL SIGTERM
# The V8 flags of `npm start` (docs/performance.md, "Memory").
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=20", "bin/leadgate.js", "serve"]
