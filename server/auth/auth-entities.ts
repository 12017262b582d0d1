import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';

/**
 * The tables of accounts, roles and user types, found through the schemas: the entity that holds the user accounts
 * (`"holds": "userAccounts"`) and the entities its `role_id` and `user_type_id` link to. Read once when the app is
 * built, so a schema set without them stops the start with an error naming the key.
 */
export interface AuthEntities {
  account: string;
  role: string;
  type: string;
}

export function authEntities(registry: SchemaRegistry): AuthEntities {
  return { account: registry.held('userAccounts'), role: registry.heldLink('userAccounts', 'role_id'), type: registry.heldLink('userAccounts', 'user_type_id') };
}

/** Is this entity one whose change alters what a signed-in session may do (an account, a role, a user type)? */
export const isAuthEntity = (t: AuthEntities, name: string): boolean => name === t.account || name === t.role || name === t.type;
