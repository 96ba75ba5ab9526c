module example.invalid/kruise-ts/hotupgrade-sidecar

go 1.24
