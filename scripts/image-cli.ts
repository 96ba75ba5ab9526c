// `npm run image [-- --archive FILE] [-- --push DEST [--dest-tls-verify=false] [--dest-creds USER:PASS]]`:
// builds the kruise-ts image (scripts/image.ts: an OCI layout with an index for linux/amd64 and linux/arm64, from
// pinned inputs, reproducible; no Docker engine needed) tagged with the package version, prints where it is, its
// index digest, size and SBOMs, and optionally writes a docker-archive of this machine's platform (for `ctr images
// import`, `kind load image-archive`, `docker load`) with its SBOM next to it (FILE.cdx.json), or pushes both
// platforms (any skopeo destination, e.g. docker://registry/kruise-ts:0.1.0).
import { copyFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildKruiseTsImage, imageSize, pushImageTo, writeArchive } from './image.js';
import { hostPlatform } from './image/platforms.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({ args: argv, options: {
      archive: { type: 'string' }, push: { type: 'string', multiple: true },
      'dest-tls-verify': { type: 'string' }, 'dest-creds': { type: 'string' }, help: { type: 'boolean' },
    } }).values;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write('usage: npm run image [-- --archive FILE] [--push DEST [--dest-tls-verify=false] [--dest-creds USER:PASS]]\n');
    return 0;
  }
  const image = await buildKruiseTsImage(repoRoot);
  const size = imageSize(image);
  process.stdout.write(`image ${image.name}:${image.tag}\n  index ${image.digest} (linux/amd64, linux/arm64)\n  OCI layout ${image.layout}\n`
    + `  size ${mb(size.compressed)} compressed in ${size.layers} layers (linux/${hostPlatform().arch})\n`
    + Object.entries(image.sboms).map(([a, f]) => `  SBOM linux/${a} ${f}\n`).join(''));
  if (args.archive) {
    const file = resolve(args.archive);
    await writeArchive(image, file);
    const sbom = `${file.replace(/\.tar$/, '')}.cdx.json`;
    copyFileSync(image.sboms[hostPlatform().arch] as string, sbom);
    process.stdout.write(`  archive ${file} (${mb(statSync(file).size)}; ctr images import / kind load image-archive / docker load)\n  SBOM ${sbom}\n`);
  }
  for (const dest of args.push ?? []) {
    await pushImageTo(image, dest.includes('://') ? dest : `docker://${dest}`, {
      allPlatforms: true, tlsVerify: args['dest-tls-verify'] !== 'false', ...(args['dest-creds'] ? { creds: args['dest-creds'] } : {}),
    });
    process.stdout.write(`  pushed ${dest}\n`);
  }
  return 0;
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err: unknown) => {
  process.stderr.write(`image build failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
