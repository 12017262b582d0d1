/** Per-menu permission flags of a role (spec section 6). */
export interface PermissionFlags {
  view: boolean;
  email: boolean;
  print: boolean;
  export: boolean;
  edit: boolean;
}

export type RoleDetail = Record<string, Partial<PermissionFlags>>;

export interface RoleInfo {
  id: number;
  name: string;
  role_detail: RoleDetail;
  production_report_print_times: number;
}

export const CUSTOMER_ROLE_ID = -1;

/**
 * The built-in Customer role of spec section 6, shared by the server (which
 * enforces it) and the web app (which needs no role call for customers). The
 * code, not the database row, is authoritative.
 */
export const CUSTOMER_ROLE: RoleInfo = {
  id: CUSTOMER_ROLE_ID,
  name: 'Customer',
  production_report_print_times: 2,
  role_detail: {
    customer: { view: true, edit: true, email: false, print: false, export: false },
    billing_note: { view: true, edit: true, email: false, print: false, export: false },
  },
};
