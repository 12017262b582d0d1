/** The shape of the signed-in user's menu: a type-only module, so the screens that add entries (session/screen-menu.ts, reports/report-menu.ts) and the session routes that build the menu do not import each other. */
export interface MenuItem {
  key: string;
  label: { th: string; en: string };
  icon?: string;
  submenu: { keyAction: string; label: { th: string; en: string }; path: string; icon?: string }[];
}
