#!/bin/sh
# Stand-in for openkruise/hotupgrade-sample:busybox: polls the sidecar every 100 ms and logs every answer;
# like the sample it gives up (and the kubelet restarts it) on the first failed request.
while :; do
  if body=$(wget -q -T 2 -O - http://127.0.0.1:9091/serve 2>&1); then
    echo "$(date -u '+%H:%M:%S') request sidecar server success, and response(body=${body})"
  else
    echo "$(date -u '+%H:%M:%S') request sidecar(http://127.0.0.1:9091/serve) failed: ${body}"
    exit 1
  fi
  sleep 0.1
done
