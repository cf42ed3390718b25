// Records every template the engine parses (handlebars-parser.ts's parseHandlebars, which it imports), for the
// parsed-template cache tests. (The tests' esbuild transform does not hoist `jest.mock` above imports, hence a module
// of its own, imported before the engine.)
export const parsedTemplates: string[] = [];

jest.mock('../../../lambdas/adapters/templating/handlebars-parser', () => {
  const actual = jest.requireActual('../../../lambdas/adapters/templating/handlebars-parser');
  return {
    ...actual,
    parseHandlebars: (input: string, options?: { ignoreStandalone?: boolean }) => {
      parsedTemplates.push(input);
      return actual.parseHandlebars(input, options);
    },
  };
});
