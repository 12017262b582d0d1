import type { FieldErrors, Resolver } from 'react-hook-form';
import { toNestErrors } from '@hookform/resolvers';
import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { createAjv, createEntityValidator, type EntityValidator } from '../../../engine/validation/entity-validator.ts';
import type { FieldError } from '../../../engine/errors/error-catalogue.ts';
import { fieldErrorText } from '../../../engine/errors/error-texts.ts';
import { i18n } from '../core/i18n.ts';
import { JsonFieldError, valuesToBody, type FormValues, type Resolve } from './form-model.ts';

let ajv: ReturnType<typeof createAjv> | null = null;
const cache = new Map<string, EntityValidator>();

/** The same validator the server runs (engine createAjv + createEntityValidator), so messages match. */
export function validatorFor(entity: EntitySchema, mode: 'create' | 'replace', resolve: Resolve): EntityValidator {
  const key = `${entity.name}:${mode}:${JSON.stringify(entity).length}`;
  let v = cache.get(key);
  if (!v) {
    ajv ??= createAjv();
    v = createEntityValidator(ajv, entity, mode, resolve);
    cache.set(key, v);
  }
  return v;
}

export function toFormErrors(errors: FieldError[]): Record<string, { type: string; message: string }> {
  const flat: Record<string, { type: string; message: string }> = {};
  const lang = i18n.language === 'en' ? 'en' : 'th';
  // the engine's English words, rendered from the code in the reader's language
  for (const e of errors) if (e.field && !flat[e.field]) flat[e.field] = { type: e.code, message: fieldErrorText(e, lang) };
  return flat;
}

/** A react-hook-form resolver running the engine's validator on the body the form would send. */
export function entityResolver(entity: EntitySchema, type: 'create' | 'edit', resolve: Resolve, visible: (name: string, values: FormValues) => boolean): Resolver<FormValues> {
  const validate = validatorFor(entity, type === 'create' ? 'create' : 'replace', resolve);
  return async (values, _ctx, options) => {
    let body: FormValues;
    try {
      body = valuesToBody(entity, values, resolve, '', false, (n) => visible(n, values));
    } catch (err) {
      if (err instanceof JsonFieldError) {
        return { values: {}, errors: toNestErrors({ [err.field]: { type: 'json', message: fieldErrorText({ code: 'json', message: 'is not valid JSON' }, i18n.language === 'en' ? 'en' : 'th') } } as FieldErrors, options) };
      }
      throw err;
    }
    const problems = validate(body);
    if (problems.length === 0) return { values: body, errors: {} };
    return { values: {}, errors: toNestErrors(toFormErrors(problems) as FieldErrors, options) };
  };
}
