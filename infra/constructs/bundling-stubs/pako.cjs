// Stands in for `pako` in the Lambda bundles (TASK_BUNDLING.alias in infra/constructs/task-function.ts). pako is zlib
// written in JavaScript for browsers (46 KB of every bundle that reads git); isomorphic-git asks three things of it,
// all of which Node's own zlib does:
//  - inflate(bytes): a loose object or a whole deflate stream;
//  - deflate(bytes): an object it writes;
//  - new Inflate(), push(chunk) until `result` is set, then `strm.avail_in`: reading a packfile object by object, the
//    bytes of the last chunk that follow the object's deflate stream (where the next object's header starts).
// The streaming inflator keeps the chunks of the current object and inflates them whole on each push: an incomplete
// stream ("unexpected end of file") waits for the next chunk; `engine.bytesWritten` tells how much input the stream
// used. Objects of a config repository are small, so re-inflating an object that spans chunks costs little.
// test/runtime/lambda/bundling-stubs.test.ts checks it against the real package, and isomorphic-git reading a pack
// served by git http-backend through it. The CLI keeps the real one.
'use strict';

const zlib = require('node:zlib');

const asBuffer = (bytes) =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** pako throws its message as a string for corrupt data; isomorphic-git turns such strings into its own error. */
function call(operation, bytes) {
  try {
    return operation(asBuffer(bytes));
  } catch (error) {
    throw zlibMessage(error);
  }
}

const zlibMessage = (error) => (error && typeof error.message === 'string' ? error.message : String(error));

class Inflate {
  constructor() {
    this.result = undefined;
    this.err = 0;
    this.msg = '';
    this.strm = { avail_in: 0 };
    this.chunks = [];
  }

  /** Feed one more chunk; `result` is set once the stream is complete. Returns false on corrupt data, as pako does. */
  push(chunk) {
    if (this.result !== undefined || this.err !== 0) return false;
    this.chunks.push(asBuffer(chunk));
    const input = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    try {
      const { buffer, engine } = zlib.inflateSync(input, { info: true });
      this.result = buffer;
      this.strm.avail_in = input.length - engine.bytesWritten;
      this.chunks = [];
      return true;
    } catch (error) {
      if (error && error.code === 'Z_BUF_ERROR') return true;
      this.err = error && typeof error.errno === 'number' ? error.errno : -3;
      this.msg = zlibMessage(error);
      return false;
    }
  }
}

module.exports = {
  inflate: (bytes) => call(zlib.inflateSync, bytes),
  deflate: (bytes) => call(zlib.deflateSync, bytes),
  Inflate,
};
