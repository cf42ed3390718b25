import type { FleetEvent } from '../../contracts/fleet-events';
import type { PushMatch } from './push-match';

const MAX_LISTED_CLUSTERS = 100;

/**
 * PushAccepted: a verified push, seen for the first time, fed config sources that clusters follow. The
 * dispatcher's rule (and `clm serve`) runs a pass over those clusters on it, so the webhook answers GitHub
 * without waiting for git, Step Functions or the starts.
 */
export function pushAcceptedEvent(deliveryId: string, match: PushMatch): FleetEvent {
  return {
    type: 'PushAccepted',
    detail: {
      repository: match.repository,
      ref: match.ref,
      commit: match.commit,
      deleted: match.deleted,
      sources: [...match.sources],
      deliveryId,
      affected: match.clusters.length,
      clusters: match.clusters.slice(0, MAX_LISTED_CLUSTERS),
    },
  };
}
