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

/**
 * Compiles the validator once the screen has painted and the browser is idle, so the first
 * check on save does not wait for it. Compiling an entity's schema with Ajv takes 100–300 ms
 * of main thread; done while rendering (as it was) it stood between the record's data and the screen.
 */
export function warmValidator(entity: EntitySchema, type: 'create' | 'edit', resolve: Resolve): () => void {
  const run = () => { validatorFor(entity, type === 'create' ? 'create' : 'replace', resolve); };
  const idle = (globalThis as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number }).requestIdleCallback;
  let handle: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  // after the next frame is painted, then when the browser has nothing else to do
  const frame = requestAnimationFrame(() => {
    if (idle) handle = idle(run, { timeout: 3000 });
    else timer = setTimeout(run, 200);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (handle !== null) (globalThis as unknown as { cancelIdleCallback: (h: number) => void }).cancelIdleCallback(handle);
    if (timer !== null) clearTimeout(timer);
  };
}

/**
 * A react-hook-form resolver running the engine's validator on the body the form would send.
 * The validator is compiled on the first check (or earlier by warmValidator), never while the form renders.
 */
export function entityResolver(entity: EntitySchema, type: 'create' | 'edit', resolve: Resolve, visible: (name: string, values: FormValues) => boolean): Resolver<FormValues> {
  let compiled: EntityValidator | null = null;
  const validate = (body: FormValues) => (compiled ??= validatorFor(entity, type === 'create' ? 'create' : 'replace', resolve))(body);
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
