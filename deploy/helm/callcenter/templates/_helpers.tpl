{{/*
Fixed ports the processes serve (not settings of the application, so not values):
LiveKit's own health server in the agent worker, and the Temporal SDK's Prometheus endpoint
in the Temporal worker.
*/}}
{{- define "callcenter.livekitHealthPort" -}}8081{{- end -}}
{{- define "callcenter.temporalSdkMetricsPort" -}}9102{{- end -}}
{{/* Where the Temporal mTLS client certificate is mounted. */}}
{{- define "callcenter.temporalTlsDir" -}}/etc/callcenter/temporal-tls{{- end -}}

{{/* Chart name, truncated to the 63 characters of a DNS label. */}}
{{- define "callcenter.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
Full name: "<release>-<chart>", or the release name when it already contains the chart name.
Truncated to 39 characters so that the longest name, "<fullname>-temporal-worker-metrics"
(a Service: a DNS label), still fits 63.
*/}}
{{- define "callcenter.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 39 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 39 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 39 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* "name-version" for the helm.sh/chart label. */}}
{{- define "callcenter.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels every resource carries. */}}
{{- define "callcenter.labels" -}}
helm.sh/chart: {{ include "callcenter.chart" . }}
app.kubernetes.io/name: {{ include "callcenter.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: callcenter
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Selector labels of the release (all components). */}}
{{- define "callcenter.selectorLabels" -}}
app.kubernetes.io/name: {{ include "callcenter.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/*
Labels and selector labels of one component. Call with
(dict "root" $ "component" "agent-worker").
*/}}
{{- define "callcenter.componentLabels" -}}
{{ include "callcenter.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "callcenter.componentSelectorLabels" -}}
{{ include "callcenter.selectorLabels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* Resource names of the components. */}}
{{- define "callcenter.agentWorker.fullname" -}}
{{- printf "%s-agent-worker" (include "callcenter.fullname" .) -}}
{{- end -}}
{{- define "callcenter.console.fullname" -}}
{{- printf "%s-console" (include "callcenter.fullname" .) -}}
{{- end -}}

{{- define "callcenter.temporalWorker.fullname" -}}
{{- printf "%s-temporal-worker" (include "callcenter.fullname" .) -}}
{{- end -}}
{{- define "callcenter.configName" -}}
{{- printf "%s-config" (include "callcenter.fullname" .) -}}
{{- end -}}
{{- define "callcenter.secretName" -}}
{{- printf "%s-secrets" (include "callcenter.fullname" .) -}}
{{- end -}}
{{- define "callcenter.dashboardName" -}}
{{- printf "%s-dashboard" (include "callcenter.fullname" .) -}}
{{- end -}}

{{/* ServiceAccount name. */}}
{{- define "callcenter.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "callcenter.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* Image reference: repository@digest, or repository:tag (tag defaults to appVersion). */}}
{{- define "callcenter.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
{{- end -}}

{{/*
Whether the chart creates its quick-start Secret: any inline credential was given.
Returns "true" or "".
*/}}
{{- define "callcenter.createSecret" -}}
{{- if or .Values.livekit.apiKey .Values.livekit.apiSecret .Values.llm.apiKey .Values.temporal.apiKey .Values.console.secret -}}
true
{{- end -}}
{{- end -}}

{{/*
Checks on combinations of values that the JSON schema cannot express clearly.
Included by every template that depends on them, so `helm template` fails with one message.
*/}}
{{- define "callcenter.validate" -}}
{{- if and .Values.livekit.existingSecret (or .Values.livekit.apiKey .Values.livekit.apiSecret) -}}
{{- fail "livekit: set either livekit.existingSecret or livekit.apiKey/livekit.apiSecret, not both" -}}
{{- end -}}
{{- if and (not .Values.livekit.existingSecret) (ne (empty .Values.livekit.apiKey) (empty .Values.livekit.apiSecret)) -}}
{{- fail "livekit: livekit.apiKey and livekit.apiSecret must be set together" -}}
{{- end -}}
{{- if and .Values.llm.existingSecret .Values.llm.apiKey -}}
{{- fail "llm: set either llm.existingSecret or llm.apiKey, not both" -}}
{{- end -}}
{{- if and .Values.temporal.existingSecret .Values.temporal.apiKey -}}
{{- fail "temporal: set either temporal.existingSecret or temporal.apiKey, not both" -}}
{{- end -}}
{{- if and .Values.temporal.tls.existingSecret (not .Values.temporal.tls.enabled) -}}
{{- fail "temporal.tls.existingSecret is set but temporal.tls.enabled is false: enable TLS to use a client certificate" -}}
{{- end -}}
{{- if and (or .Values.temporal.existingSecret .Values.temporal.apiKey) (not .Values.temporal.tls.enabled) -}}
{{- fail "temporal: an API key is only sent over TLS: set temporal.tls.enabled=true" -}}
{{- end -}}
{{- range $component, $id := .Values.temporal.identities -}}
{{- if and $id.tlsSecret (not $.Values.temporal.tls.enabled) -}}
{{- fail (printf "temporal.identities.%s.tlsSecret is set but temporal.tls.enabled is false: enable TLS to use a client certificate" $component) -}}
{{- end -}}
{{- if and $id.apiKeySecret (not $.Values.temporal.tls.enabled) -}}
{{- fail (printf "temporal.identities.%s.apiKeySecret: an API key is only sent over TLS: set temporal.tls.enabled=true" $component) -}}
{{- end -}}
{{- end -}}
{{- if and .Values.console.existingSecret .Values.console.secret -}}
{{- fail "console: set either console.existingSecret or console.secret, not both" -}}
{{- end -}}
{{- if and .Values.console.secret (lt (len .Values.console.secret) 32) -}}
{{- fail "console.secret must be at least 32 characters" -}}
{{- end -}}
{{- if and .Values.console.ingress.enabled (not .Values.console.ingress.host) -}}
{{- fail "console.ingress.enabled needs console.ingress.host" -}}
{{- end -}}
{{- $as := .Values.agentWorker.autoscaling -}}
{{- if and $as.enabled (gt (int $as.minReplicas) (int $as.maxReplicas)) -}}
{{- fail (printf "agentWorker.autoscaling.minReplicas (%d) must not exceed maxReplicas (%d)" (int $as.minReplicas) (int $as.maxReplicas)) -}}
{{- end -}}
{{- if and .Values.database.existingSecret .Values.postgresql.enabled -}}
{{- fail "database: set either database.existingSecret (an existing PostgreSQL) or postgresql.enabled (in-cluster), not both" -}}
{{- end -}}
{{- if not (or .Values.database.existingSecret .Values.postgresql.enabled) -}}
{{- fail "database: every component needs one shared database: set database.existingSecret (a Secret with the URL of an existing PostgreSQL) or postgresql.enabled=true" -}}
{{- end -}}
{{- $managed := include "callcenter.managedSettings" . | fromYamlArray -}}
{{- range $key, $_ := .Values.extraConfig -}}
{{- if has $key $managed -}}
{{- fail (printf "extraConfig.%s is managed by the chart: set it through its own value (see values.yaml)" $key) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Settings the chart writes itself (ConfigMap, env, secrets); extraConfig may not override them. */}}
{{- define "callcenter.managedSettings" -}}
- CALLCENTER_DATA_DIR
- CALLCENTER_LOG_LEVEL
- CALLCENTER_TRACING
- CALLCENTER_SERVICE_NAME
- CALLCENTER_OTLP_ENDPOINT
- CALLCENTER_AGENT_NAME
- CALLCENTER_DRAIN_TIMEOUT_S
- CALLCENTER_METRICS_PORT
- CALLCENTER_WORKER_METRICS_PORT
- CALLCENTER_ADAPTERS
- CALLCENTER_LLM_PROVIDER
- CALLCENTER_LLM_BASE_URL
- CALLCENTER_LLM_MODEL
- CALLCENTER_LLM_API_KEY
- CALLCENTER_STT_PROVIDER
- CALLCENTER_STT_MODEL
- CALLCENTER_TTS_PROVIDER
- CALLCENTER_TTS_MODEL
- CALLCENTER_TTS_VOICE
- CALLCENTER_LIVEKIT_URL
- CALLCENTER_LIVEKIT_API_KEY
- CALLCENTER_LIVEKIT_API_SECRET
- CALLCENTER_TEMPORAL_ADDRESS
- CALLCENTER_TEMPORAL_NAMESPACE
- CALLCENTER_TEMPORAL_TASK_QUEUE
- CALLCENTER_TEMPORAL_TLS
- CALLCENTER_TEMPORAL_TLS_CERT
- CALLCENTER_TEMPORAL_TLS_KEY
- CALLCENTER_TEMPORAL_API_KEY
- CALLCENTER_AUTO_REFUND_LIMIT
- CALLCENTER_APPROVAL_LIMIT_AGENT
- CALLCENTER_APPROVAL_LIMIT_SUPERVISOR
- CALLCENTER_APPROVAL_LIMIT_MANAGER
- CALLCENTER_FOUR_EYES_ABOVE
- CALLCENTER_CONSOLE_SECRET
- CALLCENTER_CONSOLE_PORT
- CALLCENTER_CONSOLE_HOST
- CALLCENTER_CONSOLE_COOKIE_SECURE
- CALLCENTER_OIDC_METADATA_URL
- CALLCENTER_OIDC_CLIENT_ID
- CALLCENTER_OIDC_CLIENT_SECRET
- CALLCENTER_DATABASE_URL
- CALLCENTER_WORKER_MAX_CALLS
- CALLCENTER_DB_POOL_SIZE
- CALLCENTER_DB_MAX_OVERFLOW
- CALLCENTER_DB_POOL_TIMEOUT_S
- CALLCENTER_DB_MIGRATE_ON_START
{{- end -}}

{{- define "callcenter.postgresql.fullname" -}}
{{- printf "%s-postgresql" (include "callcenter.fullname" .) -}}
{{- end -}}

{{- define "callcenter.postgresql.secretName" -}}
{{- default (include "callcenter.postgresql.fullname" .) .Values.postgresql.existingSecret -}}
{{- end -}}

{{/*
The shared database as CALLCENTER_DATABASE_URL: read from the existing Secret, or for the
in-cluster PostgreSQL a URL without a password plus PGPASSWORD from its Secret (libpq
reads it), so the password never sits in a URL.
*/}}
{{- define "callcenter.databaseEnv" -}}
{{- if .Values.database.existingSecret }}
- name: CALLCENTER_DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ .Values.database.existingSecret }}
      key: {{ .Values.database.existingSecretKey }}
{{- else }}
- name: CALLCENTER_DATABASE_URL
  value: {{ printf "postgresql+psycopg://%s@%s:5432/%s" .Values.postgresql.username (include "callcenter.postgresql.fullname" .) .Values.postgresql.database | quote }}
- name: PGPASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ include "callcenter.postgresql.secretName" . }}
      key: POSTGRES_PASSWORD
{{- end }}
{{- end -}}

{{/*
Environment shared by both workers: secrets (from existingSecret or the chart's Secret),
the TLS file paths, and the per-pod drain timeout. Call with
(dict "root" $ "drain" <seconds>).
*/}}
{{/*
A component's Temporal identity: its own client certificate and API key Secrets
(temporal.identities.<component>), else the shared ones. Call with
(dict "root" $ "component" "temporalWorker"|"agentWorker"|"console"); returns YAML.
*/}}
{{- define "callcenter.temporalIdentity" -}}
{{- $t := .root.Values.temporal -}}
{{- $id := default dict (index ($t.identities | default dict) .component) -}}
tlsSecret: {{ default $t.tls.existingSecret $id.tlsSecret | quote }}
apiKeySecret: {{ default $t.existingSecret $id.apiKeySecret | quote }}
{{- end -}}

{{- define "callcenter.env" -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- $chartSecret := include "callcenter.secretName" $root -}}
{{- $id := include "callcenter.temporalIdentity" . | fromYaml -}}
- name: CALLCENTER_DATA_DIR
  value: /data
- name: CALLCENTER_DRAIN_TIMEOUT_S
  value: {{ .drain | quote }}
{{- include "callcenter.databaseEnv" $root }}
{{- if or $v.livekit.existingSecret $v.livekit.apiKey }}
{{- $secret := default $chartSecret $v.livekit.existingSecret }}
{{- $keyKey := ternary $v.livekit.existingSecretKeys.apiKey "LIVEKIT_API_KEY" (not (empty $v.livekit.existingSecret)) }}
{{- $secretKey := ternary $v.livekit.existingSecretKeys.apiSecret "LIVEKIT_API_SECRET" (not (empty $v.livekit.existingSecret)) }}
{{- range $name := list "LIVEKIT_API_KEY" "CALLCENTER_LIVEKIT_API_KEY" }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ $keyKey }}
{{- end }}
{{- range $name := list "LIVEKIT_API_SECRET" "CALLCENTER_LIVEKIT_API_SECRET" }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ $secretKey }}
{{- end }}
{{- end }}
{{- if or $v.llm.existingSecret $v.llm.apiKey }}
- name: CALLCENTER_LLM_API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ default $chartSecret $v.llm.existingSecret }}
      key: {{ ternary $v.llm.existingSecretKey "CALLCENTER_LLM_API_KEY" (not (empty $v.llm.existingSecret)) }}
{{- end }}
{{- if or $id.apiKeySecret $v.temporal.apiKey }}
- name: CALLCENTER_TEMPORAL_API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ default $chartSecret $id.apiKeySecret }}
      key: {{ ternary $v.temporal.existingSecretKey "CALLCENTER_TEMPORAL_API_KEY" (not (empty $id.apiKeySecret)) }}
{{- end }}
{{- if or $v.console.existingSecret $v.console.secret }}
# The console signs decision credentials with this key; the Temporal worker verifies them.
- name: CALLCENTER_CONSOLE_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ default $chartSecret $v.console.existingSecret }}
      key: {{ ternary $v.console.existingSecretKey "CALLCENTER_CONSOLE_SECRET" (not (empty $v.console.existingSecret)) }}
{{- end }}
{{- if and $v.temporal.tls.enabled $id.tlsSecret }}
- name: CALLCENTER_TEMPORAL_TLS_CERT
  value: {{ printf "%s/%s" (include "callcenter.temporalTlsDir" $root) $v.temporal.tls.certKey | quote }}
