import { forwardRef, type ButtonHTMLAttributes, type ReactNode } from 'react';

export interface PlainButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  icon?: string;
  label?: string;
  text?: boolean;
  rounded?: boolean;
  outlined?: boolean;
  severity?: 'secondary' | 'success' | 'info' | 'warning' | 'danger' | 'help' | 'contrast';
  size?: 'small' | 'large';
  /** Shows a spinner in place of the icon and disables the button. */
  loading?: boolean;
  /** A count on the button (the filters' number). */
  badge?: string;
  children?: ReactNode;
}

function classes(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}

/**
 * The UI kit's `Button` as its markup and classes, so the theme styles it the same, without the kit's component:
 * that one merges its pass-through props, reads its context and sets up a tooltip and a ripple on every render,
 * and a list screen shows about fourteen buttons before its first row (docs/performance.md, Browser). For the
 * buttons of the screens a person opens first; the kit's base `.p-button` rules come with any kit component the
 * shell mounts (its toaster always does).
 */
export const PlainButton = forwardRef<HTMLButtonElement, PlainButtonProps>(function PlainButton(
  { icon, label, text, rounded, outlined, severity, size, loading, badge, className, children, disabled, type = 'button', ...rest },
  ref,
) {
  const off = disabled || loading;
  const shownIcon = loading ? 'pi pi-spin pi-spinner p-button-loading-icon' : icon;
  return (
    <button
      ref={ref}
      type={type}
      disabled={off}
      aria-label={label ? `${label}${badge ? ` ${badge}` : ''}` : undefined}
      {...rest}
      className={classes(
        className, 'p-button p-component',
        (icon || loading) && !label && !children && 'p-button-icon-only',
        off && 'p-disabled', loading && 'p-button-loading', outlined && 'p-button-outlined', text && 'p-button-text',
        rounded && 'p-button-rounded', loading && label && 'p-button-loading-left',
        size && `p-button-${size === 'small' ? 'sm' : 'lg'}`, severity && `p-button-${severity}`,
      )}
    >
      {shownIcon && <span className={classes('p-button-icon p-c', label && 'p-button-icon-left', shownIcon)} />}
      {label ? <span className="p-button-label p-c">{label}</span> : !children && <span className="p-button-label p-c">&nbsp;</span>}
      {children}
      {badge && <span className={classes('p-badge p-component', badge.length === 1 && 'p-badge-no-gutter')}>{badge}</span>}
    </button>
  );
});
