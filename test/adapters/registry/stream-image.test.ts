import { marshall } from '@aws-sdk/util-dynamodb';
import { unmarshallImage } from '../../../lambdas/adapters/registry/stream-image';

describe('unmarshallImage', () => {
  it("reads every attribute type back as the SDK's marshall wrote it", () => {
    // Arrange: a registry-like document with every DynamoDB type
    const document = {
      id: 'aws:123456789012:eu-central-1:kube-1',
      criticality_level: 2,
      ratio: 0.5,
      ready: true,
      gone: null,
      config_items: { a: '1', nested: { deep: ['x', 7] } },
      node_pools: [{ name: 'default', min_size: 1, instance_types: ['m5.large'] }],
      tags: new Set(['a', 'b']),
      sizes: new Set([1, 2]),
    };
    const image = JSON.parse(JSON.stringify(marshall(document))); // as a Lambda event carries it

    // Act
    const read = unmarshallImage(image);

    // Assert
    expect(read).toEqual(document);
  });

  it('decodes base64 binaries and refuses an attribute it does not know', () => {
    expect(unmarshallImage({ b: { B: Buffer.from('hi').toString('base64') } }).b).toEqual(Buffer.from('hi'));
    expect(() => unmarshallImage({ x: { Q: 'what' } as never })).toThrow(
      /x has no attribute type this reader knows \(Q\)/,
    );
  });
});