- name: CALLCENTER_TEMPORAL_TLS_KEY
  value: {{ printf "%s/%s" (include "callcenter.temporalTlsDir" $root) $v.temporal.tls.keyKey | quote }}
{{- end }}
{{- end -}}

{{/* Volumes of every component; the Temporal client certificate is the component's own.
Call with (dict "root" $ "component" "temporalWorker"|"agentWorker"|"console"). */}}
{{- define "callcenter.volumes" -}}
{{- $v := .root.Values -}}
{{- $id := include "callcenter.temporalIdentity" . | fromYaml -}}
- name: data
  emptyDir:
    sizeLimit: {{ $v.volumes.dataSizeLimit }}
- name: tmp
  emptyDir:
    sizeLimit: {{ $v.volumes.tmpSizeLimit }}
{{- if and $v.temporal.tls.enabled $id.tlsSecret }}
- name: temporal-tls
  secret:
    secretName: {{ $id.tlsSecret }}
    defaultMode: 0440
    items:
      - key: {{ $v.temporal.tls.certKey }}
        path: {{ $v.temporal.tls.certKey }}
      - key: {{ $v.temporal.tls.keyKey }}
        path: {{ $v.temporal.tls.keyKey }}
{{- end }}
{{- end -}}

{{- define "callcenter.volumeMounts" -}}
{{- $id := include "callcenter.temporalIdentity" . | fromYaml -}}
- name: data
  mountPath: /data
