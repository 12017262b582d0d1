import { lazy, type ComponentType } from 'react';
import type { EntityMeta } from '../core/entity-meta.ts';
import type { FormValues } from './form-model.ts';

/** What a related list hands the record form when it opens a row or adds one in a modal box. */
export interface NestedFormProps {
  meta: EntityMeta;
  type: 'create' | 'edit';
  id?: number;
  presentation?: 'page' | 'modal';
  prefill?: FormValues;
  lockedFields?: string[];
  onSaved?: (row: FormValues, type: 'create' | 'edit') => void;
  onDeleted?: () => void;
  onClose?: () => void;
}

type Loader = () => Promise<{ default: ComponentType<NestedFormProps> }>;
let load: Loader | null = null;

/**
 * The record form a related list opens. EntityForm shows related lists, so a
 * related list may not import EntityForm back (an import loop); the app hands
 * the form over once at start instead (main.tsx).
 */
export function provideRecordForm(loader: Loader): void {
  load = loader;
}

export const RecordForm = lazy(() => {
  if (!load) throw new Error('the record form was not provided (provideRecordForm in main.tsx)');
  return load();
});
