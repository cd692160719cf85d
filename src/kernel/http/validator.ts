import type { FastifySchemaCompiler } from 'fastify';
import { compileSchemaOnFirstUse } from '../schemas/compile-schema.ts';

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema }) =>
  compileSchemaOnFirstUse(schema as object);
