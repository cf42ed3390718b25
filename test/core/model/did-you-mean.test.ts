import { closestMatch, didYouMean, editDistance } from '../../../lambdas/core/model/did-you-mean';

describe('editDistance', () => {
  it('counts inserts, deletes, substitutions and adjacent swaps as one edit each', () => {
    expect(editDistance('channel', 'channel')).toBe(0);
    expect(editDistance('chanel', 'channel')).toBe(1);
    expect(editDistance('lifecylce_status', 'lifecycle_status')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('closestMatch', () => {
  it('finds plausible typos only', () => {
    expect(closestMatch('minsize', ['min_size', 'max_size'])).toBe('min_size');
    expect(closestMatch('instance_typ', ['instance_types', 'name'])).toBe('instance_types');
    expect(closestMatch('colour', ['min_size', 'profile'])).toBeUndefined();
  });

  it('renders a suffix only for a different word', () => {
    expect(didYouMean('regoin', ['region'])).toBe(' (did you mean "region"?)');
    expect(didYouMean('xyzzy', ['region'])).toBe('');
  });
});
