import { toKubeError } from '../../../lambdas/adapters/kube/kube-errors';
import { TransientApiError } from '../../../lambdas/shared/errors';

describe('toKubeError for a connection that never got an answer', () => {
  it('names the API server host and port even when the error itself names nothing', () => {
    // What Node's dual-stack connect gives for a refused `localhost`: an AggregateError with a code and no message.
    const refused = Object.assign(new AggregateError([], ''), { code: 'ECONNREFUSED' });

    const error = toKubeError(refused, 'list nodes', 'https://kube-1.example.org');

    expect(error).toBeInstanceOf(TransientApiError);
    expect(error.message).toBe('list nodes: cannot reach the API server kube-1.example.org:443 (ECONNREFUSED)');
  });
});
