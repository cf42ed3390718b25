// Stands in for `to-buffer` in the Lambda bundles (TASK_BUNDLING.alias in infra/constructs/task-function.ts). sha.js
// (isomorphic-git's SHA-1) converts its input with it; the package reaches typed arrays through ~25 polyfill packages
// for engines without ES2015 (get-intrinsic, call-bind, which-typed-array…, 19 KB of every bundle that reads git).
// Node 22 has all of that built in: the same conversions, written against Buffer and ArrayBuffer.isView directly.
// test/runtime/lambda/bundling-stubs.test.ts checks it against the real package. The CLI keeps the real one.
'use strict';

module.exports = function toBuffer(data, encoding) {
  if (Buffer.isBuffer(data)) return data;
  if (typeof data === 'string') return Buffer.from(data, encoding);
  if (ArrayBuffer.isView(data)) {
    return data.byteLength === 0 ? Buffer.alloc(0) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  }
  if (Array.isArray(data)) {
    for (const x of data) {
      if (typeof x !== 'number' || x < 0 || x > 255 || ~~x !== x)
        throw new RangeError('Array items must be numbers in the range 0-255.');
    }
    return Buffer.from(data);
  }
  throw new TypeError('The "data" argument must be a string, an Array, a Buffer, a Uint8Array, or a DataView.');
};
