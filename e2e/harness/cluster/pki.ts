// Test-cluster PKI made with openssl: one CA, the apiserver serving cert, and one client cert per component.
// Loopback only, short-lived run directories, so keys are plain files with no passphrase.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ClientCert { cert: string; key: string }
export interface Pki {
  dir: string;
  ca: string;
  caKey: string;
  apiserver: ClientCert;
  saKey: string;
  saPub: string;
  admin: ClientCert;
  kcm: ClientCert;
  scheduler: ClientCert;
}

const ssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });

function issue(dir: string, name: string, subject: string, ext: string): ClientCert {
  ssl(dir, ['genrsa', '-out', `${name}.key`, '2048']);
  ssl(dir, ['req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`]);
  writeFileSync(join(dir, `${name}.ext`), ext);
  ssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial',
    '-days', '30', '-sha256', '-extfile', `${name}.ext`, '-out', `${name}.crt`]);
  return { cert: join(dir, `${name}.crt`), key: join(dir, `${name}.key`) };
}

const CLIENT_EXT = 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n';

/** `apiAddress`: where the apiserver listens besides what pods dial (Service `kubernetes`, 10.96.0.1). */
export function makePki(dir: string, apiAddress = '127.0.0.1'): Pki {
  mkdirSync(dir, { recursive: true });
  ssl(dir, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt',
    '-days', '30', '-subj', '/CN=kruise-ts-test-ca']);
  const apiserver = issue(dir, 'apiserver', '/CN=kube-apiserver',
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n' +
    `subjectAltName=IP:127.0.0.1,${apiAddress === '127.0.0.1' ? '' : `IP:${apiAddress},`}DNS:localhost,IP:10.96.0.1,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc\n`);
  ssl(dir, ['genrsa', '-out', 'sa.key', '2048']);
  ssl(dir, ['rsa', '-in', 'sa.key', '-pubout', '-out', 'sa.pub']);
  return {
    dir,
    ca: join(dir, 'ca.crt'),
    caKey: join(dir, 'ca.key'),
    apiserver,
    saKey: join(dir, 'sa.key'),
    saPub: join(dir, 'sa.pub'),
    admin: issue(dir, 'admin', '/O=system:masters/CN=kruise-ts-admin', CLIENT_EXT),
    kcm: issue(dir, 'kcm', '/CN=system:kube-controller-manager', CLIENT_EXT),
    scheduler: issue(dir, 'scheduler', '/CN=system:kube-scheduler', CLIENT_EXT),
  };
}

/** One more client cert from the run's CA, e.g. a kubelet's `/O=system:nodes/CN=system:node:<name>`. */
export function issueClientCert(pkiDir: string, name: string, subject: string): ClientCert {
  return issue(pkiDir, name, subject, CLIENT_EXT);
}

export function kubeconfig(server: string, ca: string, user: ClientCert): string {
  return [
    'apiVersion: v1', 'kind: Config', 'current-context: kruise-ts',
    'clusters:', '- name: kruise-ts', '  cluster:', `    server: ${server}`, `    certificate-authority: ${ca}`,
    'users:', '- name: user', '  user:', `    client-certificate: ${user.cert}`, `    client-key: ${user.key}`,
    'contexts:', '- name: kruise-ts', '  context:', '    cluster: kruise-ts', '    user: user', '',
  ].join('\n');
}
