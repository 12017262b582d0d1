/** Interface defaults of spec section 9. */
export const TOAST_LIFE_MS = 3000;
export const NOTIFICATION_LIFE_MS = 4500;
export const NOTIFICATION_OFFSET = 24;
export const MODAL_WIDTH = 520;
export const CONFIRM_MODAL_WIDTH = 416;
export const ANIMATION_DEADLINE_MS = 500;
export const DEFAULT_PROSPECT_PRIORITY_COLOR = '#000';
