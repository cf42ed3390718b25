// Jest transformer: esbuild turns TypeScript and ESM into CommonJS. `import.meta.url` is mapped to the
// file's own URL so code that locates files next to itself works in Jest as it does under tsx.
const { transformSync } = require('esbuild');
const { pathToFileURL } = require('node:url');

module.exports = {
  process(source, filename) {
    const loader = filename.endsWith('.ts') ? 'ts' : 'js';
    const result = transformSync(source, {
      loader,
      format: 'cjs',
      target: 'node20',
      sourcemap: 'inline',
      sourcefile: filename,
      define: { 'import.meta.url': JSON.stringify(pathToFileURL(filename).href) },
      supported: { 'dynamic-import': false },
    });
    return { code: result.code };
  },
  getCacheKey(source, filename) {
    return require('node:crypto').createHash('sha1').update('v2').update(filename).update(source).digest('hex');
  },
};
