// Reads a V8 CPU profile (.cpuprofile, as the inspector's Profiler.stop returns it) and says where the time went:
// the functions with the most self time, and the inclusive time of each project file, npm package and Node internal
// module that appears on the stack (each counted once per sample, so nested calls are not double-counted).

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface HotSpots {
  /** Sampled time not spent idle, ms. */
  busyMs: number;
  self: { name: string; ms: number }[];
  inclusive: { group: string; ms: number }[];
}

/** The file a frame belongs to, relative to `root`; npm packages and Node internals collapse to their name. */
function groupOf(url: string, root: string): string | undefined {
  if (!url) return undefined;
  const path = url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url;
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + '/node_modules/'.length).split('/');
    return `npm:${rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  if (path.startsWith('node:')) return path.split('/').slice(0, 2).join('/');
  return path.startsWith(root) ? path.slice(root.length).replace(/^\//, '') : path;
}

function frameName(f: CallFrame, root: string): string {
  const special = f.functionName.startsWith('(') && !f.url;
  if (special) return f.functionName;
  return `${f.functionName || '(anonymous)'} ${groupOf(f.url, root) ?? '(native)'}${f.lineNumber > 0 ? `:${f.lineNumber + 1}` : ''}`;
}

export function hotSpots(profile: CpuProfile, root: string, top = 25): HotSpots {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busyUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]!)!;
    const us = profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0;
    if (node.callFrame.functionName === '(idle)') continue;
    busyUs += us;
    const name = frameName(node.callFrame, root);
    self.set(name, (self.get(name) ?? 0) + us);
    const groups = new Set<string>();
    if (!node.callFrame.url && node.callFrame.functionName.startsWith('(')) groups.add(node.callFrame.functionName);
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const g = groupOf(byId.get(id)!.callFrame.url, root);
      if (g) groups.add(g);
    }
    for (const g of groups) inclusive.set(g, (inclusive.get(g) ?? 0) + us);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return {
    busyMs: busyUs / 1000,
    self: sorted(self).map(([name, us]) => ({ name, ms: us / 1000 })),
    inclusive: sorted(inclusive).map(([group, us]) => ({ group, ms: us / 1000 })),
  };
}

/** Per-request figures: each entry's time divided by `requests`, in µs. */
export function formatHotSpots(h: HotSpots, requests: number): string {
  const us = (ms: number) => `${((ms * 1000) / requests).toFixed(1).padStart(7)} µs/req ${((100 * ms) / h.busyMs).toFixed(1).padStart(5)}%`;
  return [
    `  busy CPU: ${((h.busyMs * 1000) / requests).toFixed(1)} µs/req over ${requests} requests`,
    '  inclusive time by file / package (on the stack):',
    ...h.inclusive.map((e) => `    ${us(e.ms)}  ${e.group}`),
    '  self time by function:',
    ...h.self.map((e) => `    ${us(e.ms)}  ${e.name}`),
  ].join('\n');
}
