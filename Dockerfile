# syntax=docker/dockerfile:1
# Build stage: compiles TypeScript and better-sqlite3's native module, then drops dev dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

# Runtime stage: only the compiled app and production dependencies, run as the unprivileged node user.
FROM node:20-bookworm-slim
# A fixed malloc threshold, so that a large export's peak does not grow with its size
# (docs/decisions-export.md, "The allocator's threshold").
ENV NODE_ENV=production PORT=3000 MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# exec form: node is PID 1's child-free process and receives SIGTERM directly for a graceful stop.
# The young generation capped at 8 MiB a semi-space (docs/decisions-export.md, "The young
# generation's size").
CMD ["node", "--max-semi-space-size=8", "dist/src/main.js"]
