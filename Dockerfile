# syntax=docker/dockerfile:1
# The base image is an argument so a machine that cannot pull it can build on a local stand-in of the same name
# and content (CI: ../shared/tools/stand-in-node-image.sh, see test/image-smoke.sh); Docker users change nothing.
ARG NODE_IMAGE=node:20-bookworm-slim
FROM ${NODE_IMAGE} AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# npm pack builds (prepack) and keeps exactly what the npm package holds (package.json "files"):
# the runtime image gets that, plus the production dependencies.
# better-sqlite3 was compiled here (no prebuilt binary reachable): only its addon is kept, not the SQLite sources and
# object files (≈ 25 MB), so the app's layers stay under 100 MB (issue 24). Nor does a running server read the
# dependencies' source maps, type declarations, Markdown documents (licences and notices stay) or the AWS SDK's ES
# module and type builds (Node requires its CommonJS one): ≈ 32 MB, which the AI agent's sentence model (28 MB,
# issue 30) needs.
RUN npm pack --silent && mkdir /pkg && tar -xzf loyalty-chat-*.tgz -C /pkg --strip-components=1 \
    && npm prune --omit=dev --no-audit --no-fund \
    && find node_modules -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -delete \
    && find node_modules -type f \( -iname '*.md' -o -iname '*.markdown' \) ! -iname 'licen*' ! -iname 'notice*' ! -iname 'copying*' -delete \
    && find node_modules/@aws-sdk node_modules/@smithy -type d \( -name dist-es -o -name dist-types \) -prune -exec rm -rf {} + \
    && cd node_modules/better-sqlite3 && rm -rf deps src build/deps build/Release/obj build/Release/obj.target build/Release/.deps \
        build/Release/sqlite3.a build/Release/test_extension.node

FROM ${NODE_IMAGE}
ENV NODE_ENV=production PORT=3000 DATA_DIR=/app/data
WORKDIR /app
COPY --from=build --chown=node:node /pkg ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
RUN mkdir -p -m 0700 /app/data && chown node:node /app/data && ln -s /app/bin/loyalty-chat /usr/local/bin/loyalty-chat
USER node
VOLUME /app/data
EXPOSE 3000
HEALTHCHECK CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["loyalty-chat", "serve"]
