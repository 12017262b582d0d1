import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { Toast, type ToastMessage as PrimeMessage } from 'primereact/toast';
import { onClearToasts, onToast, type ToastMessage } from '../core/toast-bus.ts';
import { NOTIFICATION_OFFSET } from '../core/ui-constants.ts';

/** At most this many toasts at once: older ones go first, so they never pile up over the page. */
const MAX_TOASTS = 3;

interface Shown { msg: PrimeMessage; severity: ToastMessage['severity']; key: string; until: number; at: number }

/** A toast shown this shortly before the page changed announces the change itself ("created" and then the new record): it stays. */
export const TOAST_CARRIES_OVER_MS = 400;

/**
 * Toasts (3 s) sit at the bottom left, above the form's action bar and clear of
 * the page title and the form controls; notifications (4.5 s) top right at offset 24.
 * The same message is not shown twice, a successful save clears earlier errors,
 * and moving to another page takes the earlier page's toasts away.
 */
export function Toaster() {
  const toastRef = useRef<Toast>(null);
  const noteRef = useRef<Toast>(null);
  const shown = useRef<Shown[]>([]);
  useEffect(() => {
    const offToast = onToast((m) => {
      if (m.channel === 'notification') {
        noteRef.current?.show({ severity: m.severity, summary: m.summary, detail: m.detail, life: m.life });
        return;
      }
      const now = Date.now();
      const key = `${m.severity}|${m.summary}|${m.detail ?? ''}`;
      shown.current = shown.current.filter((s) => s.until > now);
      for (const s of shown.current.filter((x) => x.key === key)) toastRef.current?.remove(s.msg);
      shown.current = shown.current.filter((x) => x.key !== key);
      while (shown.current.length >= MAX_TOASTS) toastRef.current?.remove(shown.current.shift()!.msg);
      const msg: PrimeMessage = { severity: m.severity, summary: m.summary, detail: m.detail, life: m.life };
      shown.current.push({ msg, severity: m.severity, key, until: now + m.life + 500, at: now });
      toastRef.current?.show(msg);
    });
    const offClear = onClearToasts((severity) => {
      for (const s of shown.current.filter((x) => !severity || x.severity === severity)) toastRef.current?.remove(s.msg);
      shown.current = shown.current.filter((x) => severity && x.severity !== severity);
    });
    return () => { offToast(); offClear(); };
  }, []);
  // a toast is about the page it was shown on: another page takes it away
  const { pathname } = useLocation();
  useEffect(() => {
    const before = Date.now() - TOAST_CARRIES_OVER_MS;
    for (const s of shown.current.filter((x) => x.at < before)) toastRef.current?.remove(s.msg);
    shown.current = shown.current.filter((x) => x.at >= before);
  }, [pathname]);
  return (
    <>
      <Toast ref={toastRef} position="bottom-left" className="bo-toasts" />
      <Toast ref={noteRef} position="top-right" style={{ top: NOTIFICATION_OFFSET, right: NOTIFICATION_OFFSET }} />
    </>
  );
}
