import type { Rehearsals } from '../../ports/rehearsals';

/**
 * The rehearsals port, loading the twin (the simulator and the whole task catalogue) on the first rehearsal: a CLI
 * command or a Lambda container that never rehearses never loads it.
 */
export const lazyRehearsals: Rehearsals = {
  rehearse: async (cluster, live, options) =>
    (await import('./rehearse-update')).TWIN_REHEARSALS.rehearse(cluster, live, options),
};
