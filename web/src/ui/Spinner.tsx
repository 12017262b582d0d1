/** A light spinner (no PrimeReact) so the entry chunk stays small. */
export function Spinner({ label }: { label?: string }) {
  return (
    <div className="bo-spinner-wrap" role="status" aria-live="polite">
      <span className="bo-spinner" aria-hidden="true" />
      {label ? <span className="bo-spinner-label">{label}</span> : <span className="bo-sr-only">Loading</span>}
    </div>
  );
}
