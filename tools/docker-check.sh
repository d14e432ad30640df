#!/usr/bin/env bash
# npm run docker:check: the release check of the Docker path (docs/operations.md#docker).
# From a clean clone of HEAD: checks docker-compose.yml's merged config, runs compose's `keys`
# script, builds every app image from the root Dockerfile, runs each with host networking against
# this machine's PostgreSQL and RabbitMQ (a database and an exchange of its own, free ports), waits
# for each to answer ready on its admin port (and /metrics not on its public one), checks the gateway
# container serves the portal (/app/) and the widget's loader from its image, creates a partner and a key with the gateway image's admin CLI, and
# drives a domain create through the gateway container to a 200 and its subscription. Then it
# removes the containers, the database, the exchange's queues and the clone.
# Needs root (or the docker group), a Docker daemon, Compose (`docker compose` or `docker-compose`),
# git, curl and node.
# DOCKER_CHECK_KEEP=1 keeps the containers, the database and the clone for a look.
set -euo pipefail

ADMIN_DATABASE_URL=${DOCKER_CHECK_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
AMQP_URL=${DOCKER_CHECK_AMQP_URL:-amqp://guest:guest@127.0.0.1:5672}
READY_TIMEOUT_S=${DOCKER_CHECK_READY_TIMEOUT_S:-120}
SERVICES=(domains-svc billing-svc merchants-svc consent-svc webhook-svc)
# Each app's variable prefix and default port, read from the one table (libs/config PLATFORM_PROCESSES).
declare -A DEFAULT_PORT PREFIX
read_platform_table() {
  local app prefix port
  while read -r app prefix port; do
    PREFIX[$app]=$prefix DEFAULT_PORT[$app]=$port
  done < <(sed -n "s/.*{ app: '\([a-z-]*\)'.*prefix: '\([A-Z]*\)', port: \([0-9]*\) }.*/\1 \2 \3/p" "$REPO/libs/config/src/platform.ts")
  for app in gateway "${SERVICES[@]}"; do
    [[ -n ${PREFIX[$app]:-} ]] || fail "libs/config/src/platform.ts names no port for $app"
  done
}

RUN_ID="docker_check_$(date +%s)_$$"
EXCHANGE="$RUN_ID.events"
DATABASE_URL="${ADMIN_DATABASE_URL%/*}/$RUN_ID"
IMAGE_PREFIX=partner-platform
WORK=$(mktemp -d /tmp/docker-check.XXXXXX)
REPO="$WORK/repo"
CONTAINERS=()
STARTED=$(date +%s)

# Compose v2 is the `docker compose` plugin; v1 (and Debian 12's package) is `docker-compose`.
if docker compose version >/dev/null 2>&1; then COMPOSE=(docker compose)
elif command -v docker-compose >/dev/null; then COMPOSE=(docker-compose)
else
  echo "docker:check needs Docker Compose: neither 'docker compose' (the v2 plugin: Docker's docker-compose-plugin" \
    "package, or Debian 13's docker-compose) nor 'docker-compose' (Debian 12: apt-get install docker-compose) is installed." >&2
  exit 1
fi
compose() { (cd "$REPO" && "${COMPOSE[@]}" "$@"); }

log() { printf '[docker-check %3ss] %s\n' "$(($(date +%s) - STARTED))" "$*"; }
fail() { log "FAILED: $*"; exit 1; }
image() { echo "$IMAGE_PREFIX/$1:check"; }
# Runs node in the gateway image (it holds pg and amqplib), on the host's network.
in_image() { docker run --rm --network host "$(image gateway)" node -e "$@"; }

cleanup() {
  local status=$?
  [[ -n ${SITE_PID:-} ]] && kill "$SITE_PID" 2>/dev/null
  if [[ ${DOCKER_CHECK_KEEP:-} == 1 ]]; then
    log "kept: containers ${CONTAINERS[*]:-none}, database $RUN_ID, exchange $EXCHANGE, clone $WORK"
    return
  fi
  for c in "${CONTAINERS[@]}"; do docker stop -t 10 "$c" >/dev/null 2>&1 || true; docker rm -f "$c" >/dev/null 2>&1 || true; done
  if docker image inspect "$(image gateway)" >/dev/null 2>&1; then
    drop_broker_topology || log "could not delete the exchange $EXCHANGE and its queues"
    in_image "const {Client}=require('pg');const c=new Client({connectionString:process.argv[1]});
      c.connect().then(()=>c.query('DROP DATABASE IF EXISTS \"$RUN_ID\" WITH (FORCE)')).then(()=>c.end())" "$ADMIN_DATABASE_URL" \
      || log "could not drop the database $RUN_ID"
  fi
  rm -rf "$WORK"
  [[ $status == 0 ]] && log "PASSED" || log "exit $status"
}
trap cleanup EXIT

# The exchange as libs/messaging declares it, and every queue named after it (work, retry, parked).
drop_broker_topology() {
  local queues=()
  if command -v rabbitmqctl >/dev/null; then
    mapfile -t queues < <(rabbitmqctl -q list_queues name 2>/dev/null | grep -F "$EXCHANGE." || true)
  fi
  for s in "${SERVICES[@]}"; do
    queues+=("$EXCHANGE.$s" "$EXCHANGE.$s.parked" "$EXCHANGE.$s.retry.1" "$EXCHANGE.$s.retry.2" "$EXCHANGE.$s.retry.3")
  done
  in_image "const amqp=require('amqplib');(async()=>{const c=await amqp.connect(process.argv[1]);
    for (const q of process.argv.slice(3)) { const ch=await c.createChannel(); ch.on('error',()=>{}); await ch.deleteQueue(q).catch(()=>{}); }
    for (const x of [process.argv[2], process.argv[2]+'.unrouted']) { const ch=await c.createChannel(); ch.on('error',()=>{}); await ch.deleteExchange(x).catch(()=>{}); }
    await c.close();})()" "$AMQP_URL" "$EXCHANGE" "$EXCHANGE.unrouted" "${queues[@]}"
}

