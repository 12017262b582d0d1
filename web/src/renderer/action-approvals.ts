import type { ComponentType } from 'react';
import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import type { ApiError } from '../core/api-error.ts';

/** What an approval dialog is given: what is being approved, the server's refusal of the last try, and the answers. */
export interface ApprovalDialogProps {
  /** The action's name as the user sees it ("คืนเงิน/ยกเลิกบิล"). */
  what: string;
  /** The server's refusal of the approval that was sent (a wrong PIN), in its words. */
  error: string | null;
  busy: boolean;
  /** Run the action again with these request headers (the approver's, judged by the server). */
  onApprove: (headers: Record<string, string>) => void;
  onCancel: () => void;
}

/**
 * Someone else's approval of a workflow action the user's role may not run alone (a supervisor's PIN for a
 * cashier's void, issue 51 §2). A feature registers one (web/src/pages/…/…-form-panels.tsx, imported by App.tsx)
 * for the refusals that say an approver may allow the action; the generic buttons then show its dialog and run
 * the action again with the headers it gives, so the renderer imports no feature's screens. The server judges.
 */
export interface ActionApproval {
  key: string;
  /** Whether this refusal of an action of this entity may be approved (the server's reason, a schema key). */
  applies: (entity: EntitySchema, err: ApiError) => boolean;
  Dialog: ComponentType<ApprovalDialogProps>;
}

const approvals: ActionApproval[] = [];

export function registerActionApproval(a: ActionApproval): void {
  const i = approvals.findIndex((x) => x.key === a.key);
  if (i >= 0) approvals[i] = a; else approvals.push(a);
}

export function approvalFor(entity: EntitySchema, err: unknown): ActionApproval | null {
  if (!err || typeof err !== 'object' || !('status' in err)) return null;
  return approvals.find((a) => a.applies(entity, err as ApiError)) ?? null;
}
