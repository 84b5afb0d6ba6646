import type { TSchema } from 'typebox';
import { invalidInput } from './error-mapper.ts';
import { strictValidatorCompiler } from './validator.ts';

/**
 * Input that did not come through a Fastify route (an MCP tool's arguments, a dashboard form turned
 * into an API body) checked by the API's own validator: the same rules and the same words a person can
 * act on ("sort must be one of new, relevance, top"), as a 422 request.invalid. `subject` starts its
 * message ("The arguments are").
 */
export function checkerOf<T>(name: string, schema: TSchema, subject: string): (input: unknown) => T {
  const validate = strictValidatorCompiler({ schema, method: 'POST', url: name, httpPart: 'body' });
  return (input) => {
    const result = validate(input ?? {}) as { value?: unknown; error?: Parameters<typeof invalidInput>[0] };
    if (result.error) throw invalidInput(result.error, subject);
    return (result.value ?? input ?? {}) as T;
  };
}