clone_head() {
  local root
  root=$(git rev-parse --show-toplevel)
  [[ -z $(git -C "$root" status --porcelain --untracked-files=no) ]] || log "note: uncommitted changes are not checked (the clone is of HEAD)"
  git clone --quiet --no-hardlinks "$root" "$REPO"
  log "cloned $(git -C "$REPO" log -1 --format='%h %s' | cut -c1-90)"
}

# docker compose cannot run here (no registry for postgres, rabbitmq, mailpit): check its merged
# config instead, every app service built by the root Dockerfile with the keys and addresses.
check_compose_config() {
  local warnings
  warnings=$(compose config -q 2>&1) || fail "${COMPOSE[*]} config: $warnings"
  [[ -z $warnings ]] || fail "${COMPOSE[*]} config warns: $warnings"
  warnings=$(compose --profile scale config -q 2>&1) || fail "${COMPOSE[*]} --profile scale config: $warnings"
  [[ -z $warnings ]] || fail "${COMPOSE[*]} --profile scale config warns: $warnings"
  local wiring
  # The scale profile's services too: its gateways and second workers are wired like the others.
  wiring=$(compose --profile scale config | python3 -c '
import sys, yaml
services = yaml.safe_load(sys.stdin)["services"]
apps = {"gateway", "domains-svc", "billing-svc", "merchants-svc", "consent-svc", "webhook-svc", "webhook-worker",
        "gateway-a", "gateway-b", "gateway-c", "webhook-worker-2"}
urls = ["DOMAINS_URL", "BILLING_URL", "MERCHANTS_URL", "CONSENT_URL", "WEBHOOKS_URL"]
problems = []
for name in sorted(apps):
    s = services.get(name) or {}
    build, env, cmd = s.get("build") or {}, s.get("environment") or {}, " ".join(s.get("command") or [])
    app = "webhook-svc" if name.startswith("webhook-worker") else "gateway" if name.startswith("gateway") else name
    if (build.get("args") or {}).get("APP") != app or build.get("dockerfile", "Dockerfile") != "Dockerfile":
        problems.append(f"{name}: not built by the root Dockerfile with APP={app}")
    problems += [f"{name}: no {u}" for u in urls if not env.get(u)]
    keys = ["INTERNAL_JWT_PRIVATE_KEY"] if app == "gateway" else ["INTERNAL_JWT_PUBLIC_KEY", "SERVICE_JWT_PUBLIC_KEY", "SERVICE_JWT_PRIVATE_KEY"]
    if app == "webhook-svc":
        keys.append("WEBHOOK_SECRET_KEY")
    if app == "consent-svc":
        keys.append("RECORD_SIGNING_KEYS")
    problems += [f"{name}: {k} not set" for k in keys if k + "=" not in cmd]
    if app != "gateway" and "INTERNAL_JWT_PRIVATE_KEY" in cmd:
        problems.append(f"{name}: holds the gateway private key")
    if "/health/ready" not in " ".join((s.get("healthcheck") or {}).get("test") or []):
        problems.append(f"{name}: no healthcheck of its admin /health/ready")
for name in ["domains-scanner", "domains-scanner-2"]:
    scanner = services.get(name) or {}
    if ((scanner.get("build") or {}).get("args") or {}).get("CHROMIUM") != "1" or (scanner.get("environment") or {}).get("DOMAINS_ROLE") != "scanner":
        problems.append(f"{name}: not the scanner role of domains-svc built with CHROMIUM=1")
    if scanner.get("security_opt") not in (["seccomp=deploy/seccomp/chromium.json"], ["seccomp:deploy/seccomp/chromium.json"]):
        problems.append(f"{name}: not under deploy/seccomp/chromium.json")
if (services["domains-svc"].get("environment") or {}).get("DOMAINS_ROLE") != "api":
    problems.append("domains-svc: not the api role (scans would run without Chromium)")
if problems:
    sys.exit("\n".join(problems))
print(f"{len(apps)} app services wired: root Dockerfile, key pairs, {len(urls)} service addresses, readiness healthchecks; the scanner role with Chromium and its seccomp profile")
') || fail "docker-compose.yml wiring: $wiring"
  log "${COMPOSE[*]} config: no warnings; $wiring"
}

# Runs compose's own `keys` script, so the check uses the keys compose would give the services.
make_keys() {
  local script
  script=$(compose config | python3 -c 'import sys, yaml; print(yaml.safe_load(sys.stdin)["services"]["keys"]["command"][2])')
  mkdir -p "$WORK/keys"
  docker run --rm -v "$WORK/keys:/keys" node:24-bookworm-slim node -e "$script"
  for f in internal-private.pem internal-public.pem service-private.pem service-public.pem webhook-secret.key record-signing-keys.json; do
    [[ -s $WORK/keys/$f ]] || fail "compose's keys script wrote no $f"
  done
  log "compose's keys script wrote both key pairs, the webhook secret key and the record signing keys"
}

build_images() {
  for app in gateway "${SERVICES[@]}"; do
    local t0=$(date +%s)
    docker build -q --build-arg "APP=$app" --build-arg "PORT=${DEFAULT_PORT[$app]}" -t "$(image "$app")" "$REPO" >/dev/null 2>"$WORK/build-$app.log" \
      || { cat "$WORK/build-$app.log"; fail "docker build of $app"; }
    docker run --rm "$(image "$app")" sh -c 'test -f main.js.map && test "$NODE_OPTIONS" = --enable-source-maps' \
      || fail "$app: no source map or source maps not enabled"
    log "built $(image "$app") in $(($(date +%s) - t0))s"
  done
  local t0=$(date +%s)
  docker build -q --build-arg APP=domains-svc --build-arg PORT=8081 --build-arg CHROMIUM=1 -t "$(image domains-scanner)" "$REPO" >/dev/null 2>"$WORK/build-scanner.log" \
    || { cat "$WORK/build-scanner.log"; fail "docker build of the scanner image (CHROMIUM=1)"; }
  local version
  version=$(docker run --rm "$(image domains-scanner)" /usr/bin/chromium --version) || fail "the scanner image has no working Chromium"
  log "built $(image domains-scanner) (domains-svc with CHROMIUM=1: $version) in $(($(date +%s) - t0))s"
}

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
# The variables a process's ports are read from (libs/config: <PREFIX>_PORT, <PREFIX>_ADMIN_PORT).
port_env() { echo "${PREFIX[$1]}_PORT"; }
admin_port_env() { echo "${PREFIX[$1]}_ADMIN_PORT"; }

declare -A PORT ADMIN_PORT
start_containers() {
  in_image "const {Client}=require('pg');const c=new Client({connectionString:process.argv[1]});
    c.connect().then(()=>c.query('CREATE DATABASE \"$RUN_ID\"')).then(()=>c.end())" "$ADMIN_DATABASE_URL"
  local common=(-e "DATABASE_URL=$DATABASE_URL" -e "AMQP_URL=$AMQP_URL" -e "EVENTS_EXCHANGE=$EXCHANGE" -e MIGRATE_ON_BOOT=true -e LOG_LEVEL=info)
  for app in gateway "${SERVICES[@]}"; do PORT[$app]=$(free_port); ADMIN_PORT[$app]=$(free_port); done
  for app in "${SERVICES[@]}"; do common+=(-e "${PREFIX[$app]}_URL=http://127.0.0.1:${PORT[$app]}"); done
  local keys="$WORK/keys"
  for app in "${SERVICES[@]}"; do
    local env=("${common[@]}" -e "$(port_env "$app")=${PORT[$app]}" -e "$(admin_port_env "$app")=${ADMIN_PORT[$app]}"
      -e "INTERNAL_JWT_PUBLIC_KEY=$(cat "$keys/internal-public.pem")"
      -e "SERVICE_JWT_PUBLIC_KEY=$(cat "$keys/service-public.pem")" -e "SERVICE_JWT_PRIVATE_KEY=$(cat "$keys/service-private.pem")")
    [[ $app == webhook-svc ]] && env+=(-e "WEBHOOK_SECRET_KEY=$(cat "$keys/webhook-secret.key")")
    [[ $app == consent-svc ]] && env+=(-e "RECORD_SIGNING_KEYS=$(cat "$keys/record-signing-keys.json")")
    [[ $app == domains-svc ]] && env+=(-e DOMAINS_ROLE=api)
    run_container "$app" "${env[@]}"
  done
  # The scanner role with Chromium; the customer's site is a local server (SCANNER_CONNECT_TO, loopback allowed).
  ADMIN_PORT[domains-scanner]=$(free_port)
  SITE_PORT=$(free_port)
  run_container domains-scanner "${common[@]}" -e DOMAINS_ROLE=scanner -e "DOMAINS_PORT=$(free_port)" -e "DOMAINS_ADMIN_PORT=${ADMIN_PORT[domains-scanner]}" \
    -e "INTERNAL_JWT_PUBLIC_KEY=$(cat "$keys/internal-public.pem")" \
    -e "SERVICE_JWT_PUBLIC_KEY=$(cat "$keys/service-public.pem")" -e "SERVICE_JWT_PRIVATE_KEY=$(cat "$keys/service-private.pem")" \
    -e SCANNER_ALLOW_LOOPBACK=true -e "SCANNER_CONNECT_TO=*.example.com:443:127.0.0.1:$(free_port),*.example.com:80:127.0.0.1:$SITE_PORT"
  run_container gateway "${common[@]}" -e "GATEWAY_PORT=${PORT[gateway]}" -e "GATEWAY_ADMIN_PORT=${ADMIN_PORT[gateway]}" -e "INTERNAL_JWT_PRIVATE_KEY=$(cat "$keys/internal-private.pem")"
}

run_container() {
  local app=$1 name="$RUN_ID-$1"
  shift
  docker run -d --name "$name" --network host "$@" "$(image "$app")" >/dev/null
  CONTAINERS+=("$name")
}

wait_ready() {
  for app in "${SERVICES[@]}" gateway; do
    local name="$RUN_ID-$app" deadline=$(($(date +%s) + READY_TIMEOUT_S))
    until curl -sf -o /dev/null "http://127.0.0.1:${ADMIN_PORT[$app]}/health/ready"; do
      if [[ $(docker inspect -f '{{.State.Running}}' "$name") != true ]] || (($(date +%s) > deadline)); then
        docker logs --tail 30 "$name" 2>&1
        fail "$app did not answer ready on its admin port ${ADMIN_PORT[$app]}"
      fi
      sleep 0.5
    done
    local metrics
    metrics=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${PORT[$app]}/metrics")
    [[ $metrics == 404 ]] || fail "$app answers /metrics on its public port ${PORT[$app]} ($metrics)"
    log "$app answers ready on admin port 127.0.0.1:${ADMIN_PORT[$app]}, /metrics 404 on 127.0.0.1:${PORT[$app]}"
  done
  local deadline=$(($(date +%s) + READY_TIMEOUT_S))
  until curl -sf -o /dev/null "http://127.0.0.1:${ADMIN_PORT[domains-scanner]}/health/ready"; do
    (($(date +%s) <= deadline)) || { docker logs --tail 30 "$RUN_ID-domains-scanner" 2>&1; fail "the scanner did not answer ready"; }
    sleep 0.5
  done
  log "domains-scanner (DOMAINS_ROLE=scanner) answers ready on admin port 127.0.0.1:${ADMIN_PORT[domains-scanner]}"
}

# The gateway image holds the portal's and the widget's builds beside its own (dist/apps layout):
# /app/ answers the portal's page with its CSP, the page's script is there, and so is the widget's loader.
check_served_builds() {
  local gateway="http://127.0.0.1:${PORT[gateway]}" headers page script status
  headers=$(curl -s -D - -o "$WORK/portal.html" "$gateway/app/")
  grep -q '^HTTP/[0-9.]* 200' <<<"$headers" && grep -qi '^content-security-policy:' <<<"$headers" \
    || fail "the gateway container does not serve the portal at /app/: $headers"
  script=$(grep -o '/app/assets/[^"]*\.js' "$WORK/portal.html" | head -n 1)
  [[ -n $script ]] || fail "the portal's page at /app/ names no script: $(head -c 300 "$WORK/portal.html")"
  status=$(curl -s -o /dev/null -w '%{http_code}' "$gateway$script")
  [[ $status == 200 ]] || fail "the gateway container answers $status for the portal's $script"
  status=$(curl -s -o /dev/null -w '%{http_code}' "$gateway/widget/v1/00000000-0000-4000-8000-000000000000/loader.js")
  [[ $status == 200 ]] || fail "the gateway container answers $status for the widget's loader"
  log "the gateway container serves the portal at /app/ (with its CSP and $script) and the widget's loader"
}

json_field() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const v=process.argv[1].split('.').reduce((o,k)=>o?.[k],JSON.parse(s));if(v==null)process.exit(1);console.log(typeof v==='object'?JSON.stringify(v):v)})" "$1"; }
admin() { docker run --rm --network host -e "DATABASE_URL=$DATABASE_URL" "$(image gateway)" node admin.js "$@" --json; }

