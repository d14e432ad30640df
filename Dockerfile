# One image per app, built from the repository root:
#   docker build --build-arg APP=domains-svc --build-arg PORT=8081 -t platform/domains-svc .
# APP: gateway, domains-svc, billing-svc, merchants-svc, consent-svc or webhook-svc; PORT: the port
# it listens on (8080 ... 8085), documented by EXPOSE. Its admin port (health, readiness, /metrics;
# PORT + 1000) listens on the container's loopback and is not exposed. CHROMIUM=1 adds Chromium
# (the scanner's image). See docs/operations.md#docker.
# APP and PORT are declared after the installs, so every app's image shares those layers.
FROM node:24-bookworm-slim AS build
WORKDIR /repo
COPY package.json package-lock.json ./
# npm can exit 0 after "Exit handler never called" with a partial install: check what the build needs.
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && npm ls --omit=dev --omit=optional >/dev/null \
 && test -x node_modules/.bin/nx && test -x node_modules/.bin/esbuild
ARG APP
ARG PORT
RUN test -n "$APP" && test -n "$PORT" || { echo 'build with --build-arg APP=<app> --build-arg PORT=<port>' >&2; exit 1; }
COPY . .
# The gateway serves the portal web app (/app/) and the widget's files (/widget/v1/): its image holds
# their builds too, next to its own as in dist/apps, where its PORTAL_DIST_DIR and WIDGET_DIST_DIR look.
RUN served=$([ "$APP" = gateway ] && echo ,portal,widget || true) \
 && NX_DAEMON=false NX_NO_CLOUD=true npx nx run-many -t build --projects="$APP$served" --skip-nx-cache \
 && test -f "dist/apps/$APP/main.js" && test -f "dist/apps/$APP/main.js.map" \
 && { [ "$APP" != gateway ] || { test -f dist/apps/portal/index.html && test -d dist/apps/portal/assets \
      && test -f dist/apps/widget/loader.js && test -f dist/apps/widget/manifest.json; }; }

FROM node:24-bookworm-slim
ENV NODE_ENV=production
# Every app runs as app (uid and gid 10001, no login, no other groups), never root: the scanner's
# Chromium keeps its sandbox only as a non-root user (docs/scanner.md#the-browsers-sandbox), and
# an unused high uid shares no files with the host's users.
RUN groupadd --system --gid 10001 app \
 && useradd --system --uid 10001 --gid app --create-home --home-dir /home/app --shell /usr/sbin/nologin app
# Stack traces name the TypeScript sources (the bundles ship with their .map files).
ENV NODE_OPTIONS=--enable-source-maps
WORKDIR /app
COPY package.json package-lock.json ./
# The same check for the production dependencies: a partial install fails here, not at run time
# (each one's package.json: a data package such as the GeoIP file's has no entry to resolve).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm ls --omit=dev --omit=optional >/dev/null \
 && node -e "for (const d of Object.keys(require('./package.json').dependencies)) require('fs').statSync('node_modules/' + d + '/package.json')" \
 && npm cache clean --force
# CHROMIUM=1 adds Debian's Chromium for the site scanner's browser mode (domains-svc with
# DOMAINS_ROLE=scanner); without it a scanner runs in http mode and its reports say so. Its sandbox
# needs user namespaces: run the container with deploy/seccomp/chromium.json (Docker's default
# profile refuses them), else the scanner refuses browser mode and scans in http mode.
ARG CHROMIUM=
RUN if [ "$CHROMIUM" = 1 ]; then apt-get update && apt-get install -y --no-install-recommends chromium \
    && rm -rf /var/lib/apt/lists/* && test -x /usr/bin/chromium; fi
ARG APP
ARG PORT
# dist/apps as built: the app's bundle, and for the gateway the portal and the widget beside it.
COPY --from=build /repo/dist/apps ./apps
WORKDIR /app/apps/$APP
# Numeric, so Kubernetes' runAsNonRoot can check it.
USER 10001:10001
EXPOSE $PORT
CMD ["node", "main.js"]
