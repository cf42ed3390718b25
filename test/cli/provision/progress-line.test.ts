import { rollEta } from '../../../lambdas/cli/provision/progress-line';

describe('rollEta', () => {
  it('says nothing before the first replacement, then extrapolates the pace seen so far, and nothing once done', () => {
    // Arrange
    const eta = rollEta();

    // Act
    const lines = [
      eta('workers', 0, 4, 0),
      eta('workers', 0, 4, 60_000),
      eta('workers', 1, 4, 120_000),
      eta('workers', 3, 4, 240_000),
      eta('workers', 4, 4, 300_000),
    ];

    // Assert: 1 node in 120 s → 3 left ≈ 6 min; then 3 nodes in 240 s → 1 left ≈ 80 s
    expect(lines).toEqual(['', '', '; ETA 6m00s', '; ETA 1m20s', '']);
  });

  it('measures a resumed roll from where this process first saw it', () => {
    const eta = rollEta();
    expect(eta('workers', 5, 9, 1_000_000)).toBe('');
    expect(eta('workers', 6, 9, 1_090_000)).toBe('; ETA 4m30s');
    expect(eta('other', 1, 2, 1_090_000)).toBe('');
  });
});
