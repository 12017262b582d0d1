import type { EntitySchema, WorkflowTransition } from '../../engine/schema/schema-types.ts';
import { AppError } from '../errors/app-error.ts';

type Row = Record<string, unknown>;

function stateLabel(entity: EntitySchema, value: unknown): string {
  return entity.workflow?.states.find((s) => s.value === value)?.label.en ?? String(value);
}

function actionNames(entity: EntitySchema): string {
  return entity.workflow!.transitions.map((t) => t.action).join(', ');
}

/**
 * A workflow's status moves only through its declared actions: a create
 * starts in the initial state, and a plain write never sets the status.
 * Internal callers (seed, jobs) pass `trusted` and keep the status they give.
 */
export function applyInitialState(entity: EntitySchema, input: Row, sent: Row, trusted: boolean): void {
  const w = entity.workflow;
  if (!w) return;
  const asked = sent[w.field];
  if (!trusted && asked !== undefined && asked !== null && asked !== w.initial) {
    throw new AppError('READ_ONLY_FIELD', `${w.field}: a new ${entity.label.en} starts as "${stateLabel(entity, w.initial)}"; change it afterwards with an action (${actionNames(entity)})`, {
      fields: [{ field: w.field, code: 'read_only', message: `starts as ${w.initial}; use an action to change it` }],
    });
  }
  if (!trusted || asked === undefined || asked === null) input[w.field] = w.initial;
}

/** Refuses a plain write that changes the status, or changes a record whose state is locked. */
export function assertPlainWriteAllowed(entity: EntitySchema, before: Row, changed: string[], trusted: boolean): void {
  const w = entity.workflow;
  if (!w || trusted) return;
  if (changed.includes(w.field)) {
    throw new AppError('READ_ONLY_FIELD', `${w.field}: the status of a ${entity.label.en} changes only through its actions (${actionNames(entity)}): POST /api/${entity.name}/${before.id}/actions/{action}`, {
      fields: [{ field: w.field, code: 'read_only', message: 'changes only through an action' }],
    });
  }
  const state = w.states.find((s) => s.value === before[w.field]);
  if (!state?.locked) return;
  const blocked = changed.filter((f) => !(state.editable ?? []).includes(f));
  if (blocked.length) {
    throw new AppError('DOCUMENT_LOCKED', `This ${entity.label.en} is ${state.label.en.toLowerCase()}: ${blocked.join(', ')} can no longer be changed; cancel it and make an amended copy`, {
      state: state.value, fields: blocked.map((field) => ({ field, code: 'locked', message: `cannot be changed once ${state.value}` })),
    });
  }
}

/** A locked record is removed by cancelling it, never by deleting. */
export function assertDeletable(entity: EntitySchema, before: Row, trusted: boolean): void {
  const w = entity.workflow;
  if (!w || trusted) return;
  const state = w.states.find((s) => s.value === before[w.field]);
  if (state?.locked) {
    throw new AppError('DOCUMENT_LOCKED', `This ${entity.label.en} is ${state.label.en.toLowerCase()} and cannot be deleted; cancel it instead`, { state: state.value });
  }
}

/** The transition an action names, checked against the record's current state. */
export function transitionFor(entity: EntitySchema, action: string, current: unknown): WorkflowTransition {
  const w = entity.workflow;
  const t = w?.transitions.find((x) => x.action === action);
  if (!w || !t) throw new AppError('NOT_FOUND', `${entity.label.en} has no action "${action}"${w ? `; its actions are ${actionNames(entity)}` : ''}`);
  if (!t.from.includes(String(current))) {
    const possible = w.transitions.filter((x) => x.from.includes(String(current))).map((x) => x.action);
    throw new AppError('INVALID_TRANSITION', `"${t.label.en}" cannot be done to a ${entity.label.en} that is ${stateLabel(entity, current).toLowerCase()}${possible.length ? `; possible now: ${possible.join(', ')}` : '; nothing more can be done to it'}`, {
      action, state: current, allowed_from: t.from,
    });
  }
  return t;
}
