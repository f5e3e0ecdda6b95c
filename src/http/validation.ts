import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/**
 * Query strings and path parameters arrive as text, so their values are coerced to the declared
 * types ("limit=10" → 10). JSON bodies are taken as sent: `{"name": 42}` is a wrong type, not
 * a name. Unknown body fields are refused rather than silently dropped.
 */
export function installValidation(app: FastifyInstance, sharedSchemas: readonly object[]): void {
  const base: Options = { allErrors: false, removeAdditional: false, useDefaults: true, strict: false };
  const coercing = withFormats(new Ajv({ ...base, coerceTypes: 'array' }));
  const strict = withFormats(new Ajv({ ...base, coerceTypes: false }));
  for (const schema of sharedSchemas) {
    coercing.addSchema(schema);
    strict.addSchema(schema);
  }
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema));
}

function withFormats(ajv: Ajv): Ajv {
  (addFormats as unknown as (ajv: Ajv) => Ajv)(ajv);
  return ajv;
}
