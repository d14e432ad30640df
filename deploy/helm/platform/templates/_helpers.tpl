{{/*
The apps: their variable prefix and public port, as PLATFORM_PROCESSES in libs/config (the
admin port is the public one + 1000; deploy/helm/test checks the two tables agree), the variable
that picks a role, and the keys each one reads.
*/}}
{{- define "platform.apps" -}}
gateway: { prefix: GATEWAY, port: 8080, keys: [INTERNAL_JWT_PRIVATE_KEY], optionalKeys: [TOTP_ENCRYPTION_KEY] }
domains-svc: { prefix: DOMAINS, port: 8081, roleEnv: DOMAINS_ROLE, roles: [api, scanner, all], keys: [INTERNAL_JWT_PUBLIC_KEY, SERVICE_JWT_PUBLIC_KEY, SERVICE_JWT_PRIVATE_KEY] }
billing-svc: { prefix: BILLING, port: 8082, keys: [INTERNAL_JWT_PUBLIC_KEY, SERVICE_JWT_PUBLIC_KEY, SERVICE_JWT_PRIVATE_KEY] }
merchants-svc: { prefix: MERCHANTS, port: 8083, keys: [INTERNAL_JWT_PUBLIC_KEY, SERVICE_JWT_PUBLIC_KEY, SERVICE_JWT_PRIVATE_KEY] }
consent-svc: { prefix: CONSENT, port: 8084, keys: [INTERNAL_JWT_PUBLIC_KEY, SERVICE_JWT_PUBLIC_KEY, SERVICE_JWT_PRIVATE_KEY, RECORD_SIGNING_KEYS] }
webhook-svc: { prefix: WEBHOOKS, port: 8085, roleEnv: WEBHOOK_ROLE, roles: [api, worker, all], keys: [INTERNAL_JWT_PUBLIC_KEY, SERVICE_JWT_PUBLIC_KEY, SERVICE_JWT_PRIVATE_KEY, WEBHOOK_SECRET_KEY] }
{{- end -}}

{{- define "platform.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "platform.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "platform.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* A component's resource name: <fullname>-<component in kebab case>. Context: { root, name }. */}}
{{- define "platform.componentName" -}}
{{- printf "%s-%s" (include "platform.fullname" .root) (kebabcase .name) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The Service in front of an app's api role, which the gateway and the other services call. Context: { root, app }. */}}
{{- define "platform.serviceName" -}}
{{- printf "%s-%s" (include "platform.fullname" .root) .app | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "platform.selectorLabels" -}}
app.kubernetes.io/name: {{ include "platform.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ kebabcase .name }}
{{- end -}}

{{/* Context: { root, name }; name is a component, or e.g. "migrate-gateway". */}}
{{- define "platform.labels" -}}
helm.sh/chart: {{ include "platform.chart" .root }}
{{ include "platform.selectorLabels" . }}
app.kubernetes.io/part-of: {{ include "platform.name" .root }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
{{- end -}}

{{- define "platform.externalSecretName" -}}
{{- .Values.external.existingSecret | default (printf "%s-external" (include "platform.fullname" .)) -}}
{{- end -}}

{{- define "platform.keysSecretName" -}}
{{- .Values.keys.existingSecret | default (printf "%s-keys" (include "platform.fullname" .)) -}}
{{- end -}}

{{/* Context: { root, component }. */}}
{{- define "platform.image" -}}
{{- $registry := .root.Values.image.registry -}}
{{- $tag := .component.image.tag | default .root.Values.image.tag | default .root.Chart.AppVersion -}}
{{- if $registry -}}{{ $registry }}/{{ end -}}{{ .component.image.repository }}:{{ $tag }}
{{- end -}}

{{/* An environment variable from a Secret's key. Context: { name, secret, key, optional }. */}}
{{- define "platform.secretEnv" -}}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ .secret }}
      key: {{ .key | default .name }}
      {{- if .optional }}
      optional: true
      {{- end }}
{{- end -}}

{{/*
A container's environment: its listeners (public on 0.0.0.0, admin on adminHost), role, every
service's URL (the cluster Services), the external URLs and the keys the app reads, then the
chart-wide and the component's own variables. Context: { root, component }.
*/}}
{{- define "platform.env" -}}
{{- $root := .root -}}
{{- $c := .component -}}
{{- $apps := include "platform.apps" $root | fromYaml -}}
{{- $app := get $apps $c.app -}}
{{- $external := include "platform.externalSecretName" $root -}}
{{- $keys := include "platform.keysSecretName" $root -}}
- name: {{ $app.prefix }}_HOST
  value: 0.0.0.0
- name: {{ $app.prefix }}_PORT
  value: {{ $app.port | quote }}
- name: {{ $app.prefix }}_ADMIN_HOST
  value: {{ $root.Values.adminHost | quote }}
- name: {{ $app.prefix }}_ADMIN_PORT
  value: {{ add $app.port 1000 | quote }}
{{- if $c.role }}
{{- if not (has $c.role ($app.roles | default list)) }}
{{- fail (printf "%s: role %s is not one of %s's roles (%s)" $c.app $c.role $c.app (join ", " ($app.roles | default list))) }}
{{- end }}
- name: {{ $app.roleEnv }}
  value: {{ $c.role | quote }}
{{- end }}
{{- range $name, $other := $apps }}
{{- if ne $name "gateway" }}
- name: {{ $other.prefix }}_URL
  value: {{ printf "http://%s:%v" (include "platform.serviceName" (dict "root" $root "app" $name)) $other.port | quote }}
{{- end }}
{{- end }}
- name: LOG_LEVEL
  value: {{ $root.Values.logLevel | quote }}
- name: WIDGET_BASE_URL
  value: {{ $root.Values.publicUrl | quote }}
- name: PORTAL_URL
  value: {{ $root.Values.portalUrl | default (printf "%s/app" $root.Values.publicUrl) | quote }}
{{ include "platform.secretEnv" (dict "name" "DATABASE_URL" "secret" $external) }}
{{ include "platform.secretEnv" (dict "name" "AMQP_URL" "secret" $external) }}
{{ include "platform.secretEnv" (dict "name" "REDIS_URL" "secret" $external "optional" true) }}
{{ include "platform.secretEnv" (dict "name" "SMTP_URL" "secret" $external "optional" true) }}
{{- range $app.keys }}
{{ include "platform.secretEnv" (dict "name" . "secret" $keys) }}
{{- end }}
{{- range $app.optionalKeys }}
{{ include "platform.secretEnv" (dict "name" . "secret" $keys "optional" true) }}
{{- end }}
{{- range $name, $value := merge (dict) ($c.env | default dict) $root.Values.env }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- end -}}
