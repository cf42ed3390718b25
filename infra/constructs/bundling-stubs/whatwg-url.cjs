// Stands in for `whatwg-url` in the Lambda bundles (TASK_BUNDLING.alias in infra/constructs/task-function.ts).
// node-fetch 2, which @kubernetes/client-node 1.4 uses, only reads `require('url').URL || whatwgUrl.URL`, and every
// Node.js since 10 has the first, so the real package (with tr46's 254 KB mapping table) is dead weight in a bundle.
'use strict';
module.exports = { URL: globalThis.URL, URLSearchParams: globalThis.URLSearchParams };
