{{/* The image of all three components. */}}
{{- define "kruise-ts.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{/* pino level from a name or upstream's klog verbosity ("4"). */}}
{{- define "kruise-ts.logLevel" -}}
{{- $l := toString . -}}
{{- if regexMatch "^[0-9]+$" $l -}}
{{- $v := atoi $l -}}
{{- if ge $v 5 }}trace{{ else if ge $v 3 }}debug{{ else }}info{{ end -}}
{{- else -}}
{{ $l }}
{{- end -}}
{{- end -}}

{{/* FEATURE_GATES and LOG_LEVEL, shared by the three containers; args: (list $ logLevel). */}}
{{- define "kruise-ts.commonEnv" -}}
{{- $root := index . 0 -}}
{{- $level := index . 1 -}}
{{- if $root.Values.featureGates }}
- {name: FEATURE_GATES, value: {{ $root.Values.featureGates | quote }}}
{{- end }}
{{- if $level }}
- {name: LOG_LEVEL, value: {{ include "kruise-ts.logLevel" $level | quote }}}
{{- end }}
{{- end -}}

{{/* Pod-spec fields the webhook and the controllers share; arg: (list $ control-plane-label). */}}
{{- define "kruise-ts.managerPodSpec" -}}
{{- $root := index . 0 -}}
{{- $label := index . 1 -}}
{{- with $root.Values.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
{{- if $root.Values.manager.hostNetwork }}
hostNetwork: true
dnsPolicy: ClusterFirstWithHostNet
{{- end }}
{{- with $root.Values.manager.nodeSelector }}
nodeSelector: {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $root.Values.manager.tolerations }}
tolerations: {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $root.Values.imagePullSecrets }}
imagePullSecrets: {{- toYaml . | nindent 2 }}
{{- end }}
{{- if eq $root.Values.manager.antiAffinity "preferred" }}
affinity:
  podAntiAffinity:
    preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 100
        podAffinityTerm:
          topologyKey: kubernetes.io/hostname
          labelSelector: {matchLabels: {control-plane: {{ $label }}}}
{{- else if eq $root.Values.manager.antiAffinity "required" }}
affinity:
  podAntiAffinity:
    requiredDuringSchedulingIgnoredDuringExecution:
      - topologyKey: kubernetes.io/hostname
        labelSelector: {matchLabels: {control-plane: {{ $label }}}}
{{- else if $root.Values.manager.antiAffinity }}
{{- fail "manager.antiAffinity: preferred, required or empty" }}
{{- end }}
{{- end -}}

{{/* The pod webhook's namespaceSelector: kruise's own namespaces and kube-system are never sent to it. */}}
{{- define "kruise-ts.podNamespaceSelector" -}}
{{- $sel := .Values.webhookConfiguration.namespaceSelector | default dict -}}
{{- with $sel.matchLabels }}
matchLabels: {{- toYaml . | nindent 2 }}
{{- end }}
matchExpressions:
  - key: control-plane
    operator: NotIn
    values:
      - openkruise
  - key: kubernetes.io/metadata.name
    operator: NotIn
    values:
      - kube-system
{{- with $sel.matchExpressions }}
{{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* Annotations of both webhook configurations beyond `template`. */}}
{{- define "kruise-ts.webhookAnnotations" -}}
{{- if .Values.externalCerts.enabled }}
cert-manager.io/inject-ca-from: kruise-system/kruise-webhook-cert
{{- end }}
{{- with .Values.externalCerts.annotations }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/*
"true" when featureGates turns ResourceDistributionGate on, read as shared/feature-gates.ts reads FEATURE_GATES:
comma-separated Name=value pairs, spaces and case of the value ignored, the last pair of a name wins, and an alpha
gate not named follows AllAlpha. Its RBAC is rendered only then (review N-M4).
*/}}
{{- define "kruise-ts.resourceDistributionGate" -}}
{{- $explicit := "" -}}
{{- $allAlpha := "" -}}
{{- range $part := splitList "," (toString .Values.featureGates) -}}
{{- $kv := splitList "=" $part -}}
{{- $name := trim (first $kv) -}}
{{- $value := "" -}}
{{- if gt (len $kv) 1 }}{{ $value = lower (trim (index $kv 1)) }}{{ end -}}
{{- if eq $name "ResourceDistributionGate" }}{{ $explicit = $value }}{{ end -}}
{{- if eq $name "AllAlpha" }}{{ $allAlpha = $value }}{{ end -}}
{{- end -}}
{{- if $explicit }}{{ eq $explicit "true" }}{{ else }}{{ eq $allAlpha "true" }}{{ end -}}
{{- end -}}

{{/*
"true" or "false": whether featureGates turns a gate on, read as shared/feature-gates.ts reads FEATURE_GATES (the
last pair of a name wins; an unnamed gate follows AllAlpha/AllBeta by its stage, else its default).
Args: (list $ "GateName" default stage), e.g. (list $ "PodUnavailableBudgetDeleteGate" true "beta").
*/}}
{{- define "kruise-ts.gate" -}}
{{- $root := index . 0 -}}
{{- $gate := index . 1 -}}
{{- $default := index . 2 -}}
{{- $all := ternary "AllAlpha" "AllBeta" (eq (index . 3) "alpha") -}}
{{- $explicit := "" -}}
{{- $allValue := "" -}}
{{- range $part := splitList "," (toString $root.Values.featureGates) -}}
{{- $kv := splitList "=" $part -}}
{{- $name := trim (first $kv) -}}
{{- $value := "" -}}
{{- if gt (len $kv) 1 }}{{ $value = lower (trim (index $kv 1)) }}{{ end -}}
{{- if eq $name $gate }}{{ $explicit = $value }}{{ end -}}
{{- if eq $name $all }}{{ $allValue = $value }}{{ end -}}
{{- end -}}
{{- if $explicit }}{{ eq $explicit "true" }}{{ else if $allValue }}{{ eq $allValue "true" }}{{ else }}{{ $default }}{{ end -}}
{{- end -}}

{{/* The PUB gates as the webhook reads them: off when PodWebhook is off (shared/feature-gates.ts). */}}
{{- define "kruise-ts.pubDeleteGate" -}}
{{- and (eq (include "kruise-ts.gate" (list . "PodWebhook" true "beta")) "true") (eq (include "kruise-ts.gate" (list . "PodUnavailableBudgetDeleteGate" true "beta")) "true") -}}
{{- end -}}
{{- define "kruise-ts.pubUpdateGate" -}}
{{- and (eq (include "kruise-ts.gate" (list . "PodWebhook" true "beta")) "true") (eq (include "kruise-ts.gate" (list . "PodUnavailableBudgetUpdateGate" false "alpha")) "true") -}}
{{- end -}}

{{/* WorkloadSpread as the webhook reads it: off when PodWebhook is off. */}}
{{- define "kruise-ts.workloadSpreadGate" -}}
{{- and (eq (include "kruise-ts.gate" (list . "PodWebhook" true "beta")) "true") (eq (include "kruise-ts.gate" (list . "WorkloadSpread" true "beta")) "true") -}}
{{- end -}}

{{/* SidecarTerminator as the controllers read it: off when KruiseDaemon is off, as upstream forces it. */}}
{{- define "kruise-ts.sidecarTerminatorGate" -}}
{{- and (eq (include "kruise-ts.gate" (list . "KruiseDaemon" true "beta")) "true") (eq (include "kruise-ts.gate" (list . "SidecarTerminator" false "alpha")) "true") -}}
{{- end -}}

{{/* "true" when ResourcesDeletionProtection is on: its webhook entries and RBAC are rendered only then. */}}
{{- define "kruise-ts.deletionProtection" -}}
{{- include "kruise-ts.gate" (list . "ResourcesDeletionProtection" false "beta") -}}
{{- end -}}

{{/* "true" when DeletionProtectionForCRDCascadingGate is on, which ResourcesDeletionProtection off forces off. */}}
{{- define "kruise-ts.crdCascadingProtection" -}}
{{- and (eq (include "kruise-ts.deletionProtection" .) "true") (eq (include "kruise-ts.gate" (list . "DeletionProtectionForCRDCascadingGate" false "alpha")) "true") -}}
{{- end -}}
