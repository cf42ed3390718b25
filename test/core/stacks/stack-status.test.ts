import { classifyStackStatus, isStackBusy } from '../../../lambdas/core/stacks/stack-status';

// Every StackStatus value of the CloudFormation API (as of SDK 3.1169), with the class we expect.
const ALL_STATUSES: ReadonlyArray<[string, 'in-progress' | 'succeeded' | 'failed']> = [
  ['CREATE_IN_PROGRESS', 'in-progress'],
  ['CREATE_FAILED', 'failed'],
  ['CREATE_COMPLETE', 'succeeded'],
  ['ROLLBACK_IN_PROGRESS', 'in-progress'],
  ['ROLLBACK_FAILED', 'failed'],
  ['ROLLBACK_COMPLETE', 'failed'],
  ['DELETE_IN_PROGRESS', 'in-progress'],
  ['DELETE_FAILED', 'failed'],
  ['DELETE_COMPLETE', 'succeeded'],
  ['UPDATE_IN_PROGRESS', 'in-progress'],
  ['UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', 'in-progress'],
  ['UPDATE_COMPLETE', 'succeeded'],
  ['UPDATE_FAILED', 'failed'],
  ['UPDATE_ROLLBACK_IN_PROGRESS', 'in-progress'],
  ['UPDATE_ROLLBACK_FAILED', 'failed'],
  ['UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS', 'in-progress'],
  ['UPDATE_ROLLBACK_COMPLETE', 'failed'],
  ['REVIEW_IN_PROGRESS', 'in-progress'],
  ['IMPORT_IN_PROGRESS', 'in-progress'],
  ['IMPORT_COMPLETE', 'succeeded'],
  ['IMPORT_ROLLBACK_IN_PROGRESS', 'in-progress'],
  ['IMPORT_ROLLBACK_FAILED', 'failed'],
  ['IMPORT_ROLLBACK_COMPLETE', 'failed'],
];

describe('classifyStackStatus', () => {
  it.each(ALL_STATUSES)('classifies %s as %s', (status, expected) => {
    // Act
    const actual = classifyStackStatus(status);

    // Assert
    expect(actual).toBe(expected);
  });

  it('covers every status the SDK knows', async () => {
    // Arrange
    const { StackStatus } = await import('@aws-sdk/client-cloudformation');

    // Act
    const sdkStatuses = Object.values(StackStatus).sort();

    // Assert
    expect(ALL_STATUSES.map(([status]) => status).sort()).toEqual(sdkStatuses);
  });

  it('treats a status it does not know as failed rather than waiting forever', () => {
    expect(classifyStackStatus('SOMETHING_NEW')).toBe('failed');
  });

  it('calls in-progress stacks busy and settled ones not', () => {
    expect(isStackBusy('UPDATE_COMPLETE_CLEANUP_IN_PROGRESS')).toBe(true);
    expect(isStackBusy('UPDATE_ROLLBACK_COMPLETE')).toBe(false);
    expect(isStackBusy('CREATE_COMPLETE')).toBe(false);
  });
});
