import { describe } from 'node:test';
import { container, runRuleCases } from '../pod-spec-cases.js';

const v = (...volumes: object[]) => ({ containers: [container()], volumes: volumes as never });
const fileMode = 'must be a number between 0 and 0777 (octal), both inclusive';
const dnsLabel =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric " +
  "character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

describe('volume rules (ValidateVolumes, validateVolumeSource)', () => {
  runRuleCases([
    { name: 'an emptyDir volume is valid', spec: v({ name: 'a', emptyDir: {} }), want: [] },
    { name: 'a volume needs a source', spec: v({ name: 'a' }), want: ['spec.volumes[0]: Required value: must specify a volume type'] },
    {
      name: 'a volume has one source; later ones are forbidden at their own path',
      spec: v({ name: 'a', emptyDir: {}, hostPath: { path: '/x' }, configMap: { name: 'c' } }),
      want: ['spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type', 'spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type'],
    },
    {
      name: 'the "more than 1" paths keep upstream spellings (downwarAPI, cephFS)',
      spec: v({ name: 'a', emptyDir: {}, downwardAPI: {}, cephfs: { monitors: ['m'] } }),
      want: ['spec.volumes[0].cephFS: Forbidden: may not specify more than 1 volume type', 'spec.volumes[0].downwarAPI: Forbidden: may not specify more than 1 volume type'],
    },
    { name: 'a volume name is required', spec: v({ emptyDir: {} }), want: ['spec.volumes[0].name: Required value'] },
    { name: 'a volume name is a DNS-1123 label', spec: v({ name: 'A_b', emptyDir: {} }), want: [`spec.volumes[0].name: Invalid value: "A_b": ${dnsLabel}`] },
    { name: 'volume names are unique', spec: v({ name: 'a', emptyDir: {} }, { name: 'a', emptyDir: {} }), want: ['spec.volumes[1].name: Duplicate value: "a"'] },
    { name: 'an emptyDir sizeLimit is non-negative', spec: v({ name: 'a', emptyDir: { sizeLimit: '-1Gi' } }), want: ['spec.volumes[0].emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity'] },
    { name: 'a hostPath needs a path', spec: v({ name: 'a', hostPath: { path: '' } }), want: ['spec.volumes[0].hostPath.path: Required value'] },
    { name: "a hostPath has no '..'", spec: v({ name: 'a', hostPath: { path: '/a/../b' } }), want: [`spec.volumes[0].hostPath.path: Invalid value: "/a/../b": must not contain '..'`] },
    {
      name: 'a hostPath type is a known one',
      spec: v({ name: 'a', hostPath: { path: '/x', type: 'Dir' } }),
      want: ['spec.volumes[0].hostPath.type: Unsupported value: "Dir": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"'],
    },
    { name: 'a configMap volume names its ConfigMap', spec: v({ name: 'a', configMap: { defaultMode: 420 } }), want: ['spec.volumes[0].configMap.name: Required value'] },
    { name: 'a configMap defaultMode is at most 0777', spec: v({ name: 'a', configMap: { name: 'c', defaultMode: 512 } }), want: [`spec.volumes[0].configMap.defaultMode: Invalid value: 512: ${fileMode}`] },
    { name: 'a secret defaultMode is non-negative', spec: v({ name: 'a', secret: { secretName: 's', defaultMode: -1 } }), want: [`spec.volumes[0].secret.defaultMode: Invalid value: -1: ${fileMode}`] },
    { name: 'a secret volume names its Secret', spec: v({ name: 'a', secret: {} }), want: ['spec.volumes[0].secret.secretName: Required value'] },
    {
      name: 'items need a key and a relative path without ..',
      spec: v({ name: 'a', configMap: { name: 'c', items: [{ key: '', path: '/abs', mode: 1024 }, { key: 'k', path: '..x' }] } }),
      want: [
        'spec.volumes[0].configMap.items[0].key: Required value',
        'spec.volumes[0].configMap.items[0].path: Invalid value: "/abs": must be a relative path',
        `spec.volumes[0].configMap.items[0].mode: Invalid value: 1024: ${fileMode}`,
        `spec.volumes[0].configMap.items[1].path: Invalid value: "..x": must not start with '..'`,
      ],
    },
    {
      name: 'downwardAPI items need a path and one of fieldRef/resourceFieldRef (reported at the source path)',
      spec: v({ name: 'a', downwardAPI: { items: [{ path: 'p' }, { path: 'q', fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } }] } }),
      want: [
        'spec.volumes[0].downwardAPI: Required value: one of fieldRef and resourceFieldRef is required',
        'spec.volumes[0].downwardAPI.fieldRef.fieldPath: Unsupported value: "spec.nodeName": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"',
      ],
    },
    {
      name: 'a downwardAPI resourceFieldRef names its container',
      spec: v({ name: 'a', downwardAPI: { items: [{ path: 'p', resourceFieldRef: { resource: 'limits.cpu' } }] } }),
      want: ['spec.volumes[0].downwardAPI.resourceFieldRef.containerName: Required value'],
    },
    {
      name: 'projected sources: one kind each, no duplicate paths, token of 10 minutes or more',
      spec: v({
        name: 'a',
        projected: {
          sources: [
            { configMap: { name: 'c', items: [{ key: 'k', path: 'same' }] }, secret: { name: 's', items: [{ key: 'k', path: 'same' }] } },
            { serviceAccountToken: { expirationSeconds: 60, path: 'token' } },
          ],
        },
      }),
      want: [
        'spec.volumes[0].projected: Invalid value: "c": conflicting duplicate paths',
        'spec.volumes[0].projected.sources[0]: Forbidden: may not specify more than 1 volume type per source',
        'spec.volumes[0].projected.sources[1].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
      ],
    },
    { name: 'a projected token needs a path (reported at projected.path)', spec: v({ name: 'a', projected: { sources: [{ serviceAccountToken: { expirationSeconds: 3600 } }] } }), want: ['spec.volumes[0].projected.path: Required value'] },
    { name: 'a PVC volume names its claim', spec: v({ name: 'a', persistentVolumeClaim: {} }), want: ['spec.volumes[0].persistentVolumeClaim.claimName: Required value'] },
    {
      name: 'an NFS volume has a server and an absolute path',
      spec: v({ name: 'a', nfs: { server: '', path: 'rel' } }),
      want: ['spec.volumes[0].nfs.server: Required value', 'spec.volumes[0].nfs.path: Invalid value: "rel": must be an absolute path'],
    },
    {
      name: 'a gcePersistentDisk reports at persistentDisk (upstream spelling)',
      spec: v({ name: 'a', gcePersistentDisk: { pdName: '', partition: 256 } }),
      want: ['spec.volumes[0].persistentDisk.pdName: Required value', 'spec.volumes[0].persistentDisk.partition: Invalid value: 256: must be between 1 and 255, inclusive'],
    },
    {
      name: 'an iSCSI volume has a portal, a valid IQN and a LUN in 0..255',
      spec: v({ name: 'a', iscsi: { targetPortal: '1.2.3.4:3260', iqn: 'bad', lun: 300, chapAuthSession: true } }),
      want: [
        'spec.volumes[0].iscsi.iqn: Invalid value: "bad": must be valid format starting with iqn, eui, or naa',
        'spec.volumes[0].iscsi.lun: Invalid value: 300: must be between 0 and 255, inclusive',
        'spec.volumes[0].iscsi.secretRef: Required value',
      ],
    },
    { name: 'a well-formed IQN is accepted', spec: v({ name: 'a', iscsi: { targetPortal: 'p:3260', iqn: 'iqn.2001-04.com.example:storage.disk1', lun: 0 } }), want: [] },
    {
      name: 'an IQN needs its date, a name and a colon-separated target',
      spec: v({ name: 'a', iscsi: { targetPortal: 'p:3260', iqn: 'iqn.2001-04.com.example', lun: 0, initiatorName: 'eui.123' } }),
      want: ['spec.volumes[0].iscsi.iqn: Invalid value: "iqn.2001-04.com.example": must be valid format', 'spec.volumes[0].iscsi.initiatorname: Invalid value: "eui.123": must be valid format'],
    },
    {
      name: 'an FC volume names targets or WWIDs, with a LUN for targets',
      spec: v({ name: 'a', fc: { targetWWNs: ['w'] } }),
      want: ['spec.volumes[0].fc.lun: Required value: lun is required if targetWWNs is specified'],
    },
    {
      name: 'flexVolume options may not use kubernetes.io namespaces',
      spec: v({ name: 'a', flexVolume: { driver: 'd', options: { 'kubernetes.io/x': 'y' } } }),
      want: ['spec.volumes[0].flexVolume.options[kubernetes.io/x]: Invalid value: "kubernetes.io/x": kubernetes.io and k8s.io namespaces are reserved'],
    },
    {
      name: 'a CSI driver name is a DNS subdomain of at most 63 characters',
      spec: v({ name: 'a', csi: { driver: '' } }),
      want: [
        'spec.volumes[0].csi.driver: Required value',
        "spec.volumes[0].csi.driver: Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    },
    {
      name: 'an Azure disk has a name, a URI matching its kind and a known caching mode',
      spec: v({ name: 'a', azureDisk: { diskName: 'd', diskURI: 'http://x', cachingMode: 'Some', kind: 'Managed' } }),
      want: [
        'spec.volumes[0].azureDisk.cachingMode: Unsupported value: "Some": supported values: "None", "ReadOnly", "ReadWrite"',
        'spec.volumes[0].azureDisk.diskURI: Unsupported value: "http://x": supported values: "/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"',
      ],
    },
    {
      name: 'an ephemeral volume has a claim template with access modes and a storage request',
      spec: v({ name: 'a', ephemeral: { volumeClaimTemplate: { spec: {} } } }),
      want: [
        'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes: Required value: at least 1 access mode is required',
        'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources[storage]: Required value',
      ],
    },
    {
      name: 'a PVC volume may not name the claim an ephemeral volume creates',
      spec: v(
        { name: 'eph', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } } },
        { name: 'b', persistentVolumeClaim: { claimName: 'test-eph' } },
      ),
      want: ['spec.volumes[1].persistentVolumeClaim.claimName: Invalid value: "test-eph": must not reference a PVC that gets created for an ephemeral volume'],
    },
    { name: 'an image volume needs a pull policy', spec: v({ name: 'a', image: { reference: 'busybox' } }), want: ['spec.volumes[0].image.pullPolicy: Required value'] },
  ]);
});