create_domain_through_gateway() {
  local partner body status answer gateway="http://127.0.0.1:${PORT[gateway]}"
  partner=$(admin partner create --name "docker-check $RUN_ID" | json_field id) || fail "admin: partner create"
  key=$(admin key create --partner "$partner" --name docker-check | json_field key) || fail "admin: key create"
  log "admin CLI (gateway image): partner $partner, key ${key:0:12}..."
  body="{\"domain\":\"https://shop-${RUN_ID//_/-}.example.com\",\"company_name\":\"Docker Check $RUN_ID\",\"account_email\":\"owner@example.com\"}"
  answer=$(curl -s -w '\n%{http_code}' -H "Authorization: Bearer $key" -H 'Content-Type: application/json' -d "$body" "$gateway/portal/domains")
  status=${answer##*$'\n'}
  [[ $status == 200 ]] || fail "POST /portal/domains answered $status: ${answer%$'\n'*}"
  id=$(json_field result.id <<<"${answer%$'\n'*}")
  log "POST /portal/domains -> 200, domain $id"
  answer=$(curl -s -w '\n%{http_code}' -H "Authorization: Bearer $key" "$gateway/portal/domains/$id")
  status=${answer##*$'\n'}
  [[ $status == 200 ]] || fail "GET /portal/domains/$id answered $status: ${answer%$'\n'*}"
  local subscription
  subscription=$(json_field result.subscription <<<"${answer%$'\n'*}") || fail "the domain has no subscription: ${answer%$'\n'*}"
  log "GET /portal/domains/$id -> 200, subscription $(json_field status <<<"$subscription") $(json_field price.product.name <<<"$subscription")"
}

# A customer's site with a script that sets a cookie (seen only by a browser), scanned by the
# scanner container through the gateway; the report must say browser mode and list the cookie.
scan_in_browser_mode() {
  local gateway="http://127.0.0.1:${PORT[gateway]}" site="$WORK/site" answer status report
  mkdir -p "$site"
  printf '%s' '<!doctype html><html lang="en"><head><title>Shop</title><script>document.cookie="_ga=GA1.1.1; max-age=86400; path=/"</script></head><body>Shop</body></html>' >"$site/index.html"
  python3 -m http.server "$SITE_PORT" --bind 127.0.0.1 --directory "$site" >"$WORK/site.log" 2>&1 &
  SITE_PID=$!
  answer=$(curl -s -w '\n%{http_code}' -X POST -H "Authorization: Bearer $key" "$gateway/portal/domains/$id/scan")
  status=${answer##*$'\n'}
  [[ $status == 202 ]] || fail "POST /portal/domains/$id/scan answered $status: ${answer%$'\n'*}"
  local deadline=$(($(date +%s) + 120))
  while :; do
    report=$(curl -s -H "Authorization: Bearer $key" "$gateway/portal/domains/$id/scan")
    case $(json_field result.status <<<"$report") in completed | failed) break ;; esac
    (($(date +%s) <= deadline)) || { docker logs --tail 30 "$RUN_ID-domains-scanner" 2>&1; fail "the scan did not end: $report"; }
    sleep 1
  done
  [[ $(json_field result.status <<<"$report") == completed && $(json_field result.mode <<<"$report") == browser ]] \
    || fail "the scan did not complete in browser mode: $report"
  json_field result.findings.cookies <<<"$report" | grep -q '"_ga"' || fail "the browser-mode report lacks the script's cookie: $report"
  log "POST /portal/domains/$id/scan -> 202; the scanner container's report: completed in browser mode, the script-set _ga cookie found"
}

clone_head
read_platform_table
check_compose_config
build_images
make_keys
start_containers
wait_ready
check_served_builds
create_domain_through_gateway
scan_in_browser_mode
