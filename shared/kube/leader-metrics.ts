// Leader-election metrics: client-go's leader_election_master_status (as controller-runtime v0.20 registers it, name
// and help unchanged) and kruise_manager_is_leader, an unlabelled 1/0 for alerts that need no `by (name)`.
// In the registry the caller passes in (no global registry).
import { Gauge, type Registry } from 'prom-client';

/** client-go's LeaderMetric, without the slow-path counter (controller-runtime does not register it either). */
export interface LeaderMetrics {
  on(name: string): void;
  off(name: string): void;
}

export function leaderMetrics(registry: Registry): LeaderMetrics {
  const registers = [registry];
  const status = new Gauge({
    name: 'leader_election_master_status',
    help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
    labelNames: ['name'] as const,
    registers,
  });
  const isLeader = new Gauge({
    name: 'kruise_manager_is_leader',
    help: 'Whether this manager replica runs the controllers: 1 while it holds the leader lease (or leader election is off), else 0.',
    registers,
  });
  isLeader.set(0);
  return {
    on(name) { status.set({ name }, 1); isLeader.set(1); },
    off(name) { status.set({ name }, 0); isLeader.set(0); },
  };
}
