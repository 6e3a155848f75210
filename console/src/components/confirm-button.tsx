/** A button that asks first: the question and Yes/Cancel appear in place, and focus moves to them and back. */
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

export interface ConfirmButtonProps {
  readonly label: string;
  /** The accessible name of the question with its buttons; the label by default. */
  readonly groupLabel?: string;
  readonly question: ComponentChildren;
  readonly confirmLabel: string;
  readonly danger?: boolean;
  readonly disabled?: boolean;
  readonly onConfirm: () => void;
}

export function ConfirmButton({
  label,
  groupLabel = label,
  question,
  confirmLabel,
  danger,
  disabled,
  onConfirm,
}: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking) yes.current?.focus();
    else if (wasAsking.current) opener.current?.focus();
    wasAsking.current = asking;
  }, [asking]);
  // While asking, Escape answers no, wherever the focus is, as a dialog's would (listening from the render on).
  useLayoutEffect(() => {
    if (!asking) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setAsking(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [asking]);
  if (!asking) {
    return (
      <button
        type="button"
        ref={opener}
        class={danger ? 'danger' : undefined}
        disabled={disabled}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  }
  return (
    <span class="confirm" role="group" aria-label={groupLabel}>
      <span>{question}</span>
      <button
        type="button"
        ref={yes}
        class={danger ? 'danger' : 'primary'}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
