import { importCjs } from '../../lambdas/shared/import-cjs';

describe('importCjs', () => {
  it("gives the package's exports whether import() answered them or { default: exports } (the ESM bundle)", async () => {
    class Command {}
    expect(await importCjs(Promise.resolve({ Command }))).toEqual({ Command });
    expect(await importCjs(Promise.resolve({ default: { Command } }))).toEqual({ Command });
    expect(await importCjs(Promise.resolve({ __esModule: true, default: { Command } }))).toEqual({ Command });
    // a module with a default export besides named ones is left as it is
    const both = { default: { Command }, Command };
    expect(await importCjs(Promise.resolve(both))).toBe(both);
  });
});