- name: tmp
  mountPath: /tmp
{{- if and .root.Values.temporal.tls.enabled $id.tlsSecret }}
- name: temporal-tls
  mountPath: {{ include "callcenter.temporalTlsDir" .root }}
  readOnly: true
{{- end }}
{{- end -}}

{{/*
Pod annotations that roll the pods when the settings or the chart's Secret change.
*/}}
{{- define "callcenter.checksums" -}}
checksum/config: {{ include (print .Template.BasePath "/configmap.yaml") . | sha256sum }}
{{- if include "callcenter.createSecret" . }}
checksum/secret: {{ include (print .Template.BasePath "/secret.yaml") . | sha256sum }}
{{- end }}
{{- end -}}

{{/*
Default topology spread: prefer spreading one component's pods across nodes.
Call with (dict "root" $ "component" "agent-worker" "constraints" <list>).
*/}}
{{- define "callcenter.topologySpread" -}}
{{- if .constraints -}}
{{ toYaml .constraints }}
{{- else -}}
- maxSkew: 1
  topologyKey: kubernetes.io/hostname
  whenUnsatisfiable: ScheduleAnyway
  labelSelector:
    matchLabels:
      {{- include "callcenter.componentSelectorLabels" (dict "root" .root "component" .component) | nindent 6 }}
{{- end -}}
{{- end -}}
