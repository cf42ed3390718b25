// Stands in for `source-map` in the Lambda bundles (TASK_BUNDLING.alias in infra/constructs/task-function.ts).
// Handlebars' code generator requires it, inside try/catch, only to build source maps of compiled templates
// (`precompile` with `srcName`); without its SourceNode it uses its own small stand-in, as in browsers. The tasks compile
// templates to functions and never ask for a source map: this saves 26 KB of every bundle that renders. The CLI keeps
// the real one.
'use strict';
module.exports = {};
