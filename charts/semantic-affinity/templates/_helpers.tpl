{{/*
Naming rules. Names are truncated to 63 characters because Kubernetes name fields that are DNS
labels (Service names, label values) are limited to that.
*/}}
{{- define "semaff.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "semaff.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* Component names: the suffix is kept whole, the prefix gives way (53 + "-scheduler"). */}}
{{- define "semaff.webhook.fullname" -}}
{{- printf "%s-webhook" (include "semaff.fullname" . | trunc 55 | trimSuffix "-") }}
{{- end }}
{{- define "semaff.scheduler.fullname" -}}
{{- printf "%s-scheduler" (include "semaff.fullname" . | trunc 53 | trimSuffix "-") }}
{{- end }}
{{- define "semaff.nodeAgent.fullname" -}}
{{- printf "%s-node-agent" (include "semaff.fullname" . | trunc 52 | trimSuffix "-") }}
{{- end }}

{{- define "semaff.certs.fullname" -}}
{{- printf "%s-certs" (include "semaff.fullname" . | trunc 57 | trimSuffix "-") }}
{{- end }}

{{- define "semaff.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels on every object; pass (dict "ctx" $ "component" "webhook"). */}}
{{- define "semaff.labels" -}}
helm.sh/chart: {{ include "semaff.chart" .ctx }}
{{ include "semaff.selectorLabels" . }}
app.kubernetes.io/version: {{ .ctx.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .ctx.Release.Service }}
app.kubernetes.io/part-of: semantic-affinity
{{- with .ctx.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{- define "semaff.selectorLabels" -}}
app.kubernetes.io/name: {{ include "semaff.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "semaff.webhook.serviceAccountName" -}}
{{- if .Values.webhook.serviceAccount.create }}
{{- default (include "semaff.webhook.fullname" .) .Values.webhook.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.webhook.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "semaff.scheduler.serviceAccountName" -}}
{{- if .Values.scheduler.serviceAccount.create }}
{{- default (include "semaff.scheduler.fullname" .) .Values.scheduler.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.scheduler.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The project's image: digest wins over tag, tag defaults to appVersion. */}}
{{- define "semaff.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}

{{/* Object names shared by several templates. */}}
{{- define "semaff.tlsSecretName" -}}
{{- if eq .Values.tls.mode "secret" }}
{{- required "tls.secret.name is required when tls.mode is secret" .Values.tls.secret.name }}
{{- else }}
{{- printf "%s-tls" (include "semaff.webhook.fullname" .) }}
{{- end }}
{{- end }}

{{- define "semaff.caSecretName" -}}
{{- printf "%s-ca" (include "semaff.certs.fullname" .) }}
{{- end }}

{{- define "semaff.signingSecretName" -}}
{{- default (printf "%s-signing-key" (include "semaff.fullname" . | trunc 51 | trimSuffix "-")) .Values.signing.existingSecret }}
{{- end }}

{{- define "semaff.verifyConfigMapName" -}}
{{- printf "%s-verify-keys" (include "semaff.fullname" . | trunc 51 | trimSuffix "-") }}
{{- end }}

{{- define "semaff.webhookConfigurationName" -}}
{{- include "semaff.fullname" . }}
{{- end }}

{{- define "semaff.certManagerCertificateName" -}}
{{- printf "%s-serving" (include "semaff.webhook.fullname" . | trunc 55 | trimSuffix "-") }}
{{- end }}

{{/* The certificate Job runs when it has TLS material or a signing key to look after. */}}
{{- define "semaff.certJobEnabled" -}}
{{- if or (eq .Values.tls.mode "job") (not .Values.signing.existingSecret) }}true{{- end }}
{{- end }}

{{/* Container security settings shared by every container of the chart. */}}
{{- define "semaff.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
capabilities:
  drop: ["ALL"]
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{- define "semaff.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 65532
runAsGroup: 65532
fsGroup: 65532
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/* Topology spread across nodes; pass (dict "ctx" $ "component" "webhook" "spread" .Values.webhook.topologySpread). */}}
{{- define "semaff.topologySpread" -}}
{{- if .spread.enabled }}
topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: kubernetes.io/hostname
    whenUnsatisfiable: {{ .spread.whenUnsatisfiable }}
    labelSelector:
      matchLabels:
        {{- include "semaff.selectorLabels" . | nindent 8 }}
{{- end }}
{{- end }}

{{/*
The namespaces never sent to the webhook, comma-separated (one definition for the
MutatingWebhookConfiguration's namespaceSelector and the webhook's SEMAFF_EXCLUDED_NAMESPACES).
*/}}
{{- define "semaff.webhook.excludedNamespaces" -}}
{{- concat (list .Release.Namespace "kube-system") .Values.webhook.excludeNamespaces | uniq | join "," -}}
{{- end -}}
