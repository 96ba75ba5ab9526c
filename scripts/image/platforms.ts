// The image's platforms and what each one's name is in the registries its inputs come from.
export type Arch = 'amd64' | 'arm64';

export interface Platform {
  arch: Arch;
  /** npm's name (process.arch): node-linux-<npm>. */
  npm: 'x64' | 'arm64';
  /** ELF e_machine of every binary and library in its runtime layer. */
  elfMachine: number;
}

export const PLATFORMS: readonly Platform[] = [
  { arch: 'amd64', npm: 'x64', elfMachine: 0x3e },
  { arch: 'arm64', npm: 'arm64', elfMachine: 0xb7 },
];

/** The platform of the machine running this (the one a local containerd runs). */
export function hostPlatform(): Platform {
  const p = PLATFORMS.find((x) => x.npm === process.arch);
  if (!p) throw new Error(`no image platform for this machine's architecture ${process.arch}`);
  return p;
}

/** e_machine of an ELF file's header, or undefined when `head` is not ELF. */
export function elfMachine(head: Buffer): number | undefined {
  if (head.length < 20 || head.readUInt32BE(0) !== 0x7f454c46) return undefined;
  return head.readUInt16LE(18);
}
