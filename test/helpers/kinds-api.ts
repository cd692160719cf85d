import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { registerApi } from '../../src/features/intake/api-plugin.ts';
import { createBotTrap } from '../../src/features/intake/forms/bot-trap.ts';
import type { Intake, IntakeOutcome } from '../../src/features/intake/intake.ts';
import { validatorCompiler } from '../../src/kernel/http/validator.ts';
import type { LeadKindDescriptor } from '../../src/kernel/schemas/lead-kinds.ts';

/**
 * The API's routes for these descriptors on a bare Fastify, with the app's validator (src/app.ts,
 * which knows the schemas' own keywords x-phone and x-choices), for the whole test file. The intake
 * is the domain's, not under test here: it keeps what it is given in `submitted` and answers `outcome`.
 */
export function useKindsApi(
  kinds: readonly LeadKindDescriptor[],
  outcome: Partial<IntakeOutcome>,
): { app: FastifyInstance; submitted: unknown[] } {
  const submitted: unknown[] = [];
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  beforeAll(async () => {
    const intake = {
      submit: async (request: unknown) => {
        submitted.push(request);
        return outcome;
      },
    } as Intake;
    await registerApi(app, {
      intake,
      bodyLimit: 65536,
      rateLimit: { perMinute: 0 },
      botTrap: createBotTrap('test key', { minFillMs: 3000 }),
      kinds,
    });
    await app.ready();
  });
  afterAll(() => app.close());
  return { app, submitted };
}
