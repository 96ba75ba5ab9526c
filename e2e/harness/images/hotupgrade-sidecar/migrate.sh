#!/bin/sh
# postStart hook of the hot-upgrade sidecar stand-in: succeed once the sidecar serves (it writes /result),
# at once for the empty slot (SIDECARSET_VERSION=0).
if [ "${SIDECARSET_VERSION}" = "0" ]; then
  echo "empty image"
  exit 0
fi
for _ in $(seq 60); do
  if [ -e /result ]; then
    echo "check start success"
    rm -f /result
    exit 0
  fi
  sleep 1
done
echo "start failed"
exit 1
