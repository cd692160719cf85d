import type { FastifySchemaCompiler } from 'fastify';
import { compileSchema } from '../schemas/compile-schema.ts';

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema }) =>
  compileSchema(schema as object);
