#!/bin/sh
# Stand-in for openkruise/hotupgrade-sample:busybox: polls the sidecar every 100 ms and logs every answer;
# like the sample it gives up (and the kubelet restarts it) on the first failed request. (Debian's
# busybox-static 1.35 wget segfaults with -T, hence timeout(1).)
while :; do
  if body=$(timeout 2 wget -q -O - http://127.0.0.1:9091/serve 2>&1); then
    echo "$(date -u '+%H:%M:%S') request sidecar server success, and response(body=${body})"
  else
    echo "$(date -u '+%H:%M:%S') request sidecar(http://127.0.0.1:9091/serve) failed: ${body}"
    exit 1
  fi
  sleep 0.1
done
