/**
 * zod for CLM's schemas: `zod/mini`, the functional form of zod (`z.optional(z.string().check(z.minLength(1)))`), with
 * zod's English messages. Classic zod's chained methods keep every check and wrapper on each schema's prototype, so a
 * bundle using any of them carries 90–103 KB of zod; the same schemas in mini cost ≈ 20 KB (docs/benchmarks.md).
 * Classic zod loads its English messages by itself and mini does not, so this module does; the messages users see
 * ("Too small: expected string to have >=1 characters", "Invalid input: expected number, received string") are
 * classic's. Everything in lambdas/ imports zod from here: `import * as z from '../shared/zod'` (ESLint refuses
 * 'zod' itself there).
 */
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config(en());

export * from 'zod/mini';
