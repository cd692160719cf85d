import cors from '@fastify/cors';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import { createIntake } from './domain/intake.ts';
import { registerBodyParsers } from './http/body-parsers.ts';
import { apiErrors } from './http/error-catalog.ts';
import { registerErrorHandler } from './http/error-handler.ts';
import { registerLeadRoutes } from './http/lead-routes.ts';
import { registerOpenApiRoute } from './http/openapi-route.ts';
import { validatorCompiler } from './http/validator.ts';
import type { Provider } from './providers/provider.ts';
import type { Store } from './store/store.ts';

export interface AppDependencies {
  config: Config;
  store: Store;
  provider: Provider;
  logger?: FastifyServerOptions['logger'];
}

/** Builds the whole service (API, public files, site) without listening, so tests can inject requests. */
export async function buildApp({ config, store, provider, logger = false }: AppDependencies) {
  const bodyLimit = 64 * 1024;
  const app = Fastify({ logger, bodyLimit, return503OnClosing: true });
  app.setValidatorCompiler(validatorCompiler);
  registerBodyParsers(app);
  registerErrorHandler(app, bodyLimit);

  // Spec 1: CORS is open so browser-based agents can call the API; preflight needs no Origin check.
  await app.register(cors, {
    origin: '*',
    methods: ['POST', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Accept', 'Idempotency-Key'],
    maxAge: 86400,
    strictPreflight: false,
  });

  const intake = createIntake({ store, provider, timeoutMs: config.mail.timeoutMs });
  registerLeadRoutes(app, intake);
  registerOpenApiRoute(app, config.siteUrl);

  app.setNotFoundHandler(async (request) => {
    throw apiErrors.notFound(request.method, request.url.split('?')[0] ?? request.url);
  });
  return app;
}
