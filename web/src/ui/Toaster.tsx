import { useEffect, useRef } from 'react';
import { Toast } from 'primereact/toast';
import { onToast } from '../core/toast-bus.ts';
import { NOTIFICATION_OFFSET } from '../core/ui-constants.ts';

/** Toasts (3 s, top centre, clear of the form's action bar) and notifications (4.5 s, top right at offset 24). */
export function Toaster() {
  const toastRef = useRef<Toast>(null);
  const noteRef = useRef<Toast>(null);
  useEffect(() => onToast((m) => {
    const target = m.channel === 'notification' ? noteRef.current : toastRef.current;
    target?.show({ severity: m.severity, summary: m.summary, detail: m.detail, life: m.life });
  }), []);
  return (
    <>
      <Toast ref={toastRef} position="top-center" />
      <Toast ref={noteRef} position="top-right" style={{ top: NOTIFICATION_OFFSET, right: NOTIFICATION_OFFSET }} />
    </>
  );
}
